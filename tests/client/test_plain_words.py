"""Italian words of the terminal clients: a seat a bot took over is "ada (bot)" in the plain
lobby's list (as the browser and the full-screen lobby list it); the create form's bots for
one other seat speak of "l'altro posto" (no "posto/i"); a card laid on the table is "Cali
F Spa in tavola" on the full-screen board."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from scopa.client.console.lobby import Lobby, render_tables
from scopa.client.console.tableform import TableForm
from scopa.client.text import BoardState, DeckStyle, i18n
from scopa.client.tui.text import event_text
from scopa.engine import GameStarted, Played, RuleSet, parse_cards
from scopa.protocol import TableInfo, TableState
from scopa.protocol.convert import rules_to_wire

pytestmark = pytest.mark.unit


def test_a_seat_a_bot_plays_is_listed_with_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    rules = RuleSet()
    info = TableInfo(id="1", rules=rules_to_wire(rules), description=rules.describe(), seats=["ada", "bea"],
                     state=TableState.PLAYING, bots=[0])
    out = io.StringIO()
    Console(file=out, width=300).print(render_tables([info]))
    assert "ada (bot), bea" in out.getvalue(), out.getvalue()


def test_the_bots_for_one_other_seat_are_asked_in_the_singular(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    said: list[str] = []

    class Reader:
        async def ask(self, prompt: str) -> str:
            return ""

    form = TableForm(Reader(), RuleSet())  # type: ignore[arg-type]
    form.say = lambda text, style="": said.append(str(text))  # type: ignore[method-assign]
    import asyncio
    assert asyncio.run(form.bots(1)) == []
    assert said and said[0].startswith("Bot per l'altro posto: ") and "posto/i" not in said[0], said


def test_a_card_laid_on_the_table_is_said_as_laid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet(), ("ada", "bea"), 1))
    card = parse_cards("Js")[0]
    mine = event_text(Played(0, card, (), False, ()), board, DeckStyle.ITALIAN)  # type: ignore[call-arg]
    theirs = event_text(Played(1, card, (), False, ()), board, DeckStyle.ITALIAN)  # type: ignore[call-arg]
    assert mine is not None and mine.plain == "Cali in tavola: F Spa", mine
    assert theirs is not None and theirs.plain == "bea cala in tavola: F Spa", theirs


def test_leaving_as_the_last_person_at_the_table_says_the_game_ends_for_everyone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """bruno left (a bot plays his seat), then ada types esci: the server ends the game for
    everyone (PROTOCOL.md ``leave_table``), and the question says so, not "a bot plays your
    seat" nor a hedge."""
    from types import SimpleNamespace
    from typing import Any

    from scopa.client.console.human import TerminalPlayer

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    rules = RuleSet()
    table = TableInfo(id="1", rules=rules_to_wire(rules), description=rules.describe(), seats=["ada", "bruno"],
                      state=TableState.PLAYING, bots=[1])
    for info in (table, None):  # the table's takeover known, or not
        player = TerminalPlayer("ada", console=Console(file=io.StringIO()), input_fn=lambda _: "")
        player.names, player.seat = ("ada", "bruno"), 0
        player.board.names = ("ada", "bruno")  # the seats' own names, as the game's start gives them
        player.bot_plays(1)
        lobby: Any = SimpleNamespace(session=SimpleNamespace(table_id="1"), seats=None)
        Lobby._table_words(lobby, player, info, None)  # not known to be a quick game
        assert player.leaving is not None
        assert player.leaving.question() == "Lasci la partita? Sei l'ultima persona al tavolo: la partita finisce " \
            "subito per tutti, senza vincitore."
