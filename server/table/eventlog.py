"""A table's numbered event log: every event a client may need when it comes back (a
seat resuming, a spectator watching again), kept packed as it went out."""

from __future__ import annotations

from array import array
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


_NAMES: list[str] = []
"""The names of the commands logged so far (a few table events), by their code."""
_CODES: dict[str, int] = {}
_PUBLIC = 0xFF  # the seat byte of a public event


def _code(name: str) -> int:
    code = _CODES.get(name)
    if code is None:
        if len(_NAMES) > 0xFF:
            raise ValueError(f"too many kinds of logged event for {name!r}")
        code = _CODES[name] = len(_NAMES)
        _NAMES.append(name)
    return code


class EventLog:
    """The events of one table, numbered 1, 2, ...; the most recent ``limit`` of them are
    kept (older ones: a client that missed them gets a snapshot).

    An event is kept as its packed body and one 8-byte word (its number, its seat, its
    name's code) rather than as a :class:`LoggedEvent` (a tuple of 80 bytes and more): a
    log holds a whole game for every table of the server."""

    __slots__ = ("last", "base", "limit", "end", "round_end", "_words", "_payloads")

    def __init__(self, limit: int = 10_000) -> None:
        self.last = 0  # the number of the latest event
        self.base = 0  # the log holds every event numbered above this
        self.limit = limit
        self.end: wire.GameEnd | None = None  # how the game ended (also when abandoned)
        self.round_end: wire.RoundEnd | None = None  # the game's last round_end (a snapshot carries it)
        self._words = array("Q")  # per event: number << 16 | seat byte << 8 | name code
        self._payloads: list[bytes] = []

    def next_event(self) -> int:
        self.last += 1
        return self.last

    def add(self, seat: int | None, event: int, name: str, payload: bytes) -> None:
        """Log event number ``event`` (``seat`` None: public), its body packed."""
        if seat is not None and not 0 <= seat < _PUBLIC:
            raise ValueError(f"not a seat: {seat}")
        code = _CODES.get(name)
        if code is None:
            code = _code(name)
        self._words.append(event << 16 | (_PUBLIC if seat is None else seat) << 8 | code)
        self._payloads.append(payload)
        if len(self._payloads) > self.limit:
            drop = len(self._payloads) - self.limit
            self.base = self._words[drop - 1] >> 16
            del self._words[:drop]
            del self._payloads[:drop]

    def append(self, logged: LoggedEvent) -> None:
        self.add(logged.seat, logged.event, logged.name, logged.payload)

    @property
    def kept(self) -> list[LoggedEvent]:
        """The events the log holds, oldest first."""
        return [_logged(word, payload) for word, payload in zip(self._words, self._payloads)]

    def missed(self, seat: int | None, last_event: int) -> list[LoggedEvent] | None:
        """What ``seat`` (None: a spectator) may see after ``last_event`` (a your_turn is never logged: the
        pending one is sent again after them); None if the log no longer covers it (then
        a snapshot)."""
        if not self.base <= last_event <= self.last:
            return None
        return [_logged(word, payload) for word, payload in zip(self._words, self._payloads)
                if word >> 16 > last_event and ((word >> 8) & 0xFF in (_PUBLIC, seat))]

    def restart_at(self, number: int) -> None:
        """Number the events from here on above ``number`` (a game restored after a
        restart: above any event its clients saw), the log covering none before."""
        self.last = self.base = number

    def expire(self) -> None:
        """Free the log: whoever comes back from now on gets a snapshot."""
        self._words = array("Q")
        self._payloads = []
        self.base = self.last


def _logged(word: int, payload: bytes) -> LoggedEvent:
    seat = (word >> 8) & 0xFF
    return LoggedEvent(None if seat == _PUBLIC else seat, word >> 16, _NAMES[word & 0xFF], payload)
