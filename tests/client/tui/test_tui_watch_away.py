"""Watching a game where a player is already away (PROTOCOL.md §7): the table map the
snapshot carries says so at once (the seat_away told after it brings the time the seat is
held, test_tui_watch_arrival.py), both on the full-screen board and in the plain client's
lines; the counts shown are the table's own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from rich.console import Console

from scopa.client.console import watch_table
from scopa.client.net import ClientSession
from scopa.server import NetworkEngine

from test_tui_network import app_for, until

pytestmark = pytest.mark.integration

SAFETY = 60


@pytest.fixture
async def engine() -> AsyncIterator[NetworkEngine]:
    e = NetworkEngine("127.0.0.1", 0, seed=23, grace=112)
    await e.start()
    try:
        yield e
    finally:
        await e.stop()


async def bob_is_away(engine: NetworkEngine) -> tuple[ClientSession, str, int]:
    """bob plays a bot, then his connection dies: his seat is away.  An onlooker's
    session, the table and bob's seat."""
    bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
    info = await bob.create_table(preset="scopa", fill_with_bots=["medium"])
    assert bob.seat is not None
    seat = bob.seat
    engine.names["bob"].abort()
    onlooker = await ClientSession.connect("127.0.0.1", engine.port, "onlooker")
    while not any(t.id == info.id and seat in t.away for t in await onlooker.list_tables()):
        await asyncio.sleep(0.01)  # until the server has seen the connection go
    return onlooker, info.id, seat


async def test_the_board_of_a_watched_table_shows_who_is_away(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        onlooker, table, seat = await bob_is_away(engine)
        snap = await onlooker.watch_table(table)
        assert snap.public is not None
        app = app_for(engine, name="cleo", watch=table)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.board_screen is not None and bool(app.board_screen.board.names))
            assert app.board_screen is not None
            board = app.board_screen.board
            # away as the snapshot opens, then with the grace left (the seat_away a spectator is told on arrival)
            assert board.away.get(seat, "").startswith("away")
            await until(pilot, lambda: board.away.get(seat, "").startswith("away, a bot in "))
            assert (board.hand_sizes, board.stock_left) == (list(snap.public.hand_sizes), snap.public.stock)
            await pilot.press("b")  # back: the watching ends, and with it `scopa watch`
            await until(pilot, lambda: app.return_value is not None)
        await onlooker.close()


async def test_the_plain_watch_says_who_is_away_and_the_stock_R11(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        onlooker, table, seat = await bob_is_away(engine)
        console = Console(record=True, width=200)
        watching = asyncio.ensure_future(watch_table(onlooker, console, table))
        while "Waiting for" not in console.export_text(clear=False):
            await asyncio.sleep(0.01)
            assert not watching.done()
        text = console.export_text()
        watching.cancel()
        assert text.count("Waiting for bob to come back") == 1, text
        assert "stock: 30" in text and "Cards in hand — " in text  # a first deal's, as no card was played: bob's turn waits for him
        await onlooker.close()
