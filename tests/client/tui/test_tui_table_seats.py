"""`scopa play` in the Textual app, at a table as a person sees it: while the seats fill
the board names who sits there (the host by name, a free seat as free), never a side's
number; a seat a bot took over says so."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from textual.widgets import Select, Static

from scopa.client.net import ClientSession
from scopa.client.tui import NetApp
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.client.tui.online import CreateTableScreen, LobbyScreen
from scopa.engine import Declare, Play, Player, RuleSet, View
from scopa.server import NetworkEngine

from test_tui_local import text_of
from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


def shown(screen: BoardScreen, *panels: str) -> str:
    """The panels' text as one line (however it wraps)."""
    return " ".join(" ".join(text_of(screen.query_one(p, Static).content).split()) for p in panels)


async def at_the_board(app: NetApp, pilot) -> BoardScreen:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: isinstance(app.screen, BoardScreen))
    screen = app.screen
    assert isinstance(screen, BoardScreen)
    return screen


async def join_the_running_game(app: NetApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """From the lobby, ``j`` on the listed table, until its game has started on the board."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
    await pilot.press("j")
    await until(pilot, lambda: app.board_screen is not None and app.board_screen.board.rules is not None
                and not app.board_screen.board.waiting)


async def test_the_host_waiting_sees_the_seats_by_name(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            await pilot.press("ctrl+s")  # the other seat waits for people
            screen = await at_the_board(app, pilot)
            await until(pilot, lambda: "(free seat)" in shown(screen, "#seats"))
            seen = shown(screen, "#top", "#seats", "#status")
            assert "You" in seen and "Waiting for the other seats to fill" in seen
            assert "side 1" not in seen and "seat 2" not in seen


async def test_a_person_joining_sees_the_host_by_name_until_the_game_starts(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(RuleSet.build("scopa", players=3))  # two more seats: one waits after ada sits
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
            await pilot.press("j")
            screen = await at_the_board(app, pilot)
            await until(pilot, lambda: "bruno" in shown(screen, "#seats"))
            seen = shown(screen, "#top", "#seats", "#status")
            assert "You" in seen and "(free seat)" in seen
            assert "side 1" not in seen and "seat 1" not in seen
            await bruno.close()


@pytest.mark.parametrize("takeover", [True, False], ids=["a bot plays on", "the game ends"])
async def test_leaving_a_joined_table_names_only_what_this_table_does(engine: NetworkEngine,  # noqa: F811
                                                                      takeover: bool) -> None:
    """The table map carries the host's choice (``bot_takeover``), so a person who joined
    is told what leaving does at this table, not both cases."""
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(RuleSet.build("scopa", players=3), fill_with_bots=["medium"], bot_takeover=takeover)
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await join_the_running_game(app, pilot)
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            question = app.screen.question  # type: ignore[attr-defined]
            if takeover:
                assert "A bot plays your seat" in question
            else:
                assert "It ends for everyone" in question
            assert "(or," not in question
            await pilot.press("n")
        await bruno.close()


async def test_a_seat_a_bot_took_over_says_a_bot_plays_it(engine: NetworkEngine) -> None:  # noqa: F811
    """bruno leaves a running game at a table that lets a bot play on: his seat, the
    header's score and the piles say "bruno (bot)" from then on."""
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(RuleSet.build("scopa"))
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await join_the_running_game(app, pilot)
            screen = app.board_screen
            assert screen is not None and "bruno (bot)" not in shown(screen, "#top", "#seats")
            await bruno.leave_table()
            await until(pilot, lambda: "bruno (bot)" in shown(screen, "#seats"))
            top, seats = shown(screen, "#top"), shown(screen, "#seats")
            assert "bruno (bot):" in top  # his side's points
            assert seats.count("bruno (bot)") == 2  # his seat, and his pile
        await bruno.close()


class GatedPlayer(Player):
    """Plays its first legal move, each only once the test opens the gate."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.gate = asyncio.Event()

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.asked.set()
        await self.gate.wait()
        self.gate.clear()
        self.asked.clear()
        return legal[0]


async def test_a_cards_number_out_of_turn_or_past_the_hand_is_answered_in_words(  # noqa: F811
        engine: NetworkEngine) -> None:
    """A digit pressed while bruno is to move says whose turn it is; a digit past the hand
    says which numbers there are.  Neither is kept to be played later."""
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(RuleSet.build("scopa"))
        gated = GatedPlayer()
        game = asyncio.create_task(bruno.play_game(gated))
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await join_the_running_game(app, pilot)
            screen = app.board_screen
            assert screen is not None
            await until(pilot, lambda: screen.asking or (gated.asked.is_set() and bool(screen.board.hand)))
            if screen.asking:  # ada moves first: bruno is to move after her card
                await pilot.press("9")
                assert str(screen._status) == "You have only 3 cards in hand."
                screen.question.answer(screen.question.legal[0])
                await until(pilot, lambda: gated.asked.is_set() and not screen.asking)
            held = len(screen.board.hand)
            await pilot.press("1")
            assert str(screen._status) == "Not your turn: bruno is playing."
            gated.gate.set()
            await until(pilot, lambda: screen.asking)
            assert len(screen.board.hand) == held  # the 1 pressed out of turn was not played
            await pilot.press("9")
            assert str(screen._status) == f"You have only {held} cards in hand."
        game.cancel()
        await bruno.close()
