"""The full-screen board's answer to a card typed that is none ("'7x' is not a card"), or not in
the hand, empties the box for the next try, which stays open; the answer
stands until the next text is typed: it goes when the text is changed or put away (Esc),
when a move is made, and when the turn is over (the server played for the seat), and a
card typed for a turn that is over is no answer for the next one."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from test_tui_local import BoardHarness, ask, plays, position

pytestmark = pytest.mark.unit

HINT = "'7x' is not a card"


def status(app: BoardHarness) -> str:
    return str(app.board_screen.query_one("#status", Static).render())


async def test_the_hint_goes_when_the_typed_text_changes_or_is_put_away() -> None:
    app = BoardHarness(position("Ac 3s", "Ad Rb 2b"))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("Ad", "Ac") + plays("Rb", "") + plays("2b", "")
        task = await ask(app, legal)
        await pilot.press("slash", "7", "x", "enter")
        await pilot.pause()
        assert HINT in status(app)
        await pilot.press("7")  # new text in the emptied box: the hint answered the text before
        await pilot.pause()
        assert HINT not in status(app)
        await pilot.press("x", "enter")
        await pilot.pause()
        assert HINT in status(app)
        await pilot.press("escape")  # put away
        await pilot.pause()
        assert HINT not in status(app) and not task.done()
        await pilot.press("slash", "7", "x", "enter")
        await pilot.pause()
        assert HINT in status(app)
        await pilot.press("ctrl+u", *"2 Bas", "enter")  # a move: the hint was about the text before it
        await pilot.pause()
        assert task.result() == legal[2]
        assert HINT not in status(app)


async def test_a_turn_taken_by_the_server_takes_the_typed_card_and_its_hint_away() -> None:
    app = BoardHarness(position("Ac 3s", "Ad Rb 2b"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.board_screen
        legal = plays("Ad", "Ac") + plays("Rb", "") + plays("2b", "")
        task = await ask(app, legal)
        await pilot.press("slash", "7", "x", "enter")
        await pilot.pause()
        assert HINT in status(app)
        screen.turn_taken()  # the clock ran out: the server played for the seat
        task.cancel()
        await pilot.pause()
        box = screen.query_one("#typed", Input)
        assert HINT not in status(app)
        assert not box.has_class("shown") and box.value == ""
        task = await ask(app, plays("Rb", "") + plays("2b", ""))  # the next turn
        await pilot.pause()
        await pilot.press("enter")  # nothing typed for this turn: Enter says nothing about the last one
        await pilot.pause()
        assert HINT not in status(app) and not task.done()
        await pilot.press("2")
        await pilot.pause()
        assert task.done()


@pytest.mark.parametrize("typed, why", [("7x", HINT), ("4 Cop", "4 Cop")])
async def test_a_card_that_is_no_move_is_said_why_and_the_box_is_empty_for_the_next_try(typed: str, why: str) -> None:
    app = BoardHarness(position("Ac 3s", "Ad Rb 2b"))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("Ad", "Ac") + plays("Rb", "") + plays("2b", "")
        task = await ask(app, legal)
        await pilot.press("slash", *typed, "enter")  # no card, or a card not in the hand
        await pilot.pause()
        box = app.board_screen.query_one("#typed", Input)
        assert why in status(app)
        assert box.has_class("shown") and box.has_focus and box.value == "" and not task.done()
        await pilot.press(*"2 Bas", "enter")  # the next try, typed as is
        await pilot.pause()
        assert task.result() == legal[2]
