"""The full-screen app of `scopa local`, driven by Textual's pilot: the board, moves by
key, typed card and mouse, the capture choice, round end, help, hand-over and leaving."""

from __future__ import annotations

import asyncio
import io

from rich.console import Console

from textual.app import App
from textual.widgets import Static

from scopa.client.text import DeckStyle
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.board import BoardScreen
from scopa.client.text.board.state import BoardState
from scopa.client.tui.cards import CardRow
from scopa.client.tui.dialogs import CaptureChoiceScreen, GameOverScreen, HandOverScreen, HelpScreen, RoundEndScreen
from scopa.engine import GameStarted, HandDealt, Play, RoundStarted, RuleSet, mask_of, parse_cards, view


def text_of(renderable: object) -> str:
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def cards(text: str) -> tuple:
    return tuple(parse_cards(text))


class BoardHarness(App[None]):
    """A board with a position chosen by the test."""

    def __init__(self, board: BoardState, style: DeckStyle = DeckStyle.ITALIAN) -> None:
        super().__init__()
        self.board_screen = BoardScreen(board, style)

    def on_mount(self) -> None:
        self.push_screen(self.board_screen)


def position(table: str, hand: str, rules: RuleSet | None = None) -> BoardState:
    rules = rules or RuleSet()
    b = BoardState(viewer=0)
    b.apply(GameStarted(rules, ("You", "Bot"), 1))
    b.apply(RoundStarted(1, 1, cards(table), 0, ()))
    b.apply(HandDealt(0, cards(hand), 30))
    return b


def plays(card: str, *takes: str) -> list[Play]:
    (c,) = parse_cards(card)
    return [Play(int(c), mask_of(parse_cards(t)) if t else 0) for t in takes]


async def ask(app: BoardHarness, legal: list[Play]) -> asyncio.Task:
    task = asyncio.ensure_future(app.board_screen.ask(legal))
    await asyncio.sleep(0)
    return task


async def test_a_number_key_plays_that_card_of_the_hand() -> None:
    app = BoardHarness(position("7c 3s", "7d Ab 2b"))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("7d", "7c") + plays("Ab", "") + plays("2b", "")
        task = await ask(app, legal)
        await pilot.pause()
        assert app.board_screen.query_one("#hand", CardRow).cards == cards("7d Ab 2b")
        await pilot.press("2")
        await pilot.pause()
        assert task.result() == legal[1]


async def test_a_card_with_several_captures_asks_which_R15() -> None:
    app = BoardHarness(position("6c 2s 4b Ad", "6d Rb"))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("6d", "6c", "2s 4b") + plays("Rb", "")  # free capture mode offers both
        task = await ask(app, legal)
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, CaptureChoiceScreen)
        assert not task.done()
        await pilot.press("2")
        await pilot.pause()
        assert task.result() == legal[1]


async def test_escape_in_the_capture_choice_goes_back_to_the_hand() -> None:
    app = BoardHarness(position("6c 2s 4b Ad", "6d Rb"))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("6d", "6c", "2s 4b") + plays("Rb", "")
        task = await ask(app, legal)
        await pilot.press("1", "escape")
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen) and not task.done()
        await pilot.press("2")
        await pilot.pause()
        assert task.result() == legal[2]


async def test_typing_a_card_in_the_notation_on_screen_italian() -> None:
    app = BoardHarness(position("Ac 3s", "Ad Rb 2b"))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("Ad", "Ac") + plays("Rb", "") + plays("2b", "")
        task = await ask(app, legal)
        await pilot.press("slash", *"R Bas", "enter")  # as shown on the card: "R Bas"
        await pilot.pause()
        assert task.result() == legal[1]


async def test_typing_kc_on_the_french_deck_is_the_king_of_clubs() -> None:
    app = BoardHarness(position("Ac 3s", "Rc Rb"), DeckStyle.FRENCH)
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("Rc", "") + plays("Rb", "")  # Rb: Re di Bastoni = king of clubs
        task = await ask(app, legal)
        await pilot.press("K", "c", "enter")  # a court letter opens the box by itself
        await pilot.pause()
        assert task.result() == legal[1]


async def test_clicking_a_hand_card_lights_its_captures_then_a_second_click_plays_it() -> None:
    app = BoardHarness(position("7c 3s 4b", "7d Ab"))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("7d", "7c") + plays("Ab", "")
        task = await ask(app, legal)
        await pilot.click("#hand", offset=(2, 1))
        await pilot.pause()
        table = app.board_screen.query_one("#table", CardRow)
        assert table.lit == frozenset({0}) and not task.done()  # the 7 of Coppe lights up
        await pilot.click("#hand", offset=(2, 1))
        await pilot.pause()
        assert task.result() == legal[0]


async def test_clicking_a_lit_table_card_picks_that_capture() -> None:
    app = BoardHarness(position("6c 2s 4b Ad", "6d"))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("6d", "6c", "2s 4b")
        task = await ask(app, legal)
        await pilot.click("#hand", offset=(2, 1))
        await pilot.click("#table", offset=(8 + 2, 1))  # the second table card: 2 Spa
        await pilot.pause()
        assert task.result() == legal[1]


async def test_what_each_card_takes_is_shown_also_when_it_is_not_your_turn() -> None:
    app = BoardHarness(position("7c 3s 4b", "7d Ab"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        moves = str(app.board_screen.query_one("#moves", Static).render())
        assert "7 Den takes 7 Cop" in moves and "A Bas lays down" in moves


async def test_the_board_fits_40_columns_with_the_rounds_plays_under_the_hand() -> None:
    app = BoardHarness(position("7c 3s 4b Fd Cc", "7d Ab 2b"))
    async with app.run_test(size=(40, 30)) as pilot:
        await pilot.pause()
        screen = app.board_screen
        assert screen.has_class("narrow")
        table = screen.query_one("#table", CardRow)
        assert table.size.width <= 40 and table.size.height == 6  # five cards wrap onto two lines
        box = screen.query_one("#plays-box")
        hand = screen.query_one("#hand", CardRow)
        assert box.display and box.region.height >= 3 and box.region.y > hand.region.y  # the rows left over
        assert box.region.bottom <= screen.query_one("#status").region.y


async def test_at_40_columns_a_name_stays_on_one_line() -> None:
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet.build("scopone"), ("You", "Greedy 2", "Random 3", "Expert 4"), 1))
    board.apply(RoundStarted(1, 1, cards("7c 3s 4b 5d"), 0, ()))
    board.away[1] = "away, a bot in 1:52"
    app = BoardHarness(board)
    async with app.run_test(size=(40, 30)) as pilot:
        await pilot.pause()
        seats = app.board_screen.query_one("#seats", Static)
        console = Console(width=seats.size.width, record=True, file=io.StringIO())
        console.print(seats.content)
        lines = console.export_text().splitlines()
        assert any("Greedy 2" in line for line in lines), lines  # never "Greedy" over "2"
        assert any(line.startswith("You & R") for line in lines), lines  # a side's name: one line too


async def test_help_opens_with_the_tables_rules_and_closes() -> None:
    rules = RuleSet.build("scopa", capture_mode="fewest", re_bello=True)
    app = LocalGameApp(rules, ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.source  # type: ignore[attr-defined]
        assert "Fewest cards" in text and "Re bello" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)


async def test_hot_seat_hides_the_hand_until_the_next_person_is_ready() -> None:
    app = LocalGameApp(RuleSet(), ["human", "human"], seed=2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, HandOverScreen):
                break
        assert isinstance(app.screen, HandOverScreen)
        first = app.master.state.to_move
        assert app.screen.person == f"Player {first + 1}"
        await pilot.press("enter")
        await pilot.pause()
        hand = app.board_screen.query_one("#hand", CardRow)
        assert hand.cards == tuple(view(app.master.state, first).hand)
        await pilot.press("1")
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, HandOverScreen):
                break
        assert isinstance(app.screen, HandOverScreen) and app.screen.person == f"Player {2 - first}"
        assert app.board_screen.query_one("#hand", CardRow).cards == ()  # nobody's hand shows meanwhile


async def test_ctrl_c_leaves_at_once_with_status_0() -> None:
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_value == 0


async def play_until(app: LocalGameApp, pilot, stop, limit: int = 3000) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        await pilot.pause()
        if stop():
            return
        if isinstance(app.screen, (RoundEndScreen, GameOverScreen)):
            await pilot.press("enter")
        elif app.board_screen.asking:
            await pilot.press("1")
    raise AssertionError("did not get there")


async def play_turns_in(app: LocalGameApp, pilot, turns: int) -> None:  # type: ignore[no-untyped-def]
    """Play "1" at each ask until the person has been asked more than ``turns`` times (counted
    at each look), then stop at an ask."""
    asked = 0

    def far_enough() -> bool:
        nonlocal asked
        asked += app.board_screen.asking
        return app.board_screen.asking and asked > turns

    await play_until(app, pilot, far_enough)


async def test_the_round_end_waits_for_a_key_and_lists_categories_in_order_R21() -> None:
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: isinstance(app.screen, RoundEndScreen))
        text = text_of(app.screen.body)
        order = [text.index(w) for w in ("Round 1", "Cards", "Denari", "Settebello", "Primiera", "Scope",
                                          "Round points", "Left on the table")]
        assert order == sorted(order)  # the round's title first, who took the leftovers under its score
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, RoundEndScreen)  # still waiting: a person is seated
        await pilot.press("1", "3")  # a card's number typed as the last card went down: the score stays
        await pilot.pause()
        assert isinstance(app.screen, RoundEndScreen)
        await pilot.press("space")
        await pilot.pause()
        assert not isinstance(app.screen, RoundEndScreen)


async def test_a_whole_game_against_a_bot_through_the_pilot_R22() -> None:
    """To the end, then the game just played again from its end (r), step by step, said
    to "you"; q comes back to the result."""
    from scopa.client.tui.replay import ReplayScreen

    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=11, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert "watch the game again" in str(app.screen.query_one("#replay-hint", Static).render())
        await pilot.press("1", "3")  # a card's number typed as the last card went down: the result stays
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.me == 0
        replay = app.screen
        await pilot.press("l", "l")
        await pilot.pause()
        assert replay.index == 2 and replay.position_text().startswith("Round 1/")
        await pilot.press("end")
        await pilot.pause()
        assert replay.score_text().plain.splitlines()[-1].startswith(("Game over: you won", "Game over: Bot 1 (greedy) won"))
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await play_until(app, pilot, lambda: app.return_value is not None)
    state = app.master.state
    assert state.winner is not None and max(state.totals) >= 11
    assert app.result_line.startswith(("You win", "You lose"))


async def test_a_cirulla_declaration_has_the_number_after_the_hand_cards_V13() -> None:
    from scopa.engine import DeclarationKind, Declare

    app = BoardHarness(position("7c 3s", "Ad 2b 3c", RuleSet.build("cirulla")))
    async with app.run_test(size=(80, 24)) as pilot:
        legal = plays("Ad", "") + plays("2b", "") + plays("3c", "3s") + [Declare(DeclarationKind.UNDER_TEN)]
        task = await ask(app, legal)
        await pilot.pause()
        assert "4. declare under ten" in str(app.board_screen.query_one("#moves", Static).render())
        await pilot.press("4")
        await pilot.pause()
        assert task.result() == legal[3]


async def test_the_round_end_shows_each_sides_game_total_before_and_after_the_round_R21() -> None:
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: isinstance(app.screen, RoundEndScreen))
        points = app.master.state.history[0].points
        game_row = next(line for line in text_of(app.screen.body).splitlines() if "Game (to 11)" in line)
        assert [f"0 → {p}" in game_row for p in points] == [True, True], game_row


async def test_help_scrolls_with_the_arrows_and_page_down_at_once() -> None:
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: app.board_screen.asking)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.query_one("VerticalScroll")
        assert body.scroll_y == 0 and body.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        paged = body.scroll_y
        assert paged > 0
        await pilot.press("down")
        await pilot.pause()
        assert body.scroll_y > paged



async def test_the_capture_choice_hint_keeps_esc_with_its_meaning(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """At 100 columns, in English and Italian, "Esc:" is on the line of what it does."""
    from scopa.client.text import i18n

    for lang, esc in (("en", "Esc: another card"), ("it", "Esc: un'altra carta")):
        monkeypatch.setattr(i18n, "LANGUAGE", lang)
        app = BoardHarness(position("6c 2s 4b Ad", "6d Rb"))
        async with app.run_test(size=(100, 32)) as pilot:
            await ask(app, plays("6d", "6c", "2s 4b") + plays("Rb", ""))
            await pilot.press("1")
            await pilot.pause()
            assert isinstance(app.screen, CaptureChoiceScreen)
            hint = app.screen.query_one(".dialog-hint", Static)
            lines = ["".join(seg.text for seg in strip).strip() for strip in hint.render_lines(hint.region.reset_offset)]
            assert any(line.endswith(esc) for line in lines), lines
            assert not any(line.endswith("Esc:") for line in lines), lines
