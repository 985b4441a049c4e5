"""The players a network game's board runs: the person at this keyboard, and a spectator;
and a board set from a snapshot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from scopa.engine import Card, Declare, Event, IllegalMoveError, Play, RoundPlay, View, mask_of
from scopa.engine.player import Player
from scopa.protocol import Snapshot
from scopa.protocol.convert import parse_card_strs, rules_from_wire, view_from_wire

from .board import BoardScreen
from .boardstate import BoardState

if TYPE_CHECKING:
    from .netapp import NetApp


class NetPlayer(Player):
    """The person at this keyboard, seated at a server's table."""

    def __init__(self, name: str, app: NetApp, screen: BoardScreen) -> None:
        self.name = name
        self.net_app = app
        self.screen = screen

    async def notify(self, event: Event) -> None:
        await self.net_app.show_event(event)

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.net_app.comeback.caught_up(self.screen)  # a turn comes after the history
        board = self.screen.board
        board.viewer = view.seat
        board.sync(view)
        self.screen.refresh_board()
        if self.net_app.autoplay and len(legal) == 1 and len(view.hand) == 1:
            self.screen.autoplayed = True
            return legal[0]
        again = self.net_app.comeback.move_to_replay(legal)
        if again is not None:
            return again
        action = await self.screen.ask(legal)
        self.net_app.comeback.last_move = (list(legal), action)
        return action

    async def rejected(self, error: IllegalMoveError) -> None:
        self.net_app.comeback.last_move = None
        self.screen.say(Text(f"Not allowed: {error}", style="yellow"))


class Watcher(Player):
    """A spectator's seatless player: it only follows the public events."""

    def __init__(self, app: NetApp) -> None:
        self.net_app = app

    async def notify(self, event: Event) -> None:
        await self.net_app.show_event(event)

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        raise RuntimeError("a spectator is never asked to play")


def apply_public(board: BoardState, snap: Snapshot) -> None:
    """Set the board from a snapshot (a spectator's, or a seat's after a restart)."""
    if snap.table.rules is not None:
        board.rules = rules_from_wire(snap.table.rules)
    if snap.seats:
        board.names = tuple(s.name for s in sorted(snap.seats, key=lambda s: s.seat))
    if snap.you is not None and board.rules is not None:
        board.sync(view_from_wire(snap.you, board.rules))
        return
    p = snap.public
    if p is None:
        return
    board.round_no, board.dealer, board.to_move = p.round, p.dealer, p.turn
    board.table = tuple(parse_card_strs(p.table))
    board.stock_left, board.hand_sizes = p.stock, list(p.hand_sizes)
    board.captured = [mask_of(parse_card_strs(c)) for c in p.captured]
    board.scope, board.totals = list(p.scope), tuple(p.totals)
    board.plays = [RoundPlay(e.seat, Card.parse(e.card), tuple(parse_card_strs(e.captured))) for e in p.round_plays]
    board.declared = {d.seat: tuple(parse_card_strs(d.hand)) for d in p.declared}
    board.last_capture_side = p.last_capture_side

