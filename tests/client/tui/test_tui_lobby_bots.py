"""`scopa play` in the Textual app, the lobby's list of tables as a person reads it: a
seat a bot plays says so, a person's seat a bot took over ("zio, nipote (bot)") as well
as a bot seated with the table ("Bot 1 (medium)"), in English and in Italian."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text
from textual.widgets import DataTable

from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.client.tui.online import LobbyScreen
from scopa.engine import RuleSet
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


def listed_cell(app: NetApp, table: str | None, column: int) -> str:
    """Column ``column`` of ``table``'s row in the lobby's list (1: its rules, 2: its
    seats; "" while the table is not listed)."""
    lobby = app.screen
    if not isinstance(lobby, LobbyScreen) or table not in lobby.tables:
        return ""
    cell = lobby.query_one("#tables", DataTable).get_row(table)[column]
    return cell.plain if isinstance(cell, Text) else str(cell)


def listed_seats(app: NetApp, table: str | None) -> str:
    """The seats column of ``table``'s row in the lobby's list ("" while not listed)."""
    return listed_cell(app, table, 2)


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_lobby_says_which_seats_a_bot_plays(engine: NetworkEngine, lang: i18n.Lang,  # noqa: F811
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with asyncio.timeout(SAFETY):
        zio = await ClientSession.connect("127.0.0.1", engine.port, "zio")
        nipote = await ClientSession.connect("127.0.0.1", engine.port, "nipote")
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await zio.create_table(RuleSet.build("scopa"))
        await nipote.join_table(zio.table_id or "")
        await bruno.create_table(RuleSet.build("scopa"), fill_with_bots=["medium"])
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: listed_seats(app, zio.table_id) == "zio, nipote")
            bot = "Bot 1 (medium)" if lang == "en" else "Bot 1 (medio)"
            await until(pilot, lambda: listed_seats(app, bruno.table_id) == f"bruno, {bot}")
            await nipote.leave_table()  # a bot plays nipote's seat from now on
            await until(pilot, lambda: listed_seats(app, zio.table_id) == "zio, nipote (bot)")
        for session in (zio, nipote, bruno):
            await session.close()
