"""`scopa play` started again after it was killed at a private table (listed nowhere)
and back at its seat: the top line counts the table's spectators again, from the map the
table itself sends the returning seat."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.client.net import ClientSession, MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.engine import RuleSet
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, engine, until  # noqa: F401 - engine: the server fixture

pytestmark = pytest.mark.integration


def top_of(app: NetApp) -> str:
    screen = app.board_screen
    tops = [] if screen is None else list(screen.query("#top").results(Static))
    return str(tops[0].render()) if tops else ""


async def test_a_seat_taken_back_at_a_private_table_counts_its_spectators(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    bea = await ClientSession.connect("127.0.0.1", engine.port, "bea")
    cleo = await ClientSession.connect("127.0.0.1", engine.port, "cleo")
    store = MemoryTokenStore()
    try:
        async with asyncio.timeout(SAFETY):
            table = (await bea.create_table(RuleSet.build("scopa"), private=True)).id
            invite = bea.invite
            assert invite is not None
            await cleo.watch_table(table, invite)
            first = NetApp("127.0.0.1", engine.port, "ada", store, pace=0, invite=(table, invite))
            async with first.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: "1 spettatore" in top_of(first), limit=1000)
            # The client is gone (as if killed): its seat waits; a new one comes back to it.
            second = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
            async with second.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: second.lobby is not None and second.lobby._question is not None)
                await pilot.press("s")  # Italian: s for sì
                await until(pilot, lambda: second.board_screen is not None and second.screen is second.board_screen
                            and "tavolo" in top_of(second), limit=1000)
                await until(pilot, lambda: "1 spettatore" in top_of(second), limit=1000)
    finally:
        await bea.close()
        await cleo.close()
