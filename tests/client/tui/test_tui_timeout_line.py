"""The line saying the server played for the person when their time ran out stays until
their next move, but not into the next round: once new cards are dealt it is old news
and no longer stands above what is said now."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.engine import Forced, HandDealt, Played, RoundStarted, parse_cards

from test_tui_local import BoardHarness, position

pytestmark = pytest.mark.integration


async def test_the_time_ran_out_line_goes_with_the_next_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = position("3d", "4c")
    app = BoardHarness(board)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.board_screen
        card = parse_cards("4c")[0]
        timed_out = Played(0, card, (), False, (), forced_by=Forced.TIMEOUT)  # type: ignore[call-arg]
        board.apply(timed_out)
        screen.tell_event(timed_out)
        await pilot.pause()
        status = str(screen.query_one("#status", Static).render())
        assert "tempo" in status and "4 Cop" in status, status  # said: the server played for the person
        for event in (RoundStarted(2, 1, tuple(parse_cards("5d 6c 7b 1s")), 0, ()),  # type: ignore[call-arg]
                      HandDealt(0, tuple(parse_cards("2d 2c 2b")), 30)):
            board.apply(event)
            screen.tell_event(event)
        screen.refresh_board()
        await pilot.pause()
        status = str(screen.query_one("#status", Static).render())
        assert "tempo" not in status, status
