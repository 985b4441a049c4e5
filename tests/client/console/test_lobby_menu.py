"""The plain lobby's list of commands at 80 columns: lines break between two commands,
never inside one, in English and in Italian."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from scopa.client.console.club import parse_tournament_command
from scopa.client.console.lobby import menu
from scopa.client.text import i18n

ITEMS = {
    "en": ["p play now", "c create a table", "j ID join a table", "w ID watch a table", "t tournaments",
           "b leaderboard", "r refresh", "q quit", "p scopone: play scopone now",
           "b scopone: scopone's leaderboard"],
    "it": ["p gioca subito", "c apri un tavolo", "j ID siediti a un tavolo", "w ID guarda un tavolo",
           "t tornei", "b classifica", "r aggiorna", "q esci", "p scopone: gioca subito a scopone",
           "b scopone: la classifica dello scopone"],
}

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("width", [80, 40])
def test_the_lobby_commands_wrap_between_items(monkeypatch: pytest.MonkeyPatch, language: str, width: int) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", language)
    out = Console(width=width, file=io.StringIO(), color_system=None)
    out.print(menu())
    lines = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert all(len(line) <= width for line in lines)
    assert [item for line in lines for item in line.strip().split(" · ")] == ITEMS[language]  # each whole, in order
    assert width != 80 or len(lines) == 3  # as few lines as fit


def test_the_plain_boards_head_wraps_between_items(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's first line (round, dealer, stock, rules) at 80 columns in Italian,
    with a long name dealing: whole items on each line."""
    from scopa.client.text import DeckStyle, render_view
    from scopa.engine import Phase, RuleSet, parse_cards
    from scopa.engine.view import View

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    hand = tuple(parse_cards("7b Fd Fs"))
    view = View(rules=RuleSet(), seat=0, side=0, phase=Phase.PLAY, round_no=2, dealer=1, to_move=0, hand=hand,
                table=tuple(parse_cards("2d 7s Cd Rd")), hand_sizes=(3, 3), stock_left=30, captured=((), ()),
                scope=(0, 0), scopa_cards=((), ()), totals=(3, 1), declared_hands=(), last_round=None, winner=None)
    out = Console(width=80, file=io.StringIO(), color_system=None)
    out.print(render_view(view, ["ada", "Bot 1 (medio)"], DeckStyle.ITALIAN))
    lines = [line.strip("│ ") for line in out.file.getvalue().splitlines()]  # type: ignore[attr-defined]
    assert lines[1] == "Smazzata 2  mazziere: Bot 1 (medio)  mazzo: 30"
    assert lines[2] == "regole: Scopa, 2 giocatori, a 11"


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_wrong_tournament_command_lists_the_commands_in_the_language_chosen(lang: i18n.Lang,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``t x`` at the lobby: the hint and the list of ``t`` commands in the language
    chosen when the client runs, not the one the module was imported in."""
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    said = parse_tournament_command("xyz")
    assert isinstance(said, str)
    commands = {"it": "[bold]t[/bold] tornei", "en": "[bold]t[/bold] tournaments"}[lang]
    assert commands in said, said
