"""The other seats that are away from a network game: who, and how long until a bot plays for them."""

from __future__ import annotations

from ...text import tr

import time
from dataclasses import replace
from collections.abc import Callable, Sequence

from textual.timer import Timer

from ...game import SeatCameBack, SeatNotice, SeatTakenByBot, SeatWentAway
from ..board import BoardScreen
from ..text import clock, notice_text


class AwaySeats:
    """Marks away seats on the board (from the table map and from seat notices), each
    row counting down the time the seat has left, and says what became of them."""

    def __init__(self, tell: Callable[[str], None]) -> None:
        self.tell = tell
        self._until: dict[int, float] = {}
        self._countdowns: dict[int, Timer] = {}  # the seat rows counting an away seat's time down

    def from_update(self, screen: BoardScreen, away: Sequence[int]) -> None:
        board = screen.board
        for seat in list(board.away):
            if seat not in away:
                board.away.pop(seat)
                self.tell(tr("{name} is back.", name=board.seat_name(seat)))
        for seat in away:
            if seat not in board.away and seat != board.viewer:
                board.away[seat] = tr("away")
                self.tell(tr("{name} disconnected; the table waits for them.", name=board.seat_name(seat)))
        screen.refresh_board()

    def notice(self, screen: BoardScreen, notice: SeatNotice) -> None:
        """Show what became of another seat: away (with the time it has left), back, or a bot's now."""
        board = screen.board
        if notice.seat == board.viewer:  # our own seat (told again after a resume): the link status says it
            return
        if isinstance(notice, SeatTakenByBot):  # named "ada (bot)" from now on
            board.bot_plays.add(notice.seat)
        elif isinstance(notice, SeatCameBack):
            board.bot_plays.discard(notice.seat)
        match notice:
            case SeatWentAway(seat=seat, grace_seconds=grace):
                self._until[seat] = time.monotonic() + grace
                board.away[seat] = tr("away, a bot in {time}", time=clock(grace)) if grace else tr("away")
                self._stop(seat)
                self._countdowns[seat] = screen.set_interval(1.0, lambda: self._tick(screen, seat),
                                                             repeat=int(grace) + 1)
            case SeatTakenByBot(seat=seat) if seat not in board.away:  # not away: the person left
                notice = replace(notice, left=True)
                self._stop(seat)
            case SeatCameBack(seat=seat) | SeatTakenByBot(seat=seat):
                board.away.pop(seat, None)
                self._until.pop(seat, None)
                self._stop(seat)
        if isinstance(notice, SeatTakenByBot):  # kept among the round's plays: the bot's move comes at once
            board.notes.append((len(board.plays), notice_text(notice)))
            if notice.left:
                board.left.add(notice.seat)
        self.tell(notice_text(notice))
        screen.refresh_board()

    def held_back(self) -> str:
        """What the person is told when they take back the seat a bot played while they were away."""
        return tr("You were away too long, so a bot played in your place; now you play again.")

    def _stop(self, seat: int) -> None:
        timer = self._countdowns.pop(seat, None)
        if timer is not None:
            timer.stop()

    def _tick(self, screen: BoardScreen, seat: int) -> None:
        until = self._until.get(seat)
        if until is None or seat not in screen.board.away:
            return
        screen.board.away[seat] = tr("away, a bot in {time}", time=clock(until - time.monotonic()))
        screen.refresh_board()
