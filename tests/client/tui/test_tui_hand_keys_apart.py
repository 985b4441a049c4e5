"""The hand's keys stand apart from its cards at every size of the full-screen board: in a
small window each card of the hand is one line, its key then the card framed as the
table's cards are (``1 [F Den]``), never ``1 F Den`` where the key runs into the card's
name; in a larger one the key sits on the card's frame.  The list of what each card
takes sets its key apart too (``1. F Den prende F Spa``).  A click on a one-line card of
the hand still picks that card."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n, label
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.cards import CardRow
from scopa.engine import RuleSet

from test_tui_local import play_until
from test_tui_small_window import screen_rows

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("size", [(40, 16), (42, 20), (50, 20), (60, 20), (80, 24)],
                         ids=["40x16", "42x20", "50x20", "60x20", "80x24"])
async def test_each_key_of_the_hand_stands_apart_from_its_card(size: tuple[int, int],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=size) as pilot:
        await play_until(app, pilot, lambda: app.board_screen.asking)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BoardScreen)
        hand = screen.query_one("#hand", CardRow)
        rows = screen_rows(app)[hand.region.y:hand.region.bottom]
        shown = "\n".join(rows)
        everything = "\n".join(screen_rows(app))
        cards = screen.board.hand
        assert len(cards) == 3, shown
        for i, card in enumerate(cards):
            key, name = str(i + 1), label(card, screen.deck)
            if hand.compact:  # one line a card: the key, a space, the card in its frame
                assert f"{key} [{name}]" in shown, shown
            else:  # framed cards: the key on the top edge, the name inside
                assert f"┌{key}────┐" in shown and f"│{name}│" in shown, shown
            assert f"{key}. {name}" in everything, everything  # what it takes: "1. F Den prende F Spa"
            assert f"{key} {name}" not in everything, everything
        if hand.compact:
            second = rows[0].index(f"2 [{label(cards[1], screen.deck)}]") - hand.region.x
            await pilot.click("#hand", offset=(second + 4, 0))  # on the second card's name
            await pilot.pause()
            assert hand.selected == 1, "\n".join(screen_rows(app))
