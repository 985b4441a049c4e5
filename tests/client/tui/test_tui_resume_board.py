"""Back at a seat after the client was closed: the board shows the table as it stands
at once, the plays missed meanwhile are in the round's list (never animated one by one
as if they were happening now), and the status line says so."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from scopa.client.net import MemoryTokenStore
from scopa.client.tui.cards import CardRow
from scopa.client.tui import NetApp
from scopa.engine import view
from scopa.server import NetworkEngine

from test_tui_network import engine, sit_at_a_new_table, until  # noqa: F401 - engine: the server fixture

SAFETY = 60
PACE = 0.5  # what `scopa play` leaves each play by someone else on screen


async def test_a_restarted_client_shows_the_current_board_at_once(engine: NetworkEngine) -> None:  # noqa: F811
    store = MemoryTokenStore()
    async with asyncio.timeout(SAFETY):
        first = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
        async with first.run_test(size=(80, 24)) as pilot:
            await sit_at_a_new_table(first, pilot)  # scopa against a greedy bot
            for _ in range(2):  # two plays each
                await until(pilot, lambda: first.board_screen is not None and first.board_screen.asking)
                await pilot.press("1")
                await pilot.pause(0.05)
            await until(pilot, lambda: first.board_screen is not None and first.board_screen.asking)
            table_id = first.session.table_id  # type: ignore[union-attr]
        # The client is gone without leaving: the seat waits; a new one comes back to it.
        state = engine.tables[table_id].master.state  # type: ignore[union-attr]
        seat = next(iter(store.seats.values())).seat
        now = view(state, seat)
        assert len(now.round_plays) >= 3
        second = NetApp("127.0.0.1", engine.port, "ada", store, pace=PACE)
        async with second.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: second.lobby is not None and second.lobby._question is not None)
            await pilot.press("y")
            seen: list[tuple[tuple[int, ...], str]] = []
            while not (second.board_screen is not None and second.board_screen.asking):
                screen = second.board_screen
                if screen is not None and second.screen is screen:
                    table = screen.query_one("#table", CardRow).cards
                    plays = str(screen.query_one("#plays", Static).render())
                    if table or "no plays yet" not in plays:
                        seen.append((table, plays))
                await pilot.pause(0.02)
            screen = second.board_screen
            assert screen.board.plays == list(now.round_plays)
            final = (screen.query_one("#table", CardRow).cards, str(screen.query_one("#plays", Static).render()))
            assert final[0] == now.table
            assert final[1].count(":") == len(now.round_plays)  # every play of the round is listed
            assert set(seen) <= {final}, "a board other than the current one was shown"
            assert any("this round's plays are in its list" in m for m in second.messages[-3:]), second.messages[-3:]
