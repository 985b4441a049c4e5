"""The round box of `scopa local` says what closes it as it behaves, in Italian: a
number does not (a card's number typed as the round's last card went down must not skip
the score), a letter and Enter do."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import RoundEndScreen
from scopa.engine import RuleSet

from test_tui_local import play_until

pytestmark = pytest.mark.integration


async def test_the_round_box_says_a_number_does_not_close_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: isinstance(app.screen, RoundEndScreen))
        box = app.screen
        hint = str(box.query_one(".dialog-hint", Static).render())
        assert hint == "Invio (o un tasto qualsiasi, ma non un numero) per continuare", hint
        await pilot.press("3")
        await pilot.pause()
        assert app.screen is box  # a number: still up
        await pilot.press("x")
        await pilot.pause()
        assert app.screen is not box
