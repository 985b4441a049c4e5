"""The plain client's table news and its prompt: another seat's connection dropping is said
to the person at the prompt where they think, also when the news came while the game was
still being shown and sits behind their turn in the game's order (it would otherwise be said
only after their move); said once, in its place, when the game's order reaches it first;
and never said at the lobby once the table is left."""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass

import pytest
from rich.console import Console

from scopa.client.console.prompt import LineReader
from scopa.client.console.news import TableNews
from scopa.client.game import SeatWentAway
from scopa.client.text import i18n
from scopa.protocol import Command, SeatAway

pytestmark = pytest.mark.unit

AWAY = SeatWentAway(1, "bob", 30.0)
MOVE = "La tua mossa: "


@dataclass
class Seated:
    """What the news reads of the session: the table it sits at and its seat."""

    table_id: str | None = "1"
    seat: int | None = 0


class Keyboard:
    """The person's keyboard: the prompt is printed as input() prints it, and a line is
    typed only when the test says so."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.lines: list[str] = []
        self.typed = threading.Semaphore(0)

    def read(self, prompt: object) -> str:
        self.console.print(prompt, end="")
        self.typed.acquire()
        return self.lines.pop(0)

    def type(self, line: str) -> None:
        self.lines.append(line)
        self.typed.release()


def table(seated: Seated | None = None) -> tuple[TableNews, LineReader, Keyboard, io.StringIO, Seated]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    keyboard = Keyboard(console)
    reader = LineReader(console, keyboard.read)
    session = seated or Seated()
    news = TableNews(session, reader)  # type: ignore[arg-type]
    news.sitting()
    return news, reader, keyboard, out, session


def bob_away() -> Command:
    return Command(seq=7, sender="table:1", recipient="player:ada", name="seat_away",
                   body=SeatAway(event=5, seat=1, name="bob", grace_seconds=30.0))


@pytest.fixture(autouse=True)
def italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")


def test_news_heard_before_the_move_prompt_is_said_above_it_not_after_the_move() -> None:
    news, reader, keyboard, out, _ = table()
    news.heard(bob_away())  # came while ada's client still showed the deal: her turn is before it
    assert "bob" not in out.getvalue()
    line = reader.reading(MOVE)  # her turn's prompt goes up, the news still behind it
    text = out.getvalue()
    assert "bob ha perso la connessione; il tavolo aspetta fino a 0:30." in text
    keyboard.type("1")
    assert line.result(timeout=30) == "1"
    reader.done_with(line, MOVE)
    assert out.getvalue().index("bob ha perso") < out.getvalue().index(MOVE)  # above the prompt
    assert news.said(AWAY)  # the game's order reaches it after the move: not said twice
    assert out.getvalue().count("bob ha perso") == 1


def test_news_the_game_order_reaches_first_is_said_there_once() -> None:
    news, reader, keyboard, out, _ = table()
    news.heard(bob_away())  # bob's turn: ada's game order comes to the news with no prompt up
    assert not news.said(AWAY)  # not said yet: the game's order says it
    line = reader.reading(MOVE)
    keyboard.type("1")
    assert line.result(timeout=30) == "1"
    assert "bob" not in out.getvalue()  # the next prompt does not say it again


def test_news_of_a_table_left_is_not_said_at_the_lobby_prompt() -> None:
    news, reader, keyboard, out, session = table()
    news.heard(bob_away())
    session.table_id, session.seat = None, None  # the game ended before its order came to the news
    line = reader.reading("Sala> ")
    keyboard.type("q")
    assert line.result(timeout=30) == "q"
    assert "bob" not in out.getvalue()
