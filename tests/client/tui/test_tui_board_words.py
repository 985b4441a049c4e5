"""What the board says, read as a person reads it: the seat rows, the result, a last card
played for you, the keys of a Cirulla turn, and a table watched from the middle of a
round."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from textual.widgets import Static

from scopa.client.text import DeckStyle, label
from scopa.client.net import ClientSession
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import GameOverScreen
from scopa.client.tui.online import LobbyScreen
from scopa.engine import DeclarationKind, Declare, Play, RuleSet, View
from scopa.engine.player import Player
from scopa.server import NetworkEngine

from test_tui_local import BoardHarness, ask, play_until, plays, position, text_of
from test_tui_network import app_for, engine, until  # noqa: F401 - engine: the server fixture

SAFETY = 60


def status(screen: BoardScreen) -> str:
    return str(screen.query_one("#status", Static).render())


async def test_a_seat_row_says_cards_and_dealer_not_three_deals() -> None:
    app = BoardHarness(position("7c 3s 4b Fd", "7d Ab 2b"))  # the bot deals
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = text_of(app.board_screen.query_one("#seats", Static).content).splitlines()
        bot = next(r for r in rows if "Bot" in r)
        assert "▮▮▮ 3 cards" in bot and "dealer" in bot and "deals" not in bot, bot


async def test_the_result_puts_the_winners_points_first_R22() -> None:
    # A game of bots: with this seed the second seat (the second bot, a greedy one) wins 11–1.
    app = LocalGameApp(RuleSet(), ["random", "greedy"], seed=13, pace=0, round_pause=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), limit=2000)
        winner = app.master.state.winner
        totals = app.master.state.totals
        assert winner == 1 and totals[1] > totals[0]
        result = str(app.screen.query_one("#result", Static).render())
        assert result == f"Bot 2 (greedy) wins, {totals[1]}–{totals[0]}."


async def test_a_last_card_played_for_you_says_so_on_the_status_line_until_the_next_deal() -> None:
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):
            await pilot.pause()
            if "was played for you" in status(app.board_screen):
                break
            if app.board_screen.asking:
                await pilot.press("1")
        else:
            raise AssertionError("no status line said the last card was played for you")
        last = next(p for p in reversed(app.board.plays) if p.seat == 0)
        assert status(app.board_screen).startswith(f"Your last card, {label(last.card, DeckStyle.ITALIAN)}, was")
        await play_until(app, pilot, lambda: app.board_screen.asking)  # past a round's end too
        assert "was played for you" not in status(app.board_screen)  # a new hand: gone


async def test_a_cirulla_turn_says_which_keys_including_a_declaration_V13() -> None:
    app = BoardHarness(position("7c 3s", "Ad 2b 3c", RuleSet.build("cirulla")))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("Ad", "") + plays("2b", "") + plays("3c", "3s") + [Declare(DeclarationKind.UNDER_TEN)]
        await ask(app, legal)
        await pilot.pause()
        assert "press 1–4" in status(app.board_screen)


class TwoPlaysThenThinks(Player):
    """Plays its first two turns, then keeps the table waiting (a round in progress)."""

    def __init__(self) -> None:
        self.name = "bob"
        self.turns = 0

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.turns += 1
        if self.turns > 2:
            await asyncio.Event().wait()
        return legal[0]


async def test_a_spectator_joining_mid_round_sees_the_rounds_plays_and_no_card_keys(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
        await bob.create_table(preset="scopa", fill_with_bots=["greedy"])
        player = TwoPlaysThenThinks()
        game = asyncio.ensure_future(bob.play_game(player))
        try:
            while player.turns < 3:
                await asyncio.sleep(0.02)
            app = app_for(engine)
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
                await pilot.press("w")
                await until(pilot, lambda: isinstance(app.screen, BoardScreen))
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, BoardScreen)
                plays_text = str(screen.query_one("#plays", Static).render())
                assert "no plays yet" not in plays_text and plays_text.count("bob:") == 2, plays_text
                keys = [str(getattr(k, "description", "")) for k in screen.query("FooterKey")]
                assert keys and not any("card" in k for k in keys), keys
                await pilot.press("b")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        finally:
            game.cancel()
            await bob.close()


def test_a_play_in_the_round_list_wraps_between_cards_not_inside_one() -> None:
    """The round's plays sit in a narrow panel (PLAYS_WIDTH): "Bot 1: C Den ×4 Den 5 Cop"
    is too wide, and it goes on the next line at a card, never between a card's rank and suit."""
    import io

    from rich.console import Console

    from scopa.client.text import parse_cards
    from scopa.client.text.board.state import RoundPlay
    from scopa.client.tui.boardtext import PLAYS_WIDTH, plays_text

    board = position("4d 5c 3s", "2b 6b 7b")
    board.names = ("ada", "medium-bot-1")
    cd, d4, c5, s3, b3, c3 = parse_cards("Cd 4d 5c 3s 3b 3c")
    board.plays = [RoundPlay(1, cd, (d4, c5)), RoundPlay(0, s3, (b3,)), RoundPlay(1, c3, ())]
    out = Console(width=PLAYS_WIDTH, file=io.StringIO())
    out.print(plays_text(board, DeckStyle.ITALIAN))
    lines = [line.strip() for line in out.file.getvalue().splitlines()]  # type: ignore[attr-defined]
    assert lines == ["This round", "Bot 1: C Den ×4 Den", "5 Cop", "You: 3 Spa ×3 Bas", "Bot 1: 3 Cop"]


def test_a_server_bot_is_named_as_the_browser_names_it_and_time_ran_out_is_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's bot ("greedy-bot-1") is "Bot 1 (medium)" at the table (the plays list,
    narrow, says "Bot 1"), "Bot 1 (medio)" in Italian; a play the clock made keeps its
    whole "time ran out" mark, on a line of its own when the line is full."""
    import io

    from rich.console import Console

    from scopa.client.text import i18n, parse_cards
    from scopa.client.text.board.state import RoundPlay
    from scopa.client.tui.boardtext import PLAYS_WIDTH, plays_text

    board = position("4d 5c 3s", "2b 6b 7b")
    board.names = ("ada", "greedy-bot-1")
    assert board.seat_name(1) == "Bot 1 (medium)"
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert board.seat_name(1) == "Bot 1 (medio)"
    monkeypatch.setattr(i18n, "LANGUAGE", "en")
    board.names = ("ada", "bruno")
    d2, c3 = parse_cards("2d 3c")
    board.plays = [RoundPlay(1, d2, ()), RoundPlay(0, c3, ())]
    board.timed_out = {d2}
    out = Console(width=PLAYS_WIDTH, file=io.StringIO())
    out.print(plays_text(board, DeckStyle.ITALIAN))
    lines = [line.strip() for line in out.file.getvalue().splitlines()]  # type: ignore[attr-defined]
    assert lines == ["This round", "bruno: 2 Den", "⏱ time ran out", "You: 3 Cop"]
