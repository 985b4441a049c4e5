"""`scopa play` (the Textual app): while the round's box says the next round's first move
is the person's, a card's number closes the box and plays that card (R8: the seat after the
dealer plays a round's first card). The server runs on a fake clock."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.net import MemoryTokenStore
from scopa.client.tui import NetApp
from scopa.server import NetworkEngine

from test_tui_network import sit_at_a_new_table, until
from test_tui_turn_clock import engine, round_clock, to_the_round_box  # noqa: F401 - the server on the fake clock

pytestmark = pytest.mark.integration

SAFETY = 120


async def test_a_card_number_on_the_round_box_saying_your_turn_plays_that_card(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore(), pace=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_at_a_new_table(app, pilot)
            await to_the_round_box(app, pilot)
            await until(pilot, lambda: "Your turn" in round_clock(app))  # seed 31: round 2 opens with ada's turn
            table_id = app.session.table_id  # type: ignore[union-attr]
            master = engine.tables[table_id].master  # type: ignore[index]
            assert master is not None
            first = master.state.hand(0)[0]  # the new round's hand is dealt: its first card, as the board shows it
            await pilot.press("1")
            screen = app.board_screen
            assert screen is not None
            await until(pilot, lambda: first not in master.state.hand(0))  # the server took it: ada played it
            assert app.screen is screen and len(master.state.hand(0)) == 2
            await until(pilot, lambda: first not in screen.board.hand and len(screen.board.hand) == 2)
