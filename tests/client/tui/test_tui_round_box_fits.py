"""The round's box in a small window (60x20) with all a network game puts in it (the
score, whose turn the next round's first is and its seconds, the next round's table and
the person's new hand): what does not fit scrolls (the arrows scroll it), and the line
saying how to go on is always in sight."""

from __future__ import annotations

import pytest

from scopa.client.game import TurnClock
from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import RoundEndScreen
from scopa.engine import HandDealt, RoundStarted, RuleSet, parse_cards

from test_tui_local import play_until

pytestmark = pytest.mark.integration


def screen_rows(app: LocalGameApp) -> list[str]:
    return ["".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips()]


async def test_the_round_box_scrolls_and_keeps_its_last_line_at_60x20(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await play_until(app, pilot, lambda: isinstance(app.screen, RoundEndScreen))
        board = app.board
        result = board.last_round
        assert result is not None
        # as in a network game: the next round is dealt behind the box, and its clock runs
        board.apply(RoundStarted(2, 1, tuple(parse_cards("3d 5c 6b 7s")), 0, ()))  # type: ignore[call-arg]
        board.apply(HandDealt(0, tuple(parse_cards("1d 2c 4b")), 30))
        clock = TurnClock(deadline=42.0, seat=0)
        box = RoundEndScreen(result, board, app.deck, None, clock, lambda: 0.0)
        app.push_screen(box)
        await pilot.pause()
        await pilot.pause()
        text = "\n".join(screen_rows(app))
        assert "continuare" in text, text  # the way on, to its last word, in sight
        assert "Invio (o un tasto qualsiasi, ma" in text and "per continuare" in text, text
        assert "La tua mano: 1 A Den" in text and "Tavola: 3 Den" in text, text  # the new hand, while its clock runs
        assert "Partita (a 11)" in text and "Carte" not in text, text  # the points first, the rest above
        for _ in range(12):
            await pilot.press("up")
        await pilot.pause()
        text = "\n".join(screen_rows(app))
        assert app.screen is box  # the arrows scroll, they do not close the box
        assert "Carte" in text, text
        assert "La tua mano: 1 A Den" in text and "Tavola: 3 Den" in text, text
        assert "Invio (o un tasto qualsiasi, ma" in text and "per continuare" in text, text
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not box


async def test_the_round_box_still_scrolls_when_the_next_deal_comes_in_behind_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A network game: the box is up before the next round is dealt; once the new hand is
    shown in it, the score's last rows (the round's points) are still there to scroll to."""
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await play_until(app, pilot, lambda: isinstance(app.screen, RoundEndScreen))
        board = app.board
        result = board.last_round
        assert result is not None
        clock = TurnClock(deadline=42.0, seat=0)
        box = RoundEndScreen(result, board, app.deck, None, clock, lambda: 0.0)
        app.push_screen(box)
        await pilot.pause()
        await pilot.pause()
        board.apply(RoundStarted(2, 1, tuple(parse_cards("3d 5c 6b 7s")), 0, ()))  # type: ignore[call-arg]
        board.apply(HandDealt(0, tuple(parse_cards("1d 2c 4b")), 30))
        for _ in range(100):  # the box's own tick shows the new deal
            await pilot.pause(0.05)
            if "La tua mano: 1 A Den" in "\n".join(screen_rows(app)):
                break
        await pilot.pause()
        await pilot.pause()
        text = "\n".join(screen_rows(app))
        assert "Punti della smazzata" in text and "Partita (a 11)" in text, text  # the round's points in sight
        assert "↑↓: tutto il punteggio" in text, text  # and how to see the rest
        assert "La tua mano: 1 A Den" in text, text
        for _ in range(12):
            await pilot.press("up")
        await pilot.pause()
        text = "\n".join(screen_rows(app))
        assert app.screen is box, text  # the arrows scroll, they do not close the box
        assert "Carte" in text and "Denari" in text, text
        assert "La tua mano: 1 A Den" in text, text
