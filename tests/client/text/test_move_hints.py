"""A mistyped move in the terminal: a card not in hand, or a capture the card may not make
(R13-R15), is answered with what was wrong and the nearest moves allowed — the cards in
hand, the captures of that card — in English and Italian, in the plain client and on the
Textual board."""

from __future__ import annotations

import pytest
from textual import events

from scopa.client.text import i18n, parse_choice, DeckStyle
from test_tui_local import BoardHarness, ask, plays, position

pytestmark = pytest.mark.unit

LEGAL = plays("7s", "5d 2c", "4b 3c") + plays("3b", "") + plays("Rc", "")
"""7 of Spade takes 5+2 or 4+3; the 3 of Bastoni and the king of Coppe lay down."""


def test_a_card_not_in_hand_names_the_hand() -> None:
    hint = parse_choice("7d", LEGAL)
    assert hint == "7 Den is not in your hand; you hold 7 Spa, 3 Bas, R Cop"
    assert parse_choice("7♦", LEGAL, DeckStyle.FRENCH) == "7♦ is not in your hand; you hold 7♠, 3♣, K♥"


def test_a_capture_not_allowed_names_the_ones_that_are_R14() -> None:
    hint = parse_choice("7s 6d 1c", LEGAL, DeckStyle.FRENCH)
    assert hint == "no capture of 6♦+A♣ with 7♠; allowed: 7♠ 2♥ 5♦ · 7♠ 3♥ 4♣"
    assert parse_choice("7s 2c 5d", LEGAL) == LEGAL[0]  # the order of the taken cards is free


def test_a_card_that_takes_nothing_is_said_to_be_laid_down_only_R13(monkeypatch: pytest.MonkeyPatch) -> None:
    """A capture typed with a card that can take nothing names no other capture: the one
    move left is laying it down, said in words rather than as the bare card."""
    assert parse_choice("3b 2c", LEGAL) == "3 Bas cannot take 2 Cop: it can only be laid down"
    assert parse_choice("Kh 5d 2h", LEGAL, DeckStyle.FRENCH) == "K♥ cannot take 5♦+2♥: it can only be laid down"
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert parse_choice("3b 2c", LEGAL) == "3 Bas non può prendere 2 Cop: si può solo calare"


def test_a_card_with_several_captures_lists_them_R15() -> None:
    assert parse_choice("7s", LEGAL, DeckStyle.FRENCH) == \
        "7♠ can take different sets of cards: 7♠ 2♥ 5♦ · 7♠ 3♥ 4♣; pick one by its number"


def test_the_hints_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert parse_choice("7d", LEGAL) == "7 Den non è nella tua mano; hai in mano 7 Spa, 3 Bas, R Cop"
    assert parse_choice("7s 6d", LEGAL) == "7 Spa non può prendere 6 Den; si può: 7 Spa 2 Cop 5 Den · 7 Spa 3 Cop 4 Bas"
    assert parse_choice("9", LEGAL) == "non c'è la mossa 9; scegli da 1 a 4"
    assert parse_choice("zz", LEGAL).startswith("'zz' non è una carta")


async def test_the_board_says_what_was_wrong_with_a_typed_card() -> None:
    app = BoardHarness(position("5d 2c 4b 3c", "7s 3b Rc"))
    async with app.run_test(size=(100, 30)) as pilot:
        task = await ask(app, LEGAL)
        await pilot.press("slash", *"7d", "enter")
        await pilot.pause()
        assert str(app.board_screen._status) == "7 Den is not in your hand; you hold 7 Spa, 3 Bas, R Cop"
        await pilot.press("ctrl+a", "ctrl+k", *"7s 6d", "enter")
        await pilot.pause()
        assert "allowed: 7 Spa 2 Cop 5 Den · 7 Spa 3 Cop 4 Bas" in str(app.board_screen._status)
        assert not task.done()


async def test_a_card_typed_fast_after_the_slash_is_not_lost() -> None:
    """A terminal delivers "/7s 4b 3c⏎" typed quickly (or pasted) in one read: every key
    reaches the board before the box would have opened by the slash's binding."""
    app = BoardHarness(position("5d 2c 4b 3c", "7s 3b Rc"))
    async with app.run_test(size=(100, 30)) as pilot:
        task = await ask(app, LEGAL)
        await pilot.pause()
        for key in ["slash", "7", "s", "space", "4", "b", "space", "3", "c", "enter"]:
            app.post_message(events.Key(key, " " if key == "space" else "/" if key == "slash" else
                                        None if key == "enter" else key))
        for _ in range(20):
            await pilot.pause(0.02)
            if task.done():
                break
        assert task.result() == LEGAL[1]
