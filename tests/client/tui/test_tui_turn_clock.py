"""The turn clock in `scopa play` (the Textual app): the board counts the seconds left
down from what the server says, is right again after the client was closed and came
back, and when the time runs out the board shows the server's move at once — the card
gone from the hand, no "Your turn" left on screen, the play list and the status line
saying the server played for you — with no keypress needed; the round's box and the
board say the time in one form (m:ss, "0:45").  The server runs on a fake clock."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest
from textual.widgets import Static

from scopa.client.net import MemoryTokenStore
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import RoundEndScreen
from scopa.client.tui import NetApp
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

from test_tui_local import text_of
from test_tui_network import back_at_the_seat, sit_at_a_new_table, until

pytestmark = pytest.mark.integration

SAFETY = 60


@pytest.fixture
async def engine(clock: FakeClock) -> AsyncIterator[NetworkEngine]:
    e = NetworkEngine("127.0.0.1", 0, seed=31, clock=clock, limits=Limits(ping_interval=None), turn_timeout=30)
    await e.start()
    try:
        yield e
    finally:
        await e.stop()


def shown(screen: BoardScreen, panel: str) -> str:
    """A panel's text as one line (however it wraps)."""
    return " ".join(text_of(screen.query_one(panel, Static).content).split())


def seconds_shown(screen: BoardScreen) -> int | None:
    found = re.search(r"⏱ (\d+):(\d\d) left", text_of(screen.query_one("#seats", Static).content))
    return int(found[1]) * 60 + int(found[2]) if found else None


async def test_the_countdown_survives_a_comeback_and_a_timeout_shows_at_once(engine: NetworkEngine,
                                                                            clock: FakeClock) -> None:
    store = MemoryTokenStore()
    async with asyncio.timeout(SAFETY):
        first = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
        async with first.run_test(size=(100, 30)) as pilot:
            await sit_at_a_new_table(first, pilot)  # scopa against a greedy bot, the server's 30 s clock
            screen = first.board_screen
            assert screen is not None
            await until(pilot, lambda: seconds_shown(screen) is not None)
            assert 40 <= (seconds_shown(screen) or 0) <= 45  # the whole turn (the game's first: 30 s and 15 s to read), counted here
            assert "then the server plays for you" in shown(screen, "#status")
            table_id = first.session.table_id  # type: ignore[union-attr]
        # The client is closed mid-turn; 12 s of the turn go by before it comes back.
        clock.advance(12)
        second = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
        async with second.run_test(size=(100, 30)) as pilot:
            screen = await back_at_the_seat(second, pilot)
            await until(pilot, lambda: seconds_shown(screen) is not None)
            assert 28 <= (seconds_shown(screen) or 0) <= 33  # what is left, not the turn's whole 45 s
            hand = screen.board.hand
            master = engine.tables[table_id].master  # type: ignore[index]
            assert master is not None
            first_card = master.default_play().card  # the card the server plays when the time runs out
            # The time runs out while the person looks at the board: no key is pressed.
            clock.advance(33)
            await until(pilot, lambda: first_card not in screen.board.hand)
            assert len(screen.board.hand) == len(hand) - 1
            # The bot answers at once: the person may be asked again, but about the hand as it is now.
            assert all(getattr(a, "card", None) != first_card for a in screen.question.legal)
            assert "Your time ran out: the server played" in shown(screen, "#status")
            assert "time ran out" in shown(screen, "#plays")


def round_clock(app: NetApp) -> str:
    """What the round's box says of the next turn ("" when it says nothing of it)."""
    box = app.screen
    if not isinstance(box, RoundEndScreen):
        return ""
    return " ".join(text_of(box.query_one("#round-clock", Static).content).split())


async def to_the_round_box(app: NetApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Plays the first card, turn after turn, until the round's box is up."""
    for _ in range(2000):
        if isinstance(app.screen, RoundEndScreen):
            break
        if app.board_screen is not None and app.board_screen.asking:
            await pilot.press("1")
        await pilot.pause(0.01)
    assert isinstance(app.screen, RoundEndScreen)


async def test_the_round_box_says_whose_turn_the_next_round_starts_with_and_counts_it_down(
        engine: NetworkEngine, clock: FakeClock) -> None:
    async with asyncio.timeout(SAFETY * 2):
        app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore(), pace=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await sit_at_a_new_table(app, pilot)
            assert app.session is not None
            mine = app.session.clock = FakeClock(start=app.session.clock.now())  # the client's clock, moved by hand
            await to_the_round_box(app, pilot)
            # The bot plays the next round's first card at once if it is its own: then it is ada's turn,
            # her first of the round, with the reading time more (PROTOCOL.md §7 Turn clock).
            await until(pilot, lambda: "Your turn" in round_clock(app))
            said = round_clock(app)
            assert said.startswith("Round 2 has begun. Your turn: you have ")
            assert "the server plays a card for you" in said
            before = int(re.findall(r"you have 0:(\d\d)", said)[0])
            assert 40 <= before <= 45  # 30 s and 15 s of reading time, whoever moved first
            clock.advance(10)  # the person reads on: the box counts the time down
            mine.advance(10)
            await until(pilot, lambda: f"you have 0:{before - 10:02d}" in round_clock(app))
            await pilot.press("enter")
            await until(pilot, lambda: app.board_screen is not None and app.screen is app.board_screen)
            board = app.board_screen
            assert board is not None
            seats = text_of(board.query_one("#seats", Static).content)
            assert re.search(r"⏱ \d+:\d\d left", seats), seats  # the board says the time as the box did (m:ss)
