"""The game's result said from the person's side: the loser reads "Hai perso 4–12 contro
Gino" (their own points first), not the winner's "Vince Gino, 12–4"; a game of bots only
(nobody's side) keeps the neutral line."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import GameOverScreen
from scopa.engine import RuleSet

from test_tui_local import play_until

pytestmark = pytest.mark.integration


async def test_the_loser_is_told_they_lost_with_their_points_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert app.master is not None
        mine, theirs = app.master.state.totals
        assert app.master.state.winner == 1  # with this deal the bot wins
        shown = str(app.screen.query_one("#result", Static).render())
        assert shown == f"Hai perso {mine}–{theirs} contro Bot 1 (avido).", shown
