"""Back at a seat after the client was closed: the chat panel shows what was said at the
table before (the server's ``joined.chat``), not an empty panel."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.net import MemoryTokenStore
from scopa.client.tui import NetApp
from scopa.server import NetworkEngine

from test_tui_network import back_at_the_seat, engine, sit_at_a_new_table, until  # noqa: F401 - engine: the server fixture

pytestmark = pytest.mark.integration

SAFETY = 60


async def test_a_restarted_client_gets_the_tables_chat_back(engine: NetworkEngine) -> None:  # noqa: F811
    store = MemoryTokenStore()
    async with asyncio.timeout(SAFETY):
        first = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
        async with first.run_test(size=(100, 30)) as pilot:
            await sit_at_a_new_table(first, pilot)  # scopa against a greedy bot
            session = first.session
            assert session is not None
            await session.send_chat("buona fortuna", to=f"table:{session.table_id}")
            await until(pilot, lambda: first.board_screen is not None and bool(first.board_screen.chat_lines))
        second = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
        async with second.run_test(size=(100, 30)) as pilot:
            screen = await back_at_the_seat(second, pilot)
            assert [line.plain for line in screen.chat_lines] == ["ada: buona fortuna"]
