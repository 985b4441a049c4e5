"""A table's numbered event log: every event a client may need when it comes back (a
seat resuming, a spectator watching again), kept packed as it went out."""

from __future__ import annotations

from typing import NamedTuple

from scopa.protocol import commands as wire

RESTORED_EVENTS = 1 << 40
"""Where a finished game restored after a restart numbers its events: above any event its
clients saw, so what they missed is always sent as a snapshot and the game_end."""


class LoggedEvent(NamedTuple):
    """A numbered table event as it went out, kept for clients that come back."""

    seat: int | None  # None: public; else only that seat saw it (its deal)
    event: int
    name: str
    payload: bytes  # the body, packed


class EventLog:
    """The events of one table, numbered 1, 2, ...; the most recent ``limit`` of them are
    kept (older ones: a client that missed them gets a snapshot)."""

    __slots__ = ("last", "kept", "base", "limit", "end")

    def __init__(self, limit: int = 10_000) -> None:
        self.last = 0  # the number of the latest event
        self.kept: list[LoggedEvent] = []  # a list: a few pointers a table, not a deque's 0.5 kB block
        self.base = 0  # the log holds every event numbered above this
        self.limit = limit
        self.end: wire.GameEnd | None = None  # how the game ended (also when abandoned)

    def next_event(self) -> int:
        self.last += 1
        return self.last

    def append(self, logged: LoggedEvent) -> None:
        kept = self.kept
        kept.append(logged)
        if len(kept) > self.limit:
            drop = len(kept) - self.limit
            self.base = kept[drop - 1].event
            del kept[:drop]

    def missed(self, seat: int | None, last_event: int) -> list[LoggedEvent] | None:
        """What ``seat`` (None: a spectator) may see after ``last_event`` (a your_turn is never logged: the
        pending one is sent again after them); None if the log no longer covers it (then
        a snapshot)."""
        if not self.base <= last_event <= self.last:
            return None
        return [e for e in self.kept if e.event > last_event and (e.seat is None or e.seat == seat)]

    def restart_at(self, number: int) -> None:
        """Number the events from here on above ``number`` (a game restored after a
        restart: above any event its clients saw), the log covering none before."""
        self.last = self.base = number

    def expire(self) -> None:
        """Free the log: whoever comes back from now on gets a snapshot."""
        self.kept.clear()
        self.base = self.last
