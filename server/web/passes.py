"""The tickets of the ``redirect``s a web front sent its WebSocket clients, and the address
each names (server/web/relay.py relays the WebSocket that gives one there, once)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from scopa.protocol.commands import Redirect

PASS_TTL = 30.0
"""Seconds a noted ticket may be used (a ticket's own lifetime, PROTOCOL.md §7)."""
MAX_PASSES = 10_000
"""Tickets noted at once; the oldest go first."""


class PassBook(Protocol):
    """Where a web front notes the ``redirect``s it sends and finds a ticket's address."""

    def note(self, redirect: Redirect) -> None:
        """Remember where ``redirect`` sends its client."""

    async def find(self, ticket: str) -> str | None:
        """The address ``ticket`` was given for (once; None: unknown or out of date)."""


class Passes:
    """The tickets of the ``redirect``s sent to this front's WebSocket clients."""

    def __init__(self, now: Callable[[], float], ttl: float = PASS_TTL, cap: int = MAX_PASSES) -> None:
        self._now = now
        self._ttl = ttl
        self._cap = cap
        self._by_ticket: OrderedDict[str, tuple[str, float]] = OrderedDict()

    def note(self, redirect: Redirect) -> None:
        """Remember where ``redirect`` sends its client."""
        self._prune()
        self._by_ticket[redirect.ticket] = (redirect.address, self._now() + self._ttl)
        while len(self._by_ticket) > self._cap:
            self._by_ticket.popitem(last=False)

    def take(self, ticket: str) -> str | None:
        """The address ``ticket`` was given for (once; None: unknown or out of date)."""
        self._prune()
        found = self._by_ticket.pop(ticket, None)
        return found[0] if found is not None else None

    def _prune(self) -> None:
        now = self._now()
        while self._by_ticket:
            ticket, (_, until) = next(iter(self._by_ticket.items()))
            if until > now:
                break
            del self._by_ticket[ticket]

    async def find(self, ticket: str) -> str | None:
        return self.take(ticket)
