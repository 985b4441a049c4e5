"""The full-screen client started again with a seat kept: the lobby asks whether to go
back to that game, the question stays on the status line until answered, and the server
never sees a second player of the person's name ("ada2", as a connection of its own to
list the tables behind the question was): one connection, and the tables are listed on
it once the question is answered.  Also the rows of a table list drawn at once are whole
from the first drawing."""

from __future__ import annotations

import asyncio
import logging

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


def welcomed(records: list[logging.LogRecord]) -> list[str]:
    """The parties the server welcomed, as its log says them."""
    return [str(r.args[1]) for r in records if r.msg == "connection %s is %s (client %r)" and r.args]  # type: ignore[index]


@pytest.mark.parametrize("answer", ["y", "n"])
async def test_a_kept_seats_question_opens_no_second_connection_of_the_name(
        engine: NetworkEngine, caplog: pytest.LogCaptureFixture, answer: str) -> None:  # noqa: F811
    caplog.set_level(logging.INFO, logger="scopa.server")
    async with asyncio.timeout(SAFETY):
        first = await ClientSession.connect("127.0.0.1", engine.port, "ada")
        await first.create_table(preset="scopa", fill_with_bots=["greedy"])
        assert first.token is not None and first.table_id is not None and first.seat is not None
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa")  # another table, waiting for a player
        store = gone_with_its_seat_kept(first, engine.port)
        caplog.clear()
        app = app_for(engine, store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.lobby._question is not None)
            lobby = app.lobby
            assert lobby is not None
            for _ in range(20):  # the question waits: nothing connects meanwhile
                await pilot.pause()
            assert lobby._question is not None and not lobby._question.done()
            assert "unfinished game at table" in str(lobby.query_one("#lobby-status", Static).render())
            await pilot.press(answer)
            if answer == "y":
                await until(pilot, lambda: app.board_screen is not None and app.board_screen.asking)
                assert app.session is not None and app.session.name == "ada" and app.session.seat == first.seat
            else:  # the seat given up: the lobby lists the tables on its own connection
                await until(pilot, lambda: bruno.table_id in lobby.tables)
                assert app.session is not None and app.session.name == "ada"
        assert [p for p in welcomed(caplog.records) if p.startswith("player:ada")] in (["player:ada"], []), \
            welcomed(caplog.records)
        assert "player:ada2" not in welcomed(caplog.records)
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
        assert "bruno, libero" in rows[0] and "in attesa" in rows[0], rows  # the table to join first
        assert "2       Scopa, 2 giocatori, a 11  ada (assente), nonna  in gioco" in rows[1], rows
