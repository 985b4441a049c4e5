"""Noticing a dead link from the client's side, and telling whoever shows it.

A TCP connection can die without a reset: bytes simply stop.  :class:`Watchdog`
watches one connection: when nothing has arrived for ``ping_after`` seconds it asks for
a ``ping`` to be sent, and when nothing at all has arrived ``dead_after`` seconds after
that ping it declares the link dead (docs/PROTOCOL.md §7, "Liveness").  Every received
chunk counts as hearing the server, so a busy game sends no pings.

Time comes from a :class:`~scopa.client.clock.Clock` (``now`` and ``sleep``): the
event loop's by default, a fake clock in tests, so no test waits for real.

:class:`LinkEvent` is what :class:`~scopa.client.session.ClientSession` reports to its
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
                 send_ping: Callable[[], None], dead: Callable[[str], None]) -> None:
        if ping_after <= 0 or dead_after <= 0:
            raise ValueError("ping_after and dead_after must be positive")
        self.clock = clock
        self.ping_after = ping_after
        self.dead_after = dead_after
        self._send_ping = send_ping
        self._dead = dead
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
            quiet = self.clock.now() - self._last_heard
            if quiet < self.ping_after:
                await self.clock.sleep(self.ping_after - quiet)
                continue
            before = self._heard
            self.pings += 1
            self._send_ping()
            await self.clock.sleep(self.dead_after)
            if self._heard == before:
                self._dead(f"no answer from the server for {self.ping_after + self.dead_after:g} s")
                return
