"""The turn clock as the server tells it (PROTOCOL.md §7, Turn clock): each command that
says whose turn it is carries the milliseconds left to move, ``turn_left_ms``, counted
when it was sent.  :class:`TurnClock` turns that into a deadline on the client's own
monotonic clock, so a countdown needs no clock of the server's and is right again after
a resume (the server's ``seat_back``, ``snapshot`` and repeated ``your_turn`` tell the
time left *then*).  No I/O and no user interface here: both terminal clients use it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from scopa.protocol import commands as wire


@dataclass
class TurnClock:
    """Whose turn the server last told of, and when its clock runs out."""

    deadline: float | None = None  # on the client's clock; None: no clock runs
    seat: int | None = None  # whose turn; None: whoever is to move (a seat_back does not say)
    players: int = 0
    stopped: bool = False  # the connection is down: no countdown until the server tells the time again

    def stop(self) -> None:
        """The connection is lost: the time left is not known (the server may wait, or be
        down) until a command after the reconnect tells it."""
        self.stopped = self.deadline is not None
        self.deadline = None

    def heard(self, body: wire.Body, now: float) -> None:
        """Follow one command from the table (received at ``now``)."""
        if isinstance(body, wire.GameStart):
            self.players = len(body.seats)
            return
        if isinstance(body, (wire.RoundEnd, wire.GameEnd)):
            self.deadline = self.seat = None  # the next turn is told by the next round_start
            self.stopped = False
            return
        seat: int | None
        if isinstance(body, wire.YourTurn):
            seat = body.view.turn
        elif isinstance(body, wire.RoundStart):
            seat = (body.dealer + 1) % self.players if self.players else None
        elif isinstance(body, wire.CardPlayed):
            seat = (body.seat + 1) % self.players if self.players else None
        elif isinstance(body, wire.DeclarationMade):
            seat = body.seat
        elif isinstance(body, wire.Snapshot):
            self.players = len(body.seats) or self.players
            seat = body.public.turn if body.public is not None else None
        elif isinstance(body, wire.SeatBack):
            seat = None
        else:
            return
        left = body.turn_left_ms
        self.stopped = False
        self.seat = seat
        self.deadline = None if left is None else now + left / 1000

    def left(self, now: float, to_move: int | None) -> int | None:
        """Whole seconds left (rounded up) on the turn of ``to_move``, the seat the board
        shows to move; None when no clock runs for it."""
        if self.deadline is None or to_move is None or (self.seat is not None and self.seat != to_move):
            return None
        return max(0, math.ceil(self.deadline - now))


def seconds_text(seconds: int) -> str:
    """``0:42``, ``1:05``: a countdown's (or a timer's) time as a person reads it, in one
    form however long it is."""
    return f"{seconds // 60}:{seconds % 60:02d}"
