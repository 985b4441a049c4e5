"""The players are told someone watches: "1 spettatore" (then "2 spettatori") on the top
line of the full-screen board, from the table map the server sends them (its
``spectators``), and gone when nobody watches any more."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.client.net import ClientSession, MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.server import Limits, NetworkEngine

from test_tui_lines_fit import SAFETY
from test_tui_network import sit_at_a_new_table, until

pytestmark = pytest.mark.integration


async def test_the_players_board_counts_the_spectators(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    engine = NetworkEngine("127.0.0.1", 0, seed=31, limits=Limits(table_update_interval=0.0))  # each change told
    await engine.start()
    try:
        await watched(engine)
    finally:
        await engine.stop()


async def watched(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore(), pace=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_at_a_new_table(app, pilot)
            screen = app.board_screen
            assert screen is not None and app.session is not None and app.session.table_id is not None
            top = screen.query_one("#top", Static)
            assert "spettator" not in str(top.render())
            watchers = [await ClientSession.connect("127.0.0.1", engine.port, name) for name in ("cleo", "dino")]
            try:
                await watchers[0].watch_table(app.session.table_id)
                await until(pilot, lambda: "1 spettatore" in str(top.render()))
                await watchers[1].watch_table(app.session.table_id)
                await until(pilot, lambda: "2 spettatori" in str(top.render()))
                for watcher in watchers:
                    await watcher.unwatch_table(app.session.table_id)
                await until(pilot, lambda: "spettator" not in str(top.render()))
            finally:
                for watcher in watchers:
                    await watcher.close()
