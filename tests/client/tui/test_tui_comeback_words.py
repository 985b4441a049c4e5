"""What the full-screen board says on coming back to a game (after a restart): the plays
counted as not seen are the others' and those made for the person (not the person's own,
made before the client went), and a turn whose time ran out while away is told as having
happened meanwhile ("While you were away your time ran out: the server played A Cop for you")."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from rich.text import Text

from scopa.client.text import BoardState, DeckStyle, i18n
from scopa.client.tui.online.comeback import Comeback
from scopa.engine import Forced, Played, parse_cards

pytestmark = pytest.mark.unit


def test_the_comeback_counts_only_unseen_plays_and_tells_a_timed_out_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    said: list[str | Text] = []
    comeback = Comeback(said.append, lambda: "7", DeckStyle.ITALIAN)
    board = BoardState()
    board.viewer, board.round_no = 0, 1
    screen: Any = SimpleNamespace(board=board, held=False, refresh_board=lambda: None,
                                  keep_saying=lambda text: None)
    one, seven, two = parse_cards("1d 7c 2s")
    comeback.catch_up(screen)
    comeback.missed(screen, Played(0, seven, (), False, ()))  # ada's own, before her client went
    comeback.missed(screen, Played(1, two, (), False, ()))  # bruno's
    comeback.missed(screen, Played(0, one, (), False, (), forced=True, forced_by=Forced.TIMEOUT))  # her time ran out
    comeback.caught_up(screen)
    assert [str(s) for s in said] == [
        "Di nuovo al tavolo 7, com'è adesso: le 2 giocate che non hai visto sono nell'elenco della smazzata.",
        "Mentre eri via il tuo tempo è scaduto: il server ha giocato A Den per te.",
    ]


def test_two_timed_out_turns_are_told_one_after_the_other_with_what_each_took(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    said: list[str | Text] = []
    comeback = Comeback(said.append, lambda: None, DeckStyle.ITALIAN)
    board = BoardState()
    board.viewer, board.round_no = 0, 1
    screen: Any = SimpleNamespace(board=board, held=False, refresh_board=lambda: None,
                                  keep_saying=lambda text: None)
    horse, ace_d, knave_c, ace_s = parse_cards("9s 1d 8c 1s")
    comeback.catch_up(screen)
    comeback.missed(screen, Played(0, horse, (ace_d, knave_c), False, (), forced=True, forced_by=Forced.TIMEOUT))
    comeback.missed(screen, Played(0, ace_s, (), False, (ace_s,), forced=True, forced_by=Forced.TIMEOUT))
    comeback.caught_up(screen)
    assert [str(s) for s in said] == [
        "Mentre eri via il tuo tempo è scaduto: il server ha giocato C Spa e ha preso A Den, F Cop; poi A Spa per te.",
    ]
