"""Words of the full-screen board through a round, in Italian: the last card played for
the person is said until the next deal (not into the next hand or round), the round's
start reads "Smazzata 2: dà le carte …" (lower case mid-sentence) and the capture choice
asks "Con 6 Den quali carte prendi?"."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import CaptureChoiceScreen, RoundEndScreen
from scopa.engine import RoundStarted, RuleSet

from test_tui_lines_fit import shown_rows
from test_tui_local import BoardHarness, ask, cards, play_until, plays, position
from test_tui_network import until

pytestmark = pytest.mark.integration


def status_of(app: LocalGameApp) -> str:
    return " ".join(shown_rows(app.board_screen, "#status"))


async def test_the_last_card_played_for_the_person_is_said_until_the_next_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_until(app, pilot, lambda: "giocata per te" in status_of(app))
        await play_until(app, pilot, lambda: app.board_screen.asking and len(app.board_screen.board.hand) == 3)
        assert "giocata per te" not in status_of(app), status_of(app)


async def test_the_round_start_and_the_capture_choice_read_as_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = BoardHarness(position("6c 2s 4b Ad", "6d Rb"))
    async with app.run_test(size=(100, 30)) as pilot:
        app.board_screen.tell_event(RoundStarted(2, 1, cards("6c 2s 4b Ad"), 0, ()))
        await pilot.pause()
        assert "Smazzata 2: dà le carte Bot." in status_of(app), status_of(app)  # type: ignore[arg-type]
        await ask(app, plays("6d", "6c", "2s 4b") + plays("Rb", ""))
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, CaptureChoiceScreen)
        title = str(app.screen.query_one(".dialog-title", Static).render())
        assert title == "Con 6 Den quali carte prendi?", title


async def test_a_key_that_does_nothing_says_which_keys_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = BoardHarness(position("6c 2s 4b Ad", "6d Rb"))
    async with app.run_test(size=(100, 30)) as pilot:
        task = await ask(app, plays("6d", "6c") + plays("Rb", ""))
        await pilot.press("x")
        await pilot.pause()
        assert "x: tasto sconosciuto — ? per l'aiuto" in status_of(app), status_of(app)  # type: ignore[arg-type]
        await pilot.press("2")
        await pilot.pause()
        assert task.result() == plays("Rb", "")[0]
        assert "tasto sconosciuto" not in status_of(app)  # type: ignore[arg-type]


async def test_a_watchers_round_box_says_what_comes_next_and_which_key_closes_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's box that goes by itself (a spectator's, a game of bots) says the next round
    comes by itself and that Enter closes it now; Enter does."""
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["greedy", "greedy"], seed=5, pace=0, round_pause=600)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, RoundEndScreen), limit=5000)
        hint = str(app.screen.query_one(".dialog-hint", Static).render())
        assert "comincia da sé" in hint and "Invio" in hint, hint
        box = app.screen
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is not box)  # closed long before its 600 s


async def test_a_watchers_box_after_the_games_last_round_says_the_game_is_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R22: the round that takes a side to the target ends the game, so its box (one that goes
    by itself) says the game is over and which key closes it, not that a next round comes."""
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["greedy", "greedy"], seed=5, pace=0, round_pause=600)
    async with app.run_test(size=(100, 30)) as pilot:
        while True:
            await until(pilot, lambda: isinstance(app.screen, RoundEndScreen), limit=5000)
            box = app.screen
            assert isinstance(box, RoundEndScreen)
            hint = str(box.query_one(".dialog-hint", Static).render())
            totals = box.result.event.totals
            if max(totals) >= 11 and totals.count(max(totals)) == 1:
                break
            assert "comincia da sé" in hint, hint
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is not box)
        assert "La partita è finita" in hint and "Invio" in hint and "comincia da sé" not in hint, hint
