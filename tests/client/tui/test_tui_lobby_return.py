"""`scopa play` in the Textual app, back in the lobby after a table: the live tables are
listed at once, and a table opened afterwards appears without asking (r), also when the
connection dropped and came back while the person was at the table, and after a game
taken back from the seat file when the app started again."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import DataTable, Static
from textual.widgets._footer import FooterKey

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession
from scopa.client.tui import NetApp
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import ConfirmScreen, GameOverScreen
from scopa.client.tui.online import LobbyScreen
from scopa.engine import Preset
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions

from test_tui_network import SAFETY, app_for, back_at_the_seat, engine, gone_with_its_seat_kept, play_through, \
    sit_at_a_new_table, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def left_for_the_lobby(app: NetApp, pilot) -> LobbyScreen:  # type: ignore[no-untyped-def]
    """q at the board and y to its question: back in the lobby, no more at a table."""
    await pilot.press("q")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.press("y")
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and not app.playing)
    assert isinstance(app.screen, LobbyScreen)
    return app.screen


async def test_back_from_a_table_the_lobby_lists_the_live_tables_and_hears_of_new_ones(  # noqa: F811
        engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa")  # waits for a second player all along
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_at_a_new_table(app, pilot)
            engine.names["ada"].abort()  # the connection dies under the client, and comes back
            await until(pilot, lambda: app.messages.count("reconnected") == 1, limit=2000)
            lobby = await left_for_the_lobby(app, pilot)
            await until(pilot, lambda: bruno.table_id in lobby.tables)  # listed at once
            status = lobby.query_one("#lobby-status", Static).content
            assert "You left the game at table" in str(status)  # said where the person is now, not on the board left behind
            carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
            await carla.create_table(preset="scopa")
            await until(pilot, lambda: carla.table_id in lobby.tables)  # told without asking
            await carla.close()
        await bruno.close()


def keys_shown(app: NetApp) -> list[str]:
    return [key.key for key in app.screen.query(FooterKey)]


async def test_the_key_back_from_watching_is_in_the_key_line_only_while_watching(  # noqa: F811
        engine: NetworkEngine) -> None:
    """At 80 columns the title that says "(b: back)" gives way: the key line says it."""
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa", fill_with_bots=["medium"])
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
            assert "b" not in keys_shown(app)
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            await pilot.pause()
            assert "b" in keys_shown(app)
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.pause()
            assert "b" not in keys_shown(app)
            assert any("(you stopped watching)" in m for m in app.messages), app.messages  # in words, not a code
        await bruno.close()


async def test_a_taken_name_is_said_and_the_heading_names_the_one_the_server_gave(  # noqa: F811
        engine: NetworkEngine) -> None:
    """A second "ada" is seated by the server as "ada2": the lobby's heading says "ada2",
    and the person is told their name was taken, never left to believe they are "ada"."""
    async with asyncio.timeout(SAFETY):
        first = await ClientSession.connect("127.0.0.1", engine.port, "ada")
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.session is not None)
            lobby = app.lobby
            assert lobby is not None and app.session is not None and app.session.name == "ada2"
            await until(pilot, lambda: "ada2" in str(lobby.query_one("#lobby-top", Static).content))
            assert "The name ada is already in use: here you are ada2." in app.messages
        await first.close()


async def test_back_from_a_game_taken_up_again_the_lobby_lists_the_tables(  # noqa: F811
        engine: NetworkEngine) -> None:
    """`scopa play` started again while its game runs takes the seat back (y), and the
    lobby it goes to on leaving lists the live tables and hears of new ones."""
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa")  # waits for a second player all along
        first = await ClientSession.connect("127.0.0.1", engine.port, "ada")
        await first.create_table(preset="scopa", fill_with_bots=["greedy"])
        store = gone_with_its_seat_kept(first, engine.port)  # the first app is gone
        app = app_for(engine, store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            await back_at_the_seat(app, pilot)
            lobby = await left_for_the_lobby(app, pilot)
            await until(pilot, lambda: bruno.table_id in lobby.tables)
            assert lobby.query_one("#tables", DataTable).row_count == len(lobby.tables)
            carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
            await carla.create_table(preset="scopa")
            await until(pilot, lambda: carla.table_id in lobby.tables)  # told without asking
            await carla.close()
        await bruno.close()
        await first.close()


async def test_back_from_a_quick_game_the_lobby_no_more_says_where_one_sat() -> None:
    """p pairs the person with another; the lobby says "You sit at table …"; back in the
    lobby after the game that line is gone."""
    engine = NetworkEngine("127.0.0.1", 0, seed=4, club=ClubOptions())  # quick play offered
    await engine.start()
    try:
        await quick_game_and_back(engine)
    finally:
        await engine.stop()


async def quick_game_and_back(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await pilot.press("p")
            bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
            await bruno.quick_play(Preset.SCOPA)
            await until(pilot, lambda: app.board_screen is not None)
            assert any(m.startswith("You sit at table") for m in app.messages), app.messages
            bruno_plays = asyncio.ensure_future(bruno.play_game(GreedyBot()))
            await play_through(app, pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is lobby and not app.playing)
            await pilot.pause()
            assert not str(lobby._status).startswith("You sit at table"), lobby._status
            assert "Every game here is over" in str(lobby._status), lobby._status  # the list's own line stays
            await bruno_plays
            await bruno.close()
