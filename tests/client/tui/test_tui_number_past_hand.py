"""A card's number past the hand says how many cards there are ("Hai solo 2 carte in
mano"), on the turn and out of it, and plays nothing."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n

from test_tui_local import BoardHarness, ask, plays, position

pytestmark = pytest.mark.integration


async def test_a_number_past_the_hand_says_how_many_cards_there_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = BoardHarness(position("7c 3s", "7d Ab"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.board_screen
        await pilot.press("3")  # not asked yet: the number is past the hand all the same
        await pilot.pause()
        assert str(screen._status) == "Hai solo 2 carte in mano."
        task = await ask(app, plays("7d", "7c") + plays("Ab", ""))
        await pilot.pause()
        await pilot.press("3")
        await pilot.pause()
        assert str(screen._status) == "Hai solo 2 carte in mano." and not task.done()
        await pilot.press("2")
        await pilot.pause()
        assert task.done()


async def test_a_last_card_is_said_in_the_singular(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = BoardHarness(position("7c 3s", "Ab"))
    async with app.run_test(size=(60, 20)) as pilot:
        task = await ask(app, plays("Ab", ""))
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        assert str(app.board_screen._status) == "Hai solo 1 carta in mano." and not task.done()
        task.cancel()
