"""The plain client's move prompt after a card it cannot play: the error is said, then
the prompt's hint line ("? elenca cosa puoi scrivere qui.") again, then the prompt; the
move typed next is played."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from rich.console import Console

from scopa.bots import make_bot
from scopa.client.console.human import TerminalPlayer
from scopa.client.text import i18n, parse_cards
from scopa.engine import Declare, LocalGame, Play, RuleSet, View
from scopa.engine.player import Player

pytestmark = pytest.mark.unit


class FirstTurn(Exception):
    pass


class Grab(Player):
    """The first turn of seat 0: its view and its moves."""

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        raise FirstTurn(view, list(legal))


async def test_after_a_wrong_card_the_hint_line_comes_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    with pytest.raises(FirstTurn) as grabbed:  # seed 7: seat 0 holds 2 Cop, 4 Spa, 6 Spa
        await LocalGame(RuleSet(), [Grab(), make_bot("greedy", "Bot", seed=1)], 7).run()
    view, legal = grabbed.value.args
    typed = iter(["7 Den", "xyz", "2 Cop"])
    out = io.StringIO()
    person = Console(file=out, width=80, color_system=None)
    move = await TerminalPlayer("Ada", person, input_fn=lambda prompt: next(typed)).choose(view, legal)
    assert isinstance(move, Play) and move.card == parse_cards("2c")[0]
    lines = out.getvalue().splitlines()
    hint = "? elenca cosa puoi scrivere qui."
    assert lines.count(hint) == 3, lines  # at the first prompt, and after each of the two errors
    wrong = next(i for i, line in enumerate(lines) if line.startswith("7 Den non è nella tua mano"))
    assert lines[wrong + 1] == hint, lines
    last = max(i for i, line in enumerate(lines) if line.startswith("(una carta si scrive come"))
    assert lines[last + 1] == hint, lines
