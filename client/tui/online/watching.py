"""Watching a table from the network app: its board, kept up to date, until the person
presses b (or the table lets the spectators go); a game watched to its end whose players
make a rematch: the rematch too, if the person asks for it (``n`` on the result)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar

from rich.text import Text
from textual.screen import Screen

from scopa.protocol import Command, ErrorCode, GameEnd, TableInfo
from scopa.protocol.convert import rules_from_wire

from ...game import GameTranslator
from ...net import ClientSession, ServerRefused, game_over_at, server_address
from ...text import DeckStyle, game_over_text, tr, word_text
from ..app import ScopaApp
from ..board import BoardScreen
from ..dialogs import ConfirmScreen, GameOverScreen
from ..text import result_line
from ...text import BoardState
from .lastgame import replay_screen
from .away import AwaySeats
from .players import NetApp as PlayersApp, Watcher
from .rematch import Rematches, watched_game_over
from .snapshot import watched_snapshot


T = TypeVar("T")


class NetApp(PlayersApp, Protocol):
    """What watching needs of the network app: its session, the board it shows, and the
    screens."""

    session: ClientSession | None
    deck: DeckStyle
    board_screen: BoardScreen | None
    watching: str | None
    watch_only: str | None
    away: AwaySeats
    rematches: Rematches
    table_info: TableInfo | None

    @property
    def lobby(self) -> Screen[Any] | None: ...

    @property
    def screen(self) -> Screen[object]: ...

    def push_screen(self, screen: BoardScreen) -> Awaitable[Any]: ...

    def pop_screen(self) -> object: ...

    def tell(self, text: str | Text) -> None: ...

    def refresh_bindings(self) -> None: ...

    def exit(self, result: int | None = None) -> None: ...

    def action_stop_watching(self) -> None: ...

    async def show_and_wait(self, screen: Screen[T]) -> T: ...


async def watch_game(app: NetApp, table_id: str, invite: str | None = None) -> str | None:
    """Show ``table_id`` as a spectator until the session's watch ends: a game that
    ended there shows its result until a key leaves it (the result line is returned, as
    is what is said of a table whose game was over already), or ``n`` watches its rematch;
    the board goes away then (its ``finally``), so the lobby is what is on screen again."""
    while True:
        line, rematch = await _watch_one(app, table_id, invite)
        if rematch is None:
            return line
        app.tell(tr("Watching table {table}: the rematch of table {old}.", table=rematch.id, old=table_id))
        table_id, invite, app.table_info = rematch.id, None, rematch  # a rematch is watched without its invite


async def _watch_one(app: NetApp, table_id: str, invite: str | None) -> tuple[str | None, TableInfo | None]:
    """One table watched (as :func:`watch_game`): the result line, and the rematch to watch next."""
    session = app.session
    assert session is not None
    try:
        snap = await session.watch_table(table_id, invite)
    except ServerRefused as exc:  # a public table whose game is over is said so, with its result
        over, summary = (False, None) if invite or exc.code is not ErrorCode.NO_SUCH_TABLE else \
            await game_over_at(session, table_id)
        if not over:
            raise
        said = game_over_text(table_id, summary, server_address(session))
        app.tell(said)
        if app.watch_only is None:  # from the lobby: the result in a box, and the replay when the server keeps it
            await show_finished(app, session, table_id, said, summary is not None)
        return said, None
    app.table_info = snap.table  # what the help says of the table (its timer, its number), not the lobby's alone
    board = BoardState(viewer=None)
    screen = BoardScreen(board, app.deck, title=tr("watching table {table} (b: back)", table=table_id))
    screen.turn_clock, screen.now = session.turn_clock, session.clock.now
    screen.chat_note = tr("Spectators read the table's chat but do not write in it.")
    app.board_screen, app.watching = screen, table_id
    # the seats' notices in order among the table's events: a seat away as we come is told right after the snapshot
    translator = GameTranslator(Watcher(app), -1, table_id, on_notice=lambda notice: app.away.notice(screen, notice))
    translator.rules = board.rules = rules_from_wire(snap.table.rules)
    translator.names = board.names = tuple(s.name for s in sorted(snap.seats, key=lambda s: s.seat))
    translator.started = snap.public is not None
    watched_snapshot(screen, snap)  # the table as it stands, and its last chat
    board.away = {seat: tr("away") for seat in snap.table.away}  # who is away as we come: the table map says
    await app.push_screen(screen)
    screen.refresh_board()

    async def follow(command: Command) -> None:
        if isinstance(command.body, GameEnd):
            board.ended_by = command.body.leaver  # an abandoned game's: who left it
        await translator.handle(command)

    try:
        left = await session.watch(table_id, follow)
        app.watching = None  # nothing more to stop watching: b leaves the key line
        app.refresh_bindings()
        app.tell(tr("No longer watching table {table} ({reason}).", table=table_id, reason=word_text(left.reason)))
        if not board.over:
            return None, None
        line = result_line(board)
        then = tr("Enter to leave") if app.watch_only else tr("Enter to go back to the lobby")
        points = board if board.last_round is not None else None  # no table of points before a round ended
        return line, await watched_game_over(app, table_id, line, then, points)
    finally:
        app.watching = None
        app.board_screen = None
        if app.screen is screen:
            app.pop_screen()


async def show_finished(app: NetApp, session: ClientSession, table_id: str, said: str, replay: bool) -> None:
    """A finished table chosen in the lobby: how its game ended, until Enter; ``r`` (when
    the server keeps its record) shows it again step by step."""
    assert isinstance(app, ScopaApp)
    while await app.show_and_wait(GameOverScreen(said, tr("Enter to go back to the lobby"), replay=replay)):
        again = await replay_screen(app, session, table_id, None, app.deck)
        if again is not None:
            await app.show_and_wait(again)


async def leave_watching(app: NetApp) -> None:
    """``q`` away from a game: the app ends once the person says so in the lobby (at
    once otherwise), and a table watched is left only when the person says so (as a
    game is): back to the lobby it was chosen in, or, watched with ``scopa watch``, out
    of the app."""
    table = app.watching
    if table is None:
        if app.lobby is None or await app.show_and_wait(ConfirmScreen(tr("Leave Scopa?"))):
            app.exit(0)
        return
    question = tr("Stop watching table {table} and go back to the lobby?", table=table) if app.lobby is not None \
        else tr("Stop watching table {table} and leave?", table=table)
    if not await app.show_and_wait(ConfirmScreen(question)):
        return
    if app.lobby is not None and app.watching == table:
        app.action_stop_watching()
    elif app.lobby is None:
        app.exit(0)
