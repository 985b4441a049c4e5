"""The full-screen client started again with a seat kept: while the lobby asks whether to
go back to that game, the server's tables are listed behind the question (not an empty
list), their rows whole from the first time they are drawn, and the question stays on the
status line until answered."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App
from textual.widgets import DataTable, Static

from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.client.tui.online import LobbyScreen
from scopa.engine import RuleSet
from scopa.protocol import TableInfo, TableState
from scopa.protocol.convert import rules_to_wire
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, gone_with_its_seat_kept, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def test_the_tables_are_listed_behind_the_question_of_a_kept_seat(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        first = await ClientSession.connect("127.0.0.1", engine.port, "ada")
        await first.create_table(preset="scopa", fill_with_bots=["greedy"])
        assert first.token is not None and first.table_id is not None and first.seat is not None
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa")  # another table, waiting for a player
        store = gone_with_its_seat_kept(first, engine.port)
        app = app_for(engine, store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.lobby._question is not None)
            lobby = app.lobby
            assert lobby is not None
            await until(pilot, lambda: {first.table_id, bruno.table_id} <= set(lobby.tables))  # listed behind it
            assert lobby._question is not None and not lobby._question.done()
            assert "unfinished game at table" in str(lobby.query_one("#lobby-status", Static).render())
            await pilot.press("y")
            await until(pilot, lambda: app.board_screen is not None and app.board_screen.asking)
            assert app.session is not None and app.session.name == "ada" and app.session.seat == first.seat
        await bruno.close()
        await first.close()


async def test_the_rows_listed_before_the_table_list_settles_are_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80×24 in Italian, tables listed at once (as behind the question) are drawn with
    every column as wide as its widest cell, not cut to its heading ("ada (", "in gi")."""
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    rules = rules_to_wire(RuleSet())
    tables = [TableInfo(id="2", rules=rules, description="scopa", seats=["ada", "nonna"],
                        state=TableState.PLAYING, away=[0]),
              TableInfo(id="3", rules=rules, description="scopa", seats=["bruno", None], state=TableState.WAITING)]
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = LobbyScreen("ada")
        await app.push_screen(lobby)
        await pilot.pause()
        lobby.show_tables(tables)
        dt = lobby.query_one("#tables", DataTable)
        rows = [dt.render_line(y).text for y in range(1, 3)]
        assert "2       Scopa, 2 giocatori, a 11  ada (assente), nonna  in gioco" in rows[0], rows
        assert "bruno, libero" in rows[1] and "in attesa" in rows[1], rows
