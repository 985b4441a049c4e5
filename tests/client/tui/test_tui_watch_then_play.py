"""`scopa play` in the Textual app after watching a table: b back to the lobby, then a
seat (j) opens its board; q in the lobby while seated asks first; a connection lost
while it stops watching, or in the idle lobby, is won back without the app falling over."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.net import ClientSession, MemoryTokenStore
from scopa.client.tui import NetApp
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from faultproxy import FaultProxy
from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def watch_and_come_back(app, pilot) -> None:  # type: ignore[no-untyped-def]
    """From the lobby: w on the selected table, then b back to the lobby."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
    await pilot.press("w")
    await until(pilot, lambda: isinstance(app.screen, BoardScreen))
    await pilot.press("b")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.watching is None)
    await until(pilot, lambda: any("No longer watching" in m for m in app.messages))


async def select(app, pilot, table: str | None) -> None:  # type: ignore[no-untyped-def]
    """The arrow keys to ``table``'s row in the lobby's list."""
    lobby = app.lobby
    rows = list(lobby.tables)
    while lobby.selected_id() != table:
        await pilot.press("down" if rows.index(table) > rows.index(lobby.selected_id()) else "up")
        await pilot.pause()


async def test_joining_a_table_just_watched_opens_its_board(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa")  # waits for a second player
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await watch_and_come_back(app, pilot)
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.playing)
            assert app.watching is None and app.session is not None and app.session.watching is None
            assert app.session.table_id == bruno.table_id
            await until(pilot, lambda: app.board_screen is not None and app.board_screen.board.names != ())
        await bruno.close()


async def test_joining_another_table_after_watching_a_game_opens_its_board(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa", fill_with_bots=["medium"])  # a game going on, to watch
        carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
        await carla.create_table(preset="scopa")  # waits for a second player
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and len(app.screen.tables) == 2)
            await select(app, pilot, bruno.table_id)
            await watch_and_come_back(app, pilot)
            await select(app, pilot, carla.table_id)
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.playing)
            assert app.session is not None and app.session.table_id == carla.table_id
        await carla.close()
        await bruno.close()


async def test_q_in_the_lobby_while_seated_asks_first(engine: NetworkEngine) -> None:  # noqa: F811
    """Seated at a table whose board is not open (here the session joined by itself)."""
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa")
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby_pushes)
            assert app.session is not None and bruno.table_id is not None
            await app.session.join_table(bruno.table_id)
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert app.is_running
        await bruno.close()


async def test_a_connection_lost_while_stopping_watching_is_won_back_without_a_crash(  # noqa: F811
        engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY), FaultProxy(engine.port) as proxy:
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa", fill_with_bots=["medium"])
        app = NetApp("127.0.0.1", proxy.port, "ada", MemoryTokenStore())
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            proxy.reset_before("left")  # the server's answer to b never arrives: the link dies first
            await pilot.press("b")
            await proxy.fired.wait()
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.messages.count("reconnected") == 1,
                        limit=2000)
            assert any(m.startswith("Connection to the server lost") for m in app.messages)
            assert app.is_running and app.watching is None
            assert app.session is not None and app.session.watching is None
            carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
            await carla.create_table(preset="scopa")  # waits for a second player
            await until(pilot, lambda: carla.table_id in app.screen.tables)
            await select(app, pilot, carla.table_id)
            await pilot.press("j")  # and a seat opens its board as before
            await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.playing)
        await carla.close()
        await bruno.close()


async def test_a_connection_lost_in_the_lobby_is_won_back_by_itself(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby_pushes)
            engine.names["ada"].abort()  # the connection dies under the idle lobby
            await until(pilot, lambda: app.messages.count("reconnected") == 1, limit=2000)
            assert any(m.startswith("Connection to the server lost") for m in app.messages)
            bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
            await bruno.create_table(preset="scopa")
            await until(pilot, lambda: app.lobby is not None and bruno.table_id in app.lobby.tables)  # pushed again
            await bruno.close()
