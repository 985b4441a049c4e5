"""A board set from a snapshot (a spectator's, or a seat's after a restart), or from the
table map while the seats fill."""

from __future__ import annotations

from scopa.engine import Card, RoundPlay, mask_of
from scopa.protocol import Snapshot, TableInfo, TableState
from scopa.protocol.convert import parse_card_strs, rules_from_wire, view_from_wire

from ...net import ClientSession
from ...text import BoardState


def apply_public(board: BoardState, snap: Snapshot) -> None:
    """Set the board from a snapshot (a spectator's, or a seat's after a restart)."""
    if snap.table.rules is not None:
        board.rules = rules_from_wire(snap.table.rules)
    if snap.seats:
        board.names = tuple(s.name for s in sorted(snap.seats, key=lambda s: s.seat))
        board.bot_plays = {s.seat for s in snap.seats if s.bot}  # a person's name played by a bot: taken over
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



def seat_waiting(board: BoardState, info: TableInfo | None) -> None:
    """Before the game starts: the table's rules and who sits at it, as the table map says."""
    if info is not None and info.state is TableState.WAITING:
        board.seat_table(rules_from_wire(info.rules), info.seats)


async def table_now(session: ClientSession, known: TableInfo | None) -> TableInfo | None:
    """The map of the table ``session`` sits at: ``known`` (what the server told last),
    else as the lobby lists it (a seat taken back after a restart); None if not listed."""
    if known is not None and known.id == session.table_id:
        return known
    return next((t for t in await session.list_tables() if t.id == session.table_id), None)
