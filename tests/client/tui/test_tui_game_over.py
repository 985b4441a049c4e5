"""The game-over box of `scopa local` (the Textual app) at 80×24 in Italian: each side's
points by category over the whole game (carte, denari, settebello, primiera, scope) that
add up to the final score, shown under them; and `n` on it plays again against the same
bots: a new game, the next seed, the score back to 0–0."""

from __future__ import annotations

import re

import pytest

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import GameOverScreen
from scopa.engine import Phase, RuleSet

from test_tui_local import play_until
from test_tui_lobby_fits import screen_rows

pytestmark = pytest.mark.integration

CATEGORIES = ["Carte", "Denari", "Settebello", "Primiera", "Scope"]


def box_rows(app: LocalGameApp) -> list[str]:
    """The screen's rows with the box's borders taken away."""
    return [re.sub("[█▊▎▔▁▀▄]", " ", row).strip() for row in screen_rows(app)]


async def test_the_game_over_box_adds_up_the_categories_and_n_plays_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=11, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        rows = box_rows(app)
        first = app.master
        assert first is not None
        totals = list(first.state.totals)
        by_category = {}
        for row in rows:
            found = re.search(r"\b(" + "|".join(CATEGORIES) + r")\s+(\d+)\s+(\d+)\b", row)  # the board shows behind
            if found:
                by_category[found[1]] = [int(found[2]), int(found[3])]
        assert list(by_category) == CATEGORIES, "\n".join(rows)
        assert [sum(p[side] for p in by_category.values()) for side in (0, 1)] == totals, "\n".join(rows)
        final = re.search(r"Punteggio finale\s+(\d+)\s+(\d+)", "\n".join(rows))
        assert final is not None and [int(final[1]), int(final[2])] == totals, "\n".join(rows)
        assert any("n gioca ancora contro gli stessi bot" in row for row in rows), "\n".join(rows)
        await pilot.press("n")
        await play_until(app, pilot, lambda: app.master is not first and app.board_screen.asking)
        assert app.seed == 12 and app.master is not None and app.master.state.phase is Phase.PLAY
        assert app.board.totals == (0, 0) and app.master.players[1].name == first.players[1].name  # the same bot
