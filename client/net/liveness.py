"""Noticing a dead link from the client's side, and telling whoever shows it.

A TCP connection can die without a reset: bytes simply stop.  :class:`Watchdog`
watches one connection: when nothing has arrived for ``ping_after`` seconds it asks for
a ``ping`` to be sent, and when nothing at all has arrived ``dead_after`` seconds after
that ping it declares the link dead (docs/PROTOCOL.md §7, "Liveness").  Every received
chunk counts as hearing the server, so a busy game sends no pings.  While its ``hurry``
says so (a client of a cluster's member, at a table: the member hands its tables on
within seconds of going silent), the watchdog pings after :data:`HURRIED_PING_AFTER`
and gives up :data:`HURRIED_DEAD_AFTER` later, so the client follows its table to
another member about as soon as the table has moved.

Time comes from a :class:`~scopa.client.net.clock.Clock` (``now`` and ``sleep``): the
event loop's by default, a fake clock in tests, so no test waits for real.

:class:`LinkEvent` is what :class:`~scopa.client.net.session.ClientSession` reports to its
listeners when the connection is lost, back, or given up on, so a user interface can
say "connection lost, reconnecting…" the moment it happens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from .clock import Clock

PING_AFTER = 5.0
"""Seconds of silence from the server before the client pings it."""
DEAD_AFTER = 10.0
"""Seconds after that ping with nothing received before the link counts as dead."""
HURRIED_PING_AFTER = 1.0
"""Seconds of silence before a ping while hurried (a seat or a watched table in a cluster)."""
HURRIED_DEAD_AFTER = 3.0
"""Seconds after that ping before the link counts as dead while hurried: a cluster's
member silent that long has handed its tables on (their leases live 3 s)."""


class LinkStatus(StrEnum):
    LOST = "lost"  # the connection is gone; reconnecting starts
    RECONNECTED = "reconnected"  # back (at the seat, or in the lobby)
    GAVE_UP = "gave_up"  # reconnecting ran out of time (or the server refused)


@dataclass(frozen=True, slots=True)
class LinkEvent:
    status: LinkStatus
    reason: str


LinkListener = Callable[[LinkEvent], None]


class Watchdog:
    """Pings a quiet server and declares a link dead that stays silent after the ping."""

    def __init__(self, clock: Clock, ping_after: float, dead_after: float,
                 send_ping: Callable[[], None], dead: Callable[[str], None],
                 hurry: Callable[[], bool] | None = None) -> None:
        """``hurry``: asked at least every :data:`HURRIED_PING_AFTER` s whether to use the
        hurried intervals now (None: never)."""
        if ping_after <= 0 or dead_after <= 0:
            raise ValueError("ping_after and dead_after must be positive")
        self.clock = clock
        self.ping_after = ping_after
        self.dead_after = dead_after
        self._send_ping = send_ping
        self._dead = dead
        self._hurry = hurry
        self._last_heard = clock.now()
        self._heard = 0  # chunks received: a ping is answered when this moves
        self.pings = 0

    def heard(self) -> None:
        """Something arrived from the server."""
        self._last_heard = self.clock.now()
        self._heard += 1

    async def run(self) -> None:
        """Until cancelled (or the link is declared dead)."""
        while True:
            ping_after, dead_after = self.intervals()
            quiet = self.clock.now() - self._last_heard
            if quiet < ping_after:
                wait = ping_after - quiet
                await self.clock.sleep(wait if self._hurry is None else min(wait, HURRIED_PING_AFTER))
                continue
            before = self._heard
            self.pings += 1
            self._send_ping()
            await self.clock.sleep(dead_after)
            if self._heard == before:
                self._dead(f"no answer from the server for {ping_after + dead_after:g} s")
                return

    def intervals(self) -> tuple[float, float]:
        """``(ping_after, dead_after)`` now: the hurried ones while ``hurry`` says so."""
        if self._hurry is not None and self._hurry():
            return min(self.ping_after, HURRIED_PING_AFTER), min(self.dead_after, HURRIED_DEAD_AFTER)
        return self.ping_after, self.dead_after
