"""The plain client at a terminal: a chat line (or another seat's news) that arrives while
the person's move prompt waits is printed above that prompt, which stays where it is, once,
with what the person has typed at it; the prompt is not printed a second time below the
news.  The terminal is the small model of one of the time warning's test; the person's keys
are echoed into it as a terminal in line mode echoes them."""

from __future__ import annotations

import io
import threading
from typing import Any

import pytest
from rich.console import Console

from scopa.client.console.prompt import LineReader
from scopa.client.console.news import TableNews
from scopa.client.text import i18n
from scopa.protocol import ChatMessage, Command, SeatAway

from test_time_warning_typed import Terminal

pytestmark = pytest.mark.unit

TYPED = "7 sp"


class Person(Console):
    """A terminal's console whose person, at a prompt, types ``TYPED`` (no Enter) and then
    waits for the test to let them press Enter."""

    def __init__(self) -> None:
        self.screen = io.StringIO()
        super().__init__(file=self.screen, width=80, force_terminal=True, color_system=None)
        self.typed = threading.Event()
        self.enter = threading.Event()

    def input(self, prompt: Any = "", **_: Any) -> str:
        self.print(prompt, end="")
        self.screen.write(TYPED)  # the echo of what is typed so far
        self.typed.set()
        self.enter.wait(30)  # a safety deadline: the test lets Enter go once it has looked
        self.screen.write("\n")
        return TYPED


class Seated:
    table_id: str | None = "1"
    seat: int | None = 0


def news_at_the_prompt(said: Command) -> list[str]:
    """The rows of the person's terminal once ``said`` came while their move prompt waited."""
    person = Person()
    reader = LineReader(person)
    news = TableNews(Seated(), reader)  # type: ignore[arg-type]
    news.sitting()
    person.print("La tua mano: 3 Spa  4 Cop  F Den")
    prompt = i18n.tr("Your move: ")
    line = reader.reading(prompt)
    assert person.typed.wait(30)
    news.heard(said)
    screen = Terminal()
    screen.feed(person.screen.getvalue())
    person.enter.set()
    assert line.result(timeout=30) == TYPED
    reader.done_with(line, prompt)
    return screen.lines()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_chat_line_goes_above_the_waiting_prompt(monkeypatch: pytest.MonkeyPatch, lang: i18n.Lang) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    rows = news_at_the_prompt(Command(seq=9, sender="table:1", recipient="player:ada", name="chat_message",
                                      body=ChatMessage(author="player:bea", text="ciao nonna")))
    assert rows == ["La tua mano: 3 Spa  4 Cop  F Den", "bea: ciao nonna", i18n.tr("Your move: ") + TYPED], rows


def test_another_seat_going_away_goes_above_the_waiting_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    rows = news_at_the_prompt(Command(seq=7, sender="table:1", recipient="player:ada", name="seat_away",
                                      body=SeatAway(event=5, seat=1, name="bob", grace_seconds=30.0)))
    assert rows[0] == "La tua mano: 3 Spa  4 Cop  F Den" and rows[-1] == "La tua mossa: " + TYPED, rows
    assert sum(row.startswith("La tua mossa") for row in rows) == 1, rows
