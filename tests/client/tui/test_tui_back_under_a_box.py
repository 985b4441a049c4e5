"""A network game: another seat's connection drops ("bruno disconnected…" on the status
line); bruno comes back while a box covers the board (here the help): the board's status
line says he is back, not still that he is gone (and the lobby's is not told it)."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.client.game import SeatCameBack, SeatWentAway
from scopa.client.tui.dialogs import HelpScreen

from test_tui_network import SAFETY, app_for, engine, sit_at_a_new_table, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def test_a_seat_back_while_a_box_is_up_is_said_on_the_board(engine) -> None:  # type: ignore[no-untyped-def] # noqa: F811
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_at_a_new_table(app, pilot)
            screen = app.board_screen
            assert screen is not None
            bot = 1 - (screen.board.viewer or 0)
            name = screen.board.names[bot]
            app.away.notice(screen, SeatWentAway(bot, name, 60.0))
            await pilot.pause()
            assert "disconnected" in str(screen.query_one("#status", Static).render())
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            app.away.notice(screen, SeatCameBack(bot, name))
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen)
            await pilot.pause()
            status = str(screen.query_one("#status", Static).render())
            assert f"{name} is back." in status and "disconnected" not in status, status
