"""A move chosen while the connection is down (the question held open) when the question
asked after the reconnect is not the same one: still allowed, it is played; no longer
allowed, it is refused in words on the screen and the person chooses again."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.widgets import Static

from scopa.client.tui.board import BoardScreen
from scopa.client.text.board.state import BoardState
from scopa.engine import Card, Play, RuleSet, mask_of

HAND = (Card.parse("7d"), Card.parse("3c"))
TABLE = (Card.parse("4s"),)
FIRST = [Play(int(Card.parse("7d")), 0), Play(int(Card.parse("3c")), 0)]


class BoardApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        board = BoardState(viewer=0)
        board.rules, board.names = RuleSet(), ("ada", "bob")
        board.hand, board.table, board.hand_sizes = HAND, TABLE, [2, 3]
        self.board = BoardScreen(board)
        self.board.hold_on_cancel = True

    def on_mount(self) -> None:
        self.push_screen(self.board)


async def keep_a_move(app: BoardApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Ask, lose the connection (the wait is cancelled), then press 1 (the 7 of Denari)."""
    screen = app.board
    asked = asyncio.ensure_future(screen.ask(FIRST))
    await pilot.pause()
    assert screen.asking
    asked.cancel()
    await pilot.pause()
    assert asked.cancelled() and screen.asking  # the question stays open
    await pilot.press("1")
    await pilot.pause()
    assert "Your move, 7 Den, is kept" in str(screen.query_one("#status", Static).render())


async def test_a_kept_move_still_allowed_is_played() -> None:
    app = BoardApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await keep_a_move(app, pilot)
        reordered = [FIRST[1], Play(int(Card.parse("7d")), 0), Play(int(Card.parse("3c")), mask_of([Card.parse("4s")]))]
        async with asyncio.timeout(5):
            assert await app.board.ask(reordered) == FIRST[0]


async def test_a_kept_move_no_longer_allowed_is_refused_on_screen_and_the_person_chooses_again() -> None:
    app = BoardApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await keep_a_move(app, pilot)
        screen = app.board
        screen.board.hand = (Card.parse("3c"),)  # the 7 went meanwhile
        only = [Play(int(Card.parse("3c")), 0)]
        asked = asyncio.ensure_future(screen.ask(only))
        await pilot.pause()
        assert screen.asking and not asked.done()
        status = str(screen.query_one("#status", Static).render())
        assert "Your move, 7 Den, cannot be played now" in status and "Choose again." in status
        await pilot.press("1")
        async with asyncio.timeout(5):
            assert await asked == only[0]
