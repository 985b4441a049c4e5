"""The lobby's list says a table's turn clock beside its rules ("⏱ 0:45"): how long a
move may take there is known before sitting down."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.net import ClientSession
from scopa.client.tui import NetApp
from scopa.engine import RuleSet
from scopa.server import NetworkEngine

from test_tui_lobby_bots import listed_cell
from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


def listed_rules(app: NetApp, table: str | None) -> str:
    return listed_cell(app, table, 1)


async def test_the_lobby_lists_a_tables_turn_clock(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(RuleSet.build("scopa"), turn_timeout=45)
        app = app_for(engine)
        async with app.run_test(size=(120, 30)) as pilot:
            await until(pilot, lambda: listed_rules(app, bruno.table_id) != "")
            assert "⏱ 0:45" in listed_rules(app, bruno.table_id), listed_rules(app, bruno.table_id)
        await bruno.close()
