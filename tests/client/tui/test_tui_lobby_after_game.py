"""Back in the lobby after a game: the status line says nothing more of the table the
person opened (its game is over), the cursor is off the finished table (on a table to
join), and every person's lobby lists the tables in one order."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import DataTable

from scopa.client.net import ClientSession
from scopa.client.tui.dialogs import GameOverScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, play_through, sit_at_a_new_table, until  # noqa: F401 - engine

pytestmark = pytest.mark.integration


async def test_back_from_a_game_the_lobby_says_what_is_true_and_the_cursor_is_on_a_live_table(
        engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await sit_at_a_new_table(app, pilot)  # "Table N is open: …" told on the way
            assert app.session is not None and app.lobby is not None
            mine = app.session.table_id
            assert any(m.startswith(f"Table {mine} is open") for m in app.messages)
            bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
            waiting = (await bob.create_table(preset="scopa")).id  # opened while ada plays
            await play_through(app, pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("enter")
            lobby = app.lobby
            await until(pilot, lambda: app.screen is lobby and waiting in lobby.tables and not any(
                w.group == "lobby" and w.is_running for w in app.workers))
            await pilot.pause()
            assert "is open" not in str(lobby._status), lobby._status  # that table's game is over
            assert lobby.selected_id() == waiting  # not the finished table: the one to join
            assert lobby.query_one("#tables", DataTable).show_cursor
            await bob.close()


async def test_every_lobby_lists_the_tables_in_one_order(engine: NetworkEngine) -> None:  # noqa: F811
    """Tables seen coming one by one and tables listed at once come in the same order: the
    ones to join first, then the games going on, each by number."""
    async with asyncio.timeout(SAFETY):
        bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
        carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
        dora = await ClientSession.connect("127.0.0.1", engine.port, "dora")
        orders = []
        for started in ("before", "after"):
            app = app_for(engine, name=f"ada{len(orders)}")
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby_pushes)
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen)
                if started == "before":  # this lobby sees the tables come and change
                    first = (await bob.create_table(preset="scopa")).id
                    second = (await carla.create_table(preset="scopa")).id
                    await dora.join_table(first)  # bob's game starts: carla's table is the one to join
                await until(pilot, lambda: {t: i.state.value for t, i in lobby.tables.items()}
                            == {first: "playing", second: "waiting"})
                await pilot.pause()
                orders.append(list(lobby.tables))
                dt = lobby.query_one("#tables", DataTable)
                assert [str(dt.get_row_at(i)[0]) for i in range(dt.row_count)] == orders[-1]
        assert orders == [[second, first], [second, first]]
        for session in (bob, carla, dora):
            await session.close()
