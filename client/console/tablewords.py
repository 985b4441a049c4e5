"""What one may type at the plain client's move prompt besides a move: ``?`` (or
``aiuto``, ``help``) lists it all, ``!text`` (or ``chat text``, ``scrivi text``) says ``text``
to the table, ``esci`` (or ``q``, ``quit``, ``leave``) leaves the game after asking.  Either
language's word works whatever the terminal speaks (:data:`.words.TABLE`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from rich.text import Text

from ..text import tr
from .words import ANSWERS, TABLE, command_of


@dataclass(frozen=True)
class TableLine:
    """A line typed at the move prompt that is no move: ``kind`` is ``help``, ``chat``
    (``text``: what to say) or ``leave``."""

    kind: str
    text: str = ""


def table_line(line: str) -> TableLine | None:
    """``line`` as one of the prompt's commands; None: it is meant as a move."""
    typed = line.strip()
    if typed.startswith("!"):
        return TableLine("chat", typed[1:].strip())
    word, _, rest = typed.partition(" ")
    command = command_of(word, TABLE)
    if command == "help":
        return TableLine("help")
    if command == "chat":
        return TableLine("chat", rest.strip())
    if command == "leave" and not rest.strip():
        return TableLine("leave")
    return None


def prompt_help(chat: bool, leave: bool) -> Text:
    """What one can type at the move prompt (the chat and leaving when this game has them)."""
    lines = [tr("At the prompt you can type:"),
             "  " + tr("a move's number, or its card as shown (7d, 7 Den): play it"),
             "  " + tr("? or aiuto: this list")]
    if chat:
        lines.append("  " + tr("!text or chat text: say text to the table"))
    if leave:
        lines.append("  " + tr("esci or q: leave the game (you are asked first)"))
    lines.append("  " + tr("Ctrl+C: close the client at once"))
    return Text("\n".join(lines), style="cyan")


Chat = Callable[[str], Awaitable[None]]
"""Says a line to the people at the table."""


@dataclass(frozen=True)
class Leaving:
    """How a network game is left: ``question`` asks first (what leaving does there),
    ``leave`` does it (the game's end then ends the turn)."""

    question: Callable[[], str]
    leave: Callable[[], None]


def is_yes(answer: str) -> bool:
    """``s``/``sì`` or ``y``/``yes``: anything else (Enter too) is no."""
    return command_of(answer, ANSWERS) == "yes"


def example_whole(hint: str, width: int) -> str:
    """A hint longer than the line breaks before its example in brackets (``(… 7d 3c 4s)``),
    so that the example is read whole rather than split at the line's end."""
    head, bracket, example = hint.rpartition(" (")
    return f"{head}\n({example}" if bracket and len(hint) > width and len(example) < width else hint
