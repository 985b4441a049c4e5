"""Watching a table from the network app: its board, kept up to date, until the person
presses b (or the table lets the spectators go)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol

from rich.text import Text
from textual.screen import Screen

from scopa.protocol import Command
from scopa.protocol.convert import rules_from_wire

from ...game import GameTranslator
from ...net import ClientSession
from ...text import DeckStyle, tr, word_text
from ..board import BoardScreen
from ...text import BoardState
from .players import NetApp as PlayersApp, Watcher
from .snapshot import apply_public


class NetApp(PlayersApp, Protocol):
    """What watching needs of the network app: its session, the board it shows, and the
    screens."""

    session: ClientSession | None
    deck: DeckStyle
    board_screen: BoardScreen | None
    watching: str | None

    @property
    def screen(self) -> Screen[object]: ...

    def push_screen(self, screen: BoardScreen) -> Awaitable[Any]: ...

    def pop_screen(self) -> object: ...

    def tell(self, text: str | Text) -> None: ...


async def watch_game(app: NetApp, table_id: str, invite: str | None = None) -> None:
    """Show ``table_id`` as a spectator until the session's watch ends; the board goes
    away then (its ``finally``), so the lobby is what is on screen again."""
    session = app.session
    assert session is not None
    snap = await session.watch_table(table_id, invite)
    board = BoardState(viewer=None)
    screen = BoardScreen(board, app.deck, title=tr("watching table {table} (b: back)", table=table_id))
    screen.turn_clock, screen.now = session.turn_clock, session.clock.now
    app.board_screen, app.watching = screen, table_id
    translator = GameTranslator(Watcher(app), -1, table_id)
    translator.rules = board.rules = rules_from_wire(snap.table.rules)
    translator.names = board.names = tuple(s.name for s in sorted(snap.seats, key=lambda s: s.seat))
    if snap.public is not None:
        translator.started = True
        apply_public(board, snap)
    board.away = {seat: tr("away") for seat in snap.table.away}  # who is away as we come: the table map says
    await app.push_screen(screen)
    screen.refresh_board()

    async def follow(command: Command) -> None:
        await translator.handle(command)

    try:
        left = await session.watch(table_id, follow)
        app.tell(tr("No longer watching table {table} ({reason}).", table=table_id, reason=word_text(left.reason)))
    finally:
        app.watching = None
        app.board_screen = None
        if app.screen is screen:
            app.pop_screen()
