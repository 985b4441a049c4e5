"""Scopone at 80x24 and at 60x20: a hand of nine cards draws its cards on one line each
(at 60x20 the piles table gives way and the prompt takes one row), so that what every
card would take ("1. A Spa si cala", "6. F Spa prende F Cop") is on screen, none
scrolled out of sight; in hot seat the prompt names whose turn it is."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n, label
from scopa.client.tui.app import LocalGameApp
from scopa.engine import RuleSet

pytestmark = pytest.mark.integration


def screen_rows(app: LocalGameApp) -> list[str]:
    """The whole screen as a person sees it, row by row."""
    return ["".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
async def test_all_nine_hints_of_a_scopone_hand_show(size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet.build("scopone"), ["human", "medium", "human", "medium"], seed=5, pace=0,
                       names=["nonna", "nipote"])
    async with app.run_test(size=size) as pilot:
        for _ in range(50):  # the hand-over box: Enter when nonna is at the keyboard
            await pilot.pause()
            if app.board_screen.asking:
                break
            await pilot.press("enter")
        await pilot.pause()
        shown = "\n".join(screen_rows(app))
        hand = app.board.hand
        assert len(hand) == 9
        for i, card in enumerate(hand, 1):  # each card's hint, its key apart from the card
            assert f"{i}. {label(card, app.deck)} " in shown, shown
        assert shown.count("si cala") + shown.count("prende") >= 9, shown
        assert "Tocca a nonna:" in shown and "Tocca a te" not in shown, shown  # hot seat: whose turn it is
        assert "q esci" in shown.splitlines()[-1], shown  # the footer too
