"""The full-screen lobby lists finished tables as the plain lobby does: after the games
going on, marked finished; when every table's game is over its status line says so (not
"no tables yet"), and w (or Enter) on one says how its game ended."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import DataTable

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession
from scopa.client.tui.dialogs import GameOverScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def a_finished_game(engine: NetworkEngine) -> tuple[ClientSession, ClientSession, str]:  # noqa: F811
    """bruno's table, carla joined: their game played to its end by two bots; their sessions and the table."""
    bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
    carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
    table = (await bruno.create_table(preset="scopa")).id
    await carla.join_table(table)
    await asyncio.gather(bruno.play_game(GreedyBot()), carla.play_game(GreedyBot()))
    return bruno, carla, table


async def test_finished_tables_are_listed_and_w_says_how_the_game_ended_R22(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        bruno, carla, table = await a_finished_game(engine)
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and table in app.screen.tables)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            row = lobby.query_one("#tables", DataTable).get_row(table)
            assert "finished" in str(row[3])
            assert str(lobby._status).startswith("Every game here is over (w on one shows how it ended)")
            dora = await ClientSession.connect("127.0.0.1", engine.port, "dora")
            waiting = (await dora.create_table(preset="scopa")).id
            await until(pilot, lambda: list(lobby.tables) == [waiting, table])  # the game going on first
            await pilot.press("down")
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))  # how it ended, in a box
            said = app.screen.line
            assert said.startswith(f"The game at table {table} is over")
            assert f"scopa replay {table} --server 127.0.0.1:{engine.port} " in said  # the address, not a placeholder
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await until(pilot, lambda: not any(w.group == "lobby" and w.is_running for w in app.workers))  # list read again
            assert str(lobby._status) == said  # and on the status line, not covered by the list's own line
            assert app.is_running
            await dora.close()
        await bruno.close()
        await carla.close()


async def test_a_new_table_takes_the_cursor_off_a_finished_one(engine: NetworkEngine) -> None:  # noqa: F811
    """In a lobby of finished tables the cursor rests on none (Enter joins nothing); a
    table opened then (listed above them) takes the cursor, so that Enter joins it."""
    async with asyncio.timeout(SAFETY):
        bruno, carla, table = await a_finished_game(engine)
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and table in app.screen.tables)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            assert lobby.selected_id() is None and not lobby.query_one("#tables", DataTable).show_cursor
            dora = await ClientSession.connect("127.0.0.1", engine.port, "dora")
            waiting = (await dora.create_table(preset="scopa")).id
            await until(pilot, lambda: list(lobby.tables) == [waiting, table])
            assert lobby.selected_id() == waiting
            await pilot.press("enter")
            await until(pilot, lambda: app.playing)  # joined the new table, not the finished one's box
            assert not isinstance(app.screen, GameOverScreen)
            await dora.close()
        await bruno.close()
        await carla.close()


async def test_the_status_line_drops_what_it_said_of_the_list_once_untrue(engine: NetworkEngine) -> None:  # noqa: F811
    """A line told, then "no tables yet" under it; once a finished table is listed the
    status line says every game is over, under the line told, and no more "no tables"."""
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby is not None)
            lobby = app.lobby
            assert lobby is not None
            bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
            table = (await bob.create_table(preset="scopa")).id
            await until(pilot, lambda: table in lobby.tables)
            app.tell("Something happened.")
            await bob.close()  # its table goes: the list is empty
            await until(pilot, lambda: not lobby.tables and "No tables yet" in str(lobby._status))
            assert str(lobby._status).startswith("Something happened.")
            bruno, carla, done = await a_finished_game(engine)
            await until(pilot, lambda: done in lobby.tables and lobby.tables[done].state.value == "finished")
            await pilot.pause()
            said = str(lobby._status)
            assert "Every game here is over" in said and "No tables yet" not in said, said
            assert said.startswith("Something happened."), said
            await bruno.close()
            await carla.close()
