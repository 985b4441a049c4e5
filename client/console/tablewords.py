"""The command words of the plain client's prompts, one table per language: the lobby's
(``LOBBY``), its ``t`` tournament commands (``TOURNAMENT``) and the move prompt's
(``TABLE``), with the answers to a yes/no question (``ANSWERS``).  A prompt takes the
words of every language, whatever the terminal speaks: the keys its lists show (``q``,
``j ID``) work in Italian too, and ``esci`` in English.

What one may type at the move prompt besides a move: ``?`` (or ``aiuto``, ``help``)
lists it all, ``!text`` (or ``chat text``, ``scrivi text``) says ``text`` to the table,
``esci`` (or ``q``, ``quit``, ``leave``) leaves the game after asking."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from rich.text import Text

from ..text import LANGS, Lang, tr

Words = Mapping[str, frozenset[str]]
"""A prompt's commands, each with the words that say it."""

LOBBY: Mapping[Lang, Words] = {
    "en": {
        "quit": frozenset({"q", "quit", "exit"}),
        "refresh": frozenset({"r", "refresh", "l", "list", ""}),
        "help": frozenset({"?", "h", "help"}),
        "play": frozenset({"p", "play", "now"}),
        "create": frozenset({"c", "create", "new"}),
        "join": frozenset({"j", "join"}),
        "watch": frozenset({"w", "watch"}),
        "tournaments": frozenset({"t", "tournament", "tournaments"}),
        "leaderboard": frozenset({"b", "board", "leaderboard"}),
    },
    "it": {
        "quit": frozenset({"esci", "fine"}),
        "refresh": frozenset({"aggiorna", "elenco", "lista"}),
        "help": frozenset({"aiuto"}),
        "play": frozenset({"gioca", "subito"}),
        "create": frozenset({"crea", "apri", "nuovo"}),
        "join": frozenset({"siediti", "entra"}),
        "watch": frozenset({"guarda"}),
        "tournaments": frozenset({"torneo", "tornei"}),
        "leaderboard": frozenset({"classifica"}),
    },
}

TOURNAMENT: Mapping[Lang, Words] = {
    "en": {
        "": frozenset({"list", "ls"}),
        "join": frozenset({"join", "j", "register"}),
        "leave": frozenset({"leave", "l"}),
        "start": frozenset({"start"}),
        "standings": frozenset({"standings", "s"}),
        "done": frozenset({"done", "d", "finished"}),
    },
    "it": {
        "": frozenset({"elenco", "lista"}),
        "join": frozenset({"iscriviti", "iscrivimi"}),
        "leave": frozenset({"ritirati", "ritirami"}),
        "start": frozenset({"inizia", "avvia"}),
        "standings": frozenset({"classifica"}),
        "done": frozenset({"finiti"}),
    },
}

TABLE: Mapping[Lang, Words] = {
    "en": {
        "help": frozenset({"?", "help"}),
        "chat": frozenset({"chat"}),
        "leave": frozenset({"leave", "q", "quit", "exit"}),
    },
    "it": {
        "help": frozenset({"aiuto"}),
        "chat": frozenset({"scrivi"}),
        "leave": frozenset({"esci"}),
    },
}

ANSWERS: Mapping[Lang, Words] = {
    "en": {"yes": frozenset({"y", "yes"}), "no": frozenset({"n", "no"})},
    "it": {"yes": frozenset({"s", "si", "sì"}), "no": frozenset({"n", "no"})},
}


def command_of(word: str, table: Mapping[Lang, Words]) -> str | None:
    """The command ``word`` says at a prompt whose words are ``table`` (in any language,
    any case); None: none of them."""
    typed = word.strip().lower()
    for lang in LANGS:
        for command, words in table[lang].items():
            if typed in words:
                return command
    return None


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
