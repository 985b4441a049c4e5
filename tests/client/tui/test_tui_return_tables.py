"""The full-screen client started again with a seat kept: while the lobby asks whether to
go back to that game, the server's tables are listed behind the question (not an empty
list), and the question stays on the status line until answered."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.client.net import ClientSession, MemoryTokenStore, SavedSeat
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def test_the_tables_are_listed_behind_the_question_of_a_kept_seat(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        first = await ClientSession.connect("127.0.0.1", engine.port, "ada")
        await first.create_table(preset="scopa", fill_with_bots=["greedy"])
        assert first.token is not None and first.table_id is not None and first.seat is not None
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa")  # another table, waiting for a player
        store = MemoryTokenStore()
        store.save(SavedSeat(server=f"127.0.0.1:{engine.port}", name="ada", table=first.table_id, seat=first.seat,
                             token=first.token))
        first._writer.transport.abort()  # type: ignore[attr-defined]  # the old client is gone
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
