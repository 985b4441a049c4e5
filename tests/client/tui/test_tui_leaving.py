"""Leaving a game with `q`, as a person at the keyboard does it: a stray `q` (right under
the 1 and 2 that play) never ends a game without a question, the question's default is
"No" (a network game's: test_tui_network.py), and with the French deck `q` stays "leave" (a capital `Q` types the queen)."""

from __future__ import annotations


import pytest
from textual.widgets import Button, Input

from scopa.client.text import DeckStyle
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import ConfirmScreen, HandOverScreen
from scopa.engine import RuleSet

from test_tui_network import until


async def first_turn(app: LocalGameApp, pilot) -> None:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: app.board_screen.asking or isinstance(app.screen, HandOverScreen))


@pytest.mark.parametrize("seats", [["human", "greedy"], ["human", "human"]], ids=["against a bot", "hot seat"])
async def test_q_in_a_local_game_asks_first_and_no_plays_on(seats: list[str]) -> None:
    app = LocalGameApp(RuleSet(), seats, seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await first_turn(app, pilot)
        before = app.screen
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("q")  # a second stray q: still the one question
        await pilot.pause()
        assert len([s for s in app.screen_stack if isinstance(s, ConfirmScreen)]) == 1
        await pilot.press("n")
        await until(pilot, lambda: app.screen is before)
        assert app.return_value is None and app.is_running
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: app.return_value is not None)
    assert app.return_value == 0


async def test_enter_on_the_leave_question_means_no() -> None:
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await first_turn(app, pilot)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert isinstance(app.focused, Button) and app.focused.id == "no"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen))
        assert app.return_value is None and app.board_screen.asking


async def test_q_with_the_french_deck_asks_to_leave_and_a_capital_q_types_the_queen() -> None:
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, style=DeckStyle.FRENCH, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await first_turn(app, pilot)
        box = app.board_screen.query_one("#typed", Input)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert not box.has_class("shown")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen))
        await pilot.press("Q")
        await pilot.pause()
        assert box.has_class("shown") and box.value == "Q"
