"""The key line writes a key as it is on the keyboard: with the card box open (where ``?``
is typed into the box) help is ``F1 aiuto``, not ``f1 aiuto``, like ``/`` and ``q`` beside it."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.engine import RuleSet

from test_tui_local import play_until

pytestmark = pytest.mark.integration


async def test_the_help_key_reads_f1_while_a_card_is_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: app.board_screen.asking)
        await pilot.press("slash")
        await pilot.pause()
        last = "".join(seg.text for seg in app.screen._compositor.render_strips()[-1])
        assert "F1 aiuto" in last and "f1" not in last, last
