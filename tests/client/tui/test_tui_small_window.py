"""A small window keeps the hand in sight: below 24 rows (30 when narrow) the full-screen
board draws each card on one line (``[7 Den]``, the hand's ``1 [7 Den]``), leaves the piles
table out and shortens the seat's clock, so that every card of the hand is on screen,
its name whole, down to 40x16; a capture that does not fit a line goes on between two
cards, never inside one's name."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n, label
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.cards import CardRow
from scopa.engine import RuleSet
from textual.containers import VerticalScroll

from test_tui_local import play_until

pytestmark = pytest.mark.integration


def screen_rows(app: LocalGameApp) -> list[str]:
    """The whole screen as a person sees it, row by row."""
    return ["".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("size", [(50, 20), (40, 24), (40, 16)], ids=["50x20", "40x24", "40x16"])
async def test_every_card_of_the_hand_is_readable_in_a_small_window(size: tuple[int, int],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=size) as pilot:
        moves = 0

        def turn_with_a_full_hand() -> bool:  # two moves in: a table of six cards, a last card played
            nonlocal moves
            screen = app.board_screen
            if screen.asking and len(screen.board.hand) == 3 and moves >= 2:
                return True
            if screen.asking:
                moves += 1
            return False

        await play_until(app, pilot, turn_with_a_full_hand)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BoardScreen)
        hand = screen.query_one("#hand", CardRow)
        left = screen.query_one("#left", VerticalScroll)
        assert left.region.contains_region(hand.region) and hand.region.height, (hand.region, left.region)
        shown = screen_rows(app)
        hand_rows = " ".join(shown[hand.region.y:hand.region.bottom])
        for card in screen.board.hand:
            assert label(card, screen.deck) in hand_rows, "\n".join(shown)
        assert f"q {i18n.tr('leave')}" in shown[-1], shown[-1]  # the footer keeps its last key, in Italian
