"""A board set from a snapshot (a spectator's, or a seat's after a restart), or from the
table map while the seats fill."""

from __future__ import annotations

from scopa.protocol import Snapshot, TableInfo, TableState
from scopa.protocol.convert import rules_from_wire

from ...net import ClientSession
from ...text import BoardState
from ...text import apply_public, is_server_bot
from ..board import BoardScreen

__all__ = ["apply_public", "board_from_map", "bots_from_map", "seat_waiting", "table_now", "watched_snapshot"]


def watched_snapshot(screen: BoardScreen, snap: Snapshot) -> None:
    """A spectator's snapshot on its board: the table as it stands, and its last chat lines
    (``snap.chat``: a rematch's, the finished game's too) in place of the panel's."""
    apply_public(screen.board, snap)
    if snap.chat:
        screen.chat_again([(m.author.split(":", 1)[-1], m.text) for m in snap.chat])


def seat_waiting(board: BoardState, info: TableInfo | None) -> None:
    """Before the game starts: the table's rules and who sits at it, as the table map says."""
    if info is not None and info.state is TableState.WAITING:
        board.seat_table(rules_from_wire(info.rules), info.seats)


def board_from_map(board: BoardState, info: TableInfo | None) -> None:
    """A board opened at a table (a game about to start, or one under way that this seat
    comes back to): its rules and seats while it waits, and how many watch it, as ``info``
    (the table map) says."""
    seat_waiting(board, info)
    if info is not None:
        board.spectators = info.spectators


async def table_now(session: ClientSession, known: TableInfo | None) -> TableInfo | None:
    """The map of the table ``session`` sits at: ``known`` (what the server told last),
    else as the table itself told it (a seat taken back after a restart: a private table
    too), else as the lobby lists it; None if not known."""
    if known is not None and known.id == session.table_id:
        return known
    listed = None if _told(session) else next((t for t in await session.list_tables() if t.id == session.table_id),
                                              None)
    return _told(session) or listed  # told while the list was asked for: the table's word is fresher


def _told(session: ClientSession) -> TableInfo | None:
    """The map the table ``session`` sits at last sent it, if any."""
    told = session.table_map
    return told if told is not None and told.id == session.table_id else None


def bots_from_map(board: BoardState, info: TableInfo | None, at: ClientSession | None = None) -> None:
    """The other seats whose person a bot plays for, as the map ``info`` of the table (``at``:
    that ``at`` sits at) says ("bea (bot)"): the seat notices that said so are not sent
    again to a seat taken back after a restart."""
    if info is None or info.state is not TableState.PLAYING or (at is not None and at.table_id != info.id):
        return
    for seat, name in enumerate(info.seats):
        if seat == board.viewer or name is None or is_server_bot(name):
            continue
        if seat in info.bots:
            board.bot_plays.add(seat)
        else:
            board.bot_plays.discard(seat)
