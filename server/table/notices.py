"""What a table tells everyone of a seat going away and coming back: at most one
``seat_away`` / ``seat_back`` pair per seat per window (``Limits.resume_window``).

A seat whose connection drops within the window of the last ``seat_away`` or
``seat_back`` told is not told away at once: if it is still away when that window ends,
``seat_away`` is told then (with the grace left); if it came back before, nobody heard
of it.  A ``seat_back``
follows every ``seat_away`` told; one for a seat nobody heard was away (its connection
was replaced by a resuming one) is told at most once per window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from scopa.protocol import commands as wire

from ..core import Clock, Timer

if TYPE_CHECKING:
    from scopa.engine import GameMaster

    from .broadcast import Broadcaster

SeatNotice = wire.SeatAway | wire.SeatBack


class SeatNotices:
    """The away and back notices of one table's seats (``window`` 0: every one told)."""

    __slots__ = ("clock", "window", "_tell", "_away_told", "_back_told", "_shown_away", "_later", "_away_said")

    def __init__(self, clock: Clock, window: float, tell: Callable[[SeatNotice], None]) -> None:
        self.clock = clock
        self.window = window
        self._tell = tell
        self._away_told: dict[int, float] = {}  # seat -> when its last seat_away was told
        self._back_told: dict[int, float] = {}  # seat -> when its last seat_back was told
        self._shown_away = 0  # seats everyone was told are away (and not back yet), as bits: no set a table
        self._later: dict[int, Timer] = {}  # seat -> its seat_away, held until its window ends
        self._away_said: dict[int, wire.SeatAway] = {}  # seat -> the last seat_away told of it

    def _recent(self, told: dict[int, float], seat: int) -> float | None:
        """When the window of ``told[seat]`` ends, if it has not yet."""
        at = told.get(seat)
        if at is None or self.window <= 0:
            return None
        ends = at + self.window
        return ends if ends > self.clock.now() else None

    def away(self, seat: int, notice: Callable[[], wire.SeatAway], still_away: Callable[[], bool]) -> bool:
        """Seat ``seat`` went away: its ``seat_away`` (made by ``notice``) told now (True),
        or, within the window of its last notice, held until that window ends, then told
        if ``still_away()`` (False)."""
        if self._shown_away >> seat & 1:
            return False
        ends = max(self._recent(self._away_told, seat) or 0.0, self._recent(self._back_told, seat) or 0.0) or None
        if ends is None:
            self._told_away(seat, notice())
            return True
        if seat not in self._later:
            def later() -> None:
                self._later.pop(seat, None)
                if still_away() and not self._shown_away >> seat & 1:
                    self._told_away(seat, notice())
            self._later[seat] = self.clock.call_later(ends - self.clock.now(), later)
        return False

    def _told_away(self, seat: int, body: wire.SeatAway) -> None:
        self._away_told[seat] = self.clock.now()
        self._shown_away |= 1 << seat
        self._away_said[seat] = body
        self._tell(body)

    def away_now(self, away: Iterable[int]) -> list[wire.SeatAway]:
        """For someone who starts watching: the ``seat_away`` of each seat of ``away`` (the
        seats away now) that everyone was told is away, as it stands now: the grace left,
        and unnumbered (the table as it is, as the snapshot it follows, not an event of
        the log).  A seat whose notice is held (its window) is not told, as to the others."""
        now = self.clock.now()
        return [said.model_copy(update={"event": None, "grace_seconds": max(
                    0.0, round(said.grace_seconds - (now - self._away_told[seat]), 3))})
                for seat in away if self._shown_away >> seat & 1 and (said := self._away_said.get(seat)) is not None]

    def back(self, seat: int, body: wire.SeatBack) -> bool:
        """Seat ``seat`` is back: its ``seat_back`` told (True) after a ``seat_away`` that
        was told, or when no ``seat_back`` of it was told within the window."""
        held = self._later.pop(seat, None)
        if held is not None:
            held.cancel()
        if not self._shown_away >> seat & 1 and self._recent(self._back_told, seat) is not None:
            return False
        self._shown_away &= ~(1 << seat)
        self._back_told[seat] = self.clock.now()
        self._tell(body)
        return True

    def stop(self) -> None:
        """The table is done: no held notice is told."""
        for timer in self._later.values():
            timer.cancel()
        self._later.clear()


class TableNotices:
    """A table's :class:`SeatNotices`, made when first needed (a seat goes away or comes
    back, someone starts watching): most tables never need them, and they are a few
    hundred bytes a table."""

    __slots__ = ()
    clock: Clock
    notice_window: float  # Limits.resume_window
    broadcaster: Broadcaster
    master: GameMaster | None
    _notices: SeatNotices | None

    @property
    def notices(self) -> SeatNotices:
        notices = self._notices
        if notices is None:
            notices = SeatNotices(self.clock, self.notice_window, self._tell_notice)
            self._notices = notices  # type: ignore[misc]  # the table's slot (a dataclass field)
        return notices

    def _tell_notice(self, body: SeatNotice) -> None:
        """A notice to the whole table: an event of its log once the game has begun."""
        self.broadcaster.tell_seat(body, numbered=self.master is not None)
