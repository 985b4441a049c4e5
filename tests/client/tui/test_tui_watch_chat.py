"""A spectator of the full-screen client (``scopa watch``, or w on a live table) reads
the table's chat (the server sends it to spectators, PROTOCOL.md §7): the side panel is
there from the start, with a line saying spectators read but do not write, and what a
player says shows in it.  At 80×24, in Italian."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration

NOTE = "Chi guarda legge le chiacchiere del tavolo ma non vi scrive."


def panel_text(app) -> str:  # type: ignore[no-untyped-def]
    screen = app.board_screen
    panels = screen.query("#table-chat").results(Static) if screen is not None and screen.is_attached else []
    return " ".join(" ".join(str(p.render()).split()) for p in panels if p.display)  # none before it is composed


async def test_a_spectator_reads_the_table_chat_and_is_told_it_cannot_write(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        table = (await bruno.create_table(preset="scopa", fill_with_bots=["greedy"])).id
        app = app_for(engine, name="cleo", watch=table)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.watching == table and "Chiacchiere" in panel_text(app))
            assert NOTE in panel_text(app)
            await bruno.send_chat("forza nonna!", to=f"table:{table}")
            await until(pilot, lambda: "bruno: forza nonna!" in panel_text(app))
            assert NOTE in panel_text(app)
            await pilot.press("b")  # back: the watching ends, and with it `scopa watch`
            await until(pilot, lambda: app.return_value is not None)
        await bruno.close()
