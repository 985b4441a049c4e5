"""The turn clock at 80 columns in the full-screen client, in English and in Italian: the
line that says the seconds left beside the seat to move, and the status line's "⏱ … left,
then the server plays for you", each drawn on one row of its panel (neither wraps)."""

from __future__ import annotations

import asyncio
import re

import pytest

from scopa.client.net import MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.server import NetworkEngine

from test_tui_lines_fit import SAFETY, engine, shown_rows  # noqa: F401 - the engine fixture
from test_tui_network import sit_at_a_new_table, until

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_turn_clock_keeps_to_one_row_at_80_columns(engine: NetworkEngine, lang: i18n.Lang,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with asyncio.timeout(SAFETY):
        app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore(), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await sit_at_a_new_table(app, pilot)
            screen = app.board_screen
            assert screen is not None
            await until(pilot, lambda: "⏱" in " ".join(shown_rows(screen, "#status")))
            board = screen.board
            board.dealer = board.viewer  # the seat to move deals too: its row says both
            board.names = tuple(name if seat != board.viewer else "annamaria" for seat, name in enumerate(board.names))
            board.you_label = ""  # named as the others see it: the longest a seat's row gets
            screen._tick()
            await pilot.pause()
            for panel in ("#seats", "#status"):
                shown = shown_rows(screen, panel)
                clock = [i for i, row in enumerate(shown) if "⏱" in row]
                assert len(clock) == 1, shown
                whole = r"⏱ \d+:\d\d left" if lang == "en" else r"⏱ ancora \d+:\d\d"
                assert re.search(whole, shown[clock[0]]), shown  # the seconds and their words on one row
