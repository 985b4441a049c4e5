"""The plain client's "0:10 left" at a move prompt where the person is typing: the warning
goes above the prompt's line, and what was typed stays there, the rest of the move typed
after it on the same line ("La tua mossa: 2 Cop"), not split by the warning.

The terminal is a small model of one (the few controls a terminal obeys that the client
writes: carriage return, new line, the cursor saved and restored, a line inserted, the
cursor down, index and reverse index); the person's keys are echoed into it as a
terminal in line mode echoes them."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console

from scopa.bots import make_bot
from scopa.client.console.human import TerminalPlayer
from scopa.client.text import i18n, parse_cards
from scopa.engine import Declare, LocalGame, Play, RuleSet, View
from scopa.engine.player import Player

pytestmark = pytest.mark.unit

CONTROL = re.compile(r"\x1b\[(\d*)([A-Za-z])|\x1b([78DM])|([\r\n])|([^\x1b\r\n])")


class Terminal:
    """``width`` × ``height`` cells; ``feed`` writes to it as a terminal does."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.width, self.height = width, height
        self.rows = [[" "] * width for _ in range(height)]
        self.row = self.col = 0
        self.saved = (0, 0)

    def _down(self) -> None:
        if self.row == self.height - 1:
            self.rows = self.rows[1:] + [[" "] * self.width]
        else:
            self.row += 1

    def feed(self, text: str) -> None:
        for n, csi, esc, newline, char in CONTROL.findall(text):
            count = int(n or 1)
            if csi == "L":
                for _ in range(count):
                    self.rows.insert(self.row, [" "] * self.width)
                    self.rows.pop()
                self.col = 0
            elif csi == "B":
                self.row = min(self.height - 1, self.row + count)
            elif csi == "K":
                self.rows[self.row][self.col:] = [" "] * (self.width - self.col)
            elif esc == "7":
                self.saved = (self.row, self.col)
            elif esc == "8":
                self.row, self.col = self.saved
            elif esc == "D":
                self._down()
            elif esc == "M":
                self.row = max(0, self.row - 1)
            elif newline == "\r":
                self.col = 0
            elif newline == "\n":  # a terminal's output turns a new line into carriage return + line feed
                self.col = 0
                self._down()
            elif char:
                if self.col == self.width:
                    self.col = 0
                    self._down()
                self.rows[self.row][self.col] = char
                self.col += 1

    def lines(self) -> list[str]:
        return ["".join(r).rstrip() for r in self.rows if "".join(r).strip()]


class FirstTurn(Exception):
    pass


class Grab(Player):
    """The first turn of seat 0: its view and its moves."""

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        raise FirstTurn(view, list(legal))


class Screen(io.StringIO):
    """What the client writes to the terminal; ``shown`` is set once ``words`` are written."""

    def __init__(self, words: str) -> None:
        super().__init__()
        self.words = words
        self.shown = threading.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        if self.words in self.getvalue():
            self.shown.set()
        return written


class Person(Console):
    """A terminal's console whose person types ``before`` at the move prompt, waits for the
    warning, then types ``after`` and Enter; the keys are echoed as the terminal does."""

    def __init__(self, before: str, after: str, warning: str) -> None:
        self.screen = Screen(warning)
        super().__init__(file=self.screen, width=80, force_terminal=True, color_system=None)
        self.before, self.after = before, after
        self.typed = threading.Event()

    def input(self, prompt: Any = "", **_: Any) -> str:
        self.print(prompt, end="")
        self.screen.write(self.before)  # the echo of what is typed so far
        self.typed.set()
        self.screen.shown.wait(30)  # a safety deadline: the warning comes first
        self.screen.write(self.after + "\n")
        return self.before + self.after


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_ten_second_warning_leaves_the_typed_move_whole(monkeypatch: pytest.MonkeyPatch,
                                                                  lang: i18n.Lang) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    with pytest.raises(FirstTurn) as grabbed:  # seed 7: seat 0 holds 2 Cop, 4 Spa, 6 Spa
        await LocalGame(RuleSet(), [Grab(), make_bot("greedy", "Bot", seed=1)], 7).run()
    view, legal = grabbed.value.args
    warning = i18n.tr("{time} left, then the server plays for you.", time="0:10")
    warning = warning[:1].upper() + warning[1:]  # a line of its own
    person = Person("2 C", "op", warning)
    calls = 0

    def time_left() -> int:
        """12 s when the turn is told, then 10: the warning, once the person has typed."""
        nonlocal calls
        calls += 1
        if calls > 2:
            person.typed.wait(30)
        return 12 if calls == 1 else 10

    move = await TerminalPlayer("Ada", person, time_left=time_left).choose(view, legal)
    assert move in legal and isinstance(move, Play) and move.card == parse_cards("2c")[0]
    screen = Terminal()
    screen.feed(person.screen.getvalue())
    rows = screen.lines()
    assert rows[-2] == warning and rows[-1] == i18n.tr("Your move: ") + "2 Cop", rows[-6:]
