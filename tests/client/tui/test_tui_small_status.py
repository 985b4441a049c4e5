"""A small window (60x20): a long message on the status line takes one row, ending in
"…", so the hand's hints below the cards keep their rows (none is scrolled out of sight
by an old message); the prompt under it stays whole, on one row (the footer has / and ?)."""

from __future__ import annotations

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.engine import RuleSet

from test_tui_local import play_until

pytestmark = pytest.mark.integration

LONG = ("Bot 1 (medio) gioca 7 Cop e prende A Cop, 6 Spa: una riga lunga che a 60 colonne andrebbe a capo "
        "su tre righe intere, togliendo posto a quello che ogni carta prende")


async def test_an_old_long_message_leaves_the_hints_in_sight_at_60x20(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(60, 20)) as pilot:
        asked = 0

        def third_turn() -> bool:
            nonlocal asked
            asked += app.board_screen.asking
            return app.board_screen.asking and asked >= 3 and len(app.board.table) >= 4

        await play_until(app, pilot, third_turn)
        screen = app.board_screen
        screen.say(LONG)
        await pilot.pause()
        await pilot.pause()
        moves = screen.query_one("#moves", Static)
        left = screen.query_one("#left", VerticalScroll)
        visible = left.scroll_offset.y + left.scrollable_content_region.height
        assert moves.region.height and moves.virtual_region.bottom <= visible, (moves.virtual_region, visible)
        status = str(screen.query_one("#status", Static).render())
        assert status.splitlines()[0].endswith("…"), status
        assert status.splitlines()[-1] == "Tocca a te: premi 1–3 o fai clic su una carta", status  # the prompt whole
