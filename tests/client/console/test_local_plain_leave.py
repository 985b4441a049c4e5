"""`scopa local --plain`: at the move prompt ``esci`` (or ``q``) leaves the game after a
question, as the full-screen client's ``q`` and ``scopa play --plain``'s ``esci`` do
(Enter there is no).  The person types at a scripted keyboard; the game runs in this
process."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from scopa.client.console import run_local_game
from scopa.client.text import i18n
from scopa.engine import RuleSet

pytestmark = pytest.mark.unit


class Keyboard(Console):
    """A console whose person types ``lines``, one at each prompt, then closes the input
    (Ctrl+D: a game still asking for a move ends with EOFError)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(file=io.StringIO(), width=100, force_terminal=False)
        self.lines = lines

    def input(self, prompt: Any = "", **_: Any) -> str:
        self.print(prompt, end="")
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.print(line)
        return line


@pytest.mark.parametrize("lang, typed, stay, leave", [
    ("it", ["esci", "", "q", "s"], "Resti al tavolo", "Partita lasciata."),
    ("en", ["quit", "n", "leave", "y"], "You stay at the table", "Game left."),
])
async def test_the_person_leaves_a_local_game_after_a_question(monkeypatch: pytest.MonkeyPatch, lang: i18n.Lang,
                                                               typed: list[str], stay: str, leave: str) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    keyboard = Keyboard(typed)
    record = await run_local_game(RuleSet(), ["human", "greedy"], seed=7, console=keyboard, names=["Ada"])
    said = keyboard.file.getvalue()  # type: ignore[attr-defined]
    question = i18n.tr("Leave the game? It ends here: a local game is not kept.")
    assert said.count(question) == 2 and stay in said and leave in said, said[-600:]
    assert record is None and not keyboard.lines
    assert said.index(stay) < said.rindex(question) < said.index(leave)
