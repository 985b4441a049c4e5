"""A board set from a snapshot's public picture (a spectator's, or a seat's after a
restart): the full-screen board and the plain spectator's round boxes."""

from __future__ import annotations

from collections.abc import Sequence

from scopa.engine import Card, RoundPlay, mask_of
from scopa.protocol import Snapshot
from scopa.protocol.commands import ForcedBy, PlayLogEntry
from scopa.protocol.convert import parse_card_strs, rules_from_wire, view_from_wire

from .state import BoardState


def apply_public(board: BoardState, snap: Snapshot) -> None:
    """Set the board from a snapshot (a spectator's, or a seat's after a restart)."""
    if snap.table.rules is not None:
        board.rules = rules_from_wire(snap.table.rules)
    if snap.seats:
        board.names = tuple(s.name for s in sorted(snap.seats, key=lambda s: s.seat))
        board.bot_plays = {s.seat for s in snap.seats if s.bot}  # a person's name played by a bot: taken over
    if snap.you is not None and board.rules is not None:
        board.sync(view_from_wire(snap.you, board.rules))
        _marks(board, snap.you.round_plays)
        return
    p = snap.public
    if p is None:
        return
    _marks(board, p.round_plays)
    board.round_no, board.dealer, board.to_move = p.round, p.dealer, p.turn
    board.table = tuple(parse_card_strs(p.table))
    board.stock_left, board.hand_sizes = p.stock, list(p.hand_sizes)
    board.captured = [mask_of(parse_card_strs(c)) for c in p.captured]
    board.scope, board.totals = list(p.scope), tuple(p.totals)
    board.plays = [RoundPlay(e.seat, Card.parse(e.card), tuple(parse_card_strs(e.captured))) for e in p.round_plays]
    board.declared = {d.seat: tuple(parse_card_strs(d.hand)) for d in p.declared}
    board.last_capture_side = p.last_capture_side


def _marks(board: BoardState, plays: Sequence[PlayLogEntry]) -> None:
    """The round's marks as the snapshot lists them: scopas, the server's plays when time
    ran out, a bot's plays for a person."""
    board.mark_plays([Card.parse(e.card) for e in plays if e.scopa],
                     [Card.parse(e.card) for e in plays if e.forced is ForcedBy.TIMEOUT],
                     [Card.parse(e.card) for e in plays if e.bot])
