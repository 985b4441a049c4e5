"""A narrow window (60x20, 42x20) keeps each side's pile (cards, denari, primiera, scope,
the settebello) and the stock on screen, in Italian: the piles table with the stock as
its last row, between the seats and the table."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.board import BoardScreen
from scopa.engine import RuleSet

from test_tui_local import play_turns_in
from test_tui_small_window import screen_rows

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("size", [(60, 20), (42, 20)], ids=["60x20", "42x20"])
async def test_a_narrow_window_keeps_the_piles_and_the_stock(size: tuple[int, int],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=size) as pilot:
        await play_turns_in(app, pilot, 3)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BoardScreen)
        rows = screen_rows(app)
        shown = "\n".join(rows)
        header = next((row.split() for row in rows if row.split()[:1] == ["prese"]), None)
        assert header is not None and header[:4] == ["prese", "den", "prim", "scope"], shown
        b = screen.board
        for side in range(b.num_sides):
            assert any(row.split()[:2] == [b.side_name(side, short=True).split()[0], str(b.pile(side).cards)]
                       or row.split()[:3] == [*b.side_name(side, short=True).split(), str(b.pile(side).cards)]
                       for row in rows), shown
        assert any(row.split() == ["mazzo", str(b.stock_left)] or f"mazzo {b.stock_left}" in row for row in rows), shown
