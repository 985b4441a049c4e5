"""The Italian both clients show for what the server and the engine say: one file,
``catalog_it.json`` beside this module, read here for the terminal and bundled by esbuild
into the browser's page (client/web/src/i18n.ts imports it).  It holds the Italian of
every server error code, of every reason the engine gives for refusing a move (an English
template and its Italian, with the same ``{names}``), of the table options, their values
the settings of a table's description, and the words the server sends for why a game
ended or a seat left and how a table stands."""

from __future__ import annotations

import json
import re
import string
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import NamedTuple

from . import i18n


class Catalog(NamedTuple):
    errors: dict[str, str]
    refusals: dict[str, str]
    options: dict[str, tuple[str, str]]
    values: dict[str, str]
    settings: dict[str, str]
    words: dict[str, tuple[str, str]]
    rules: dict[str, str]


@cache
def catalog() -> Catalog:
    """The shared catalog, read once."""
    data = json.loads(files("scopa.client.text").joinpath("catalog_it.json").read_text(encoding="utf-8"))
    options = {name: (pair[0], pair[1]) for name, pair in data["options"].items()}
    words = {word: (pair[0], pair[1]) for word, pair in data["words"].items()}
    return Catalog(data["errors"], data["refusals"], options, data["values"], data["settings"], words, data["rules"])


def _pattern(template: str) -> re.Pattern[str]:
    """``template``'s English as a regular expression: each ``{name}`` a group."""
    parts = []
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field:
            parts.append(f"(?P<{field}>.*?)")
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


@cache
def _patterns(section: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    table: dict[str, str] = getattr(catalog(), section)
    return tuple((_pattern(english), italian) for english, italian in table.items())


def translate(text: str, section: str) -> str | None:
    """``text`` (English filled from one of ``section``'s templates) in Italian, or None
    when no template of the section made it."""
    for pattern, italian in _patterns(section):
        found = pattern.match(text)
        if found is not None:
            values = {k: catalog().values.get(v, v) for k, v in found.groupdict().items()}
            return italian.format(**values)
    return None


def reason_text(reason: object) -> str:
    """Why the engine refused a move, in the terminal's language."""
    text = str(reason)
    if i18n.LANGUAGE != "it":
        return text
    return translate(text, "refusals") or text


def rules_problem_text(text: str) -> str:
    """Why a table's rules do not work (the engine's reasons, ``; ``-joined) in the
    terminal's language; a reason the catalog does not know stays as it came."""
    if i18n.LANGUAGE != "it":
        return text
    said, rest = [], text
    while rest:
        for english, italian in catalog().rules.items():
            found = re.match(_pattern(english).pattern.removesuffix(r"\Z") + r"(?:; |\Z)", rest, re.DOTALL)
            if found is not None:
                said.append(italian.format(**found.groupdict()))
                rest = rest[found.end():]
                break
        else:
            said.append(rest)
            break
    return "; ".join(said)


def error_text(code: str, message: str) -> str:
    """A refusal of the server in the terminal's language: the engine's reason when the
    server passed one on, else what the error's code means (its message in English)."""
    if i18n.LANGUAGE != "it":
        return message
    return translate(message, "refusals") or catalog().errors.get(str(code), message)


def word_text(word: str) -> str:
    """A word the server sends (why a game ended or a seat left the table, why a move was
    played for a seat, how a table stands) in the terminal's language; a word the catalog
    does not know (a later server's) as it came."""
    pair = catalog().words.get(str(word))
    if pair is None:
        return str(word)
    return pair[1] if i18n.LANGUAGE == "it" else pair[0]


def log_text(template: str, args: object) -> tuple[str, object]:
    """A line of the server's text log (its ``%``-template and arguments) in the terminal's
    language: the Italian template of ``LOG_ITALIAN``, a reason put in (a word's English,
    "two seats were played from one address") in Italian too, a person as their name (not
    ``player:ada``), the rules in words; as it came otherwise.  Seats and sides are counted
    from 1 (``LOG_COUNTED``), as the clients count them, in either language."""
    from .clubwords import LOG_COUNTED, LOG_ITALIAN, LOG_REASON, LOG_RULES, LOG_WORDS

    if not isinstance(args, tuple):
        return template, args
    counted = LOG_COUNTED.get(template, ())
    args = tuple(a + 1 if i in counted and isinstance(a, int) and not isinstance(a, bool) else a
                 for i, a in enumerate(args))
    italian = LOG_ITALIAN.get(template) if i18n.LANGUAGE == "it" else None
    if italian is None:
        return template, args
    words = {**{english: it for english, it in catalog().words.values()}, **LOG_WORDS}
    said = [words.get(a, a) if isinstance(a, str) else a for a in args]
    said = [a.removeprefix("player:") if isinstance(a, str) and a.startswith("player:") else a for a in said]
    at = LOG_RULES.get(template)
    described = said[at] if at is not None and len(said) > at else None
    if at is not None and isinstance(described, str):
        said[at] = _rules_it(described)
    if template == LOG_REASON and said and isinstance(said[-1], str) and said[-1] in catalog().words:
        said[-1] = catalog().words[said[-1]][1]
    return italian, tuple(said)


def _rules_it(described: str) -> str:
    """A table's rules as ``RuleSet.describe`` gives them ("scopa, 2p, to 11"), in Italian."""
    preset, *settings = described.split(", ")
    return ", ".join([preset, *(settings_it(part) for part in settings)])


def settings_it(part: str) -> str:
    """One item of a table's settings in Italian: ``2p`` ``2 giocatori``, ``to 11`` ``a 11``."""
    words = part.split()
    if part.endswith("p") and part[:-1].isdigit():
        return i18n.tr("{n} players", n=part[:-1])
    if words[0] == "to":
        return i18n.tr("to {n}", n=words[1])
    if words[0].endswith("p") and words[1:] == ["teams"]:
        return i18n.tr("{n} players in teams", n=words[0][:-1])
    return setting_text(part)


def catalog_value(value: str) -> str:
    """A table option's value (``traditional``, ``fewest`` …) in the terminal's language."""
    if i18n.LANGUAGE != "it":
        return value
    return catalog().values.get(value, value)


def setting_text(part: str) -> str:
    """One item of a table's settings (as ``RuleSet.describe`` lists them) in the
    terminal's language."""
    if i18n.LANGUAGE != "it":
        return part
    return translate(part, "settings") or part


_SERVER_BOT = re.compile(r"([a-z][a-z0-9_]*)-bot-(\d+)\Z")
"""The name a server gives its own bots (``greedy-bot-1``: strategy, seat), which no
person can take."""
_LEVELS = ("easy", "medium", "hard")
"""The levels a person chooses bots by (scopa.bots.LEVELS)."""
_BOT_LEVELS = {"random": "easy", "easy": "easy", "greedy": "medium", "medium": "medium", "expert": "hard",
               "hard": "hard"}


def is_server_bot(name: str) -> bool:
    """Whether ``name`` is one a server gives its own bots."""
    return _SERVER_BOT.match(name) is not None


def seated_name(name: str, bot_plays: bool) -> str:
    """A seat's name in a table list: a server's bot in words; a person's seat a bot plays
    on (``bot_plays``), "nipote (bot)", as the browser lists it."""
    return i18n.tr("{name} (bot)", name=name) if bot_plays and not is_server_bot(name) else player_name(name)


def local_bot_name(kind: str, number: int) -> str:
    """A built-in bot seated on this machine, numbered as a server numbers its own and
    named by the kind the person chose (the ``number``-th ``greedy`` bot: "Bot 1 (greedy)",
    in Italian "Bot 1 (avido)"); a user's bot class by its class."""
    if ":" in kind:
        return f"{kind.rpartition(':')[2]} {number}"
    return i18n.tr("Bot {n} ({level})", n=number, level=strategy_text(kind))


def strategy_text(kind: str) -> str:
    """A built-in bot's kind as a person chose it (``--seats``), in the terminal's
    language where it has a word: a level as every client names it ("medio"), ``random``,
    ``greedy`` and ``expert`` in words ("casuale", "avido", "esperto"); any other kind by
    its own name ("chitarella")."""
    if kind in _LEVELS:
        return level_text(kind)
    words = {"random": i18n.tr("random"), "greedy": i18n.tr("greedy"), "expert": i18n.tr("expert")}
    return words.get(kind, kind)


def person_name(names: Sequence[str], person: int, seat: int, many: bool) -> str:
    """The name of the ``person``-th person at a local table (at ``seat``): the one given,
    else "You" alone, or "Player N" (the seat's number) among several."""
    if person < len(names):
        return names[person]
    return i18n.tr("Player {n}", n=seat + 1) if many else i18n.tr("You")


def level_text(strategy: str) -> str:
    """A built-in bot's level in the terminal's language, as every client names it
    ("medium", in Italian "medio"; ``greedy`` is medium too); a strategy of no level by
    its own name."""
    level = _BOT_LEVELS.get(strategy)
    if level == "easy":
        return i18n.tr("easy")
    if level == "medium":
        return i18n.tr("medium")
    if level == "hard":
        return i18n.tr("hard")
    return strategy


def level_named(word: str) -> str | None:
    """The level (``easy``, ``medium``, ``hard``) ``word`` names, in the terminal's
    language or in English ("medio" and "medium": ``medium``); None if it names none."""
    word = word.strip().lower()
    return next((level for level in _LEVELS if word in (level, level_text(level).lower())), None)


def player_name(name: str, short: bool = False) -> str:
    """A player's name as the clients show it: a server's bot in words, as the browser
    names it (``greedy-bot-1`` is "Bot 1 (medium)", in Italian "Bot 1 (medio)"; ``short``:
    "Bot 1"); any other name as it is."""
    found = _SERVER_BOT.match(name)
    if found is None:
        return name
    if short:
        return i18n.tr("Bot {n}", n=found[2])
    return i18n.tr("Bot {n} ({level})", n=found[2], level=level_text(found[1]))
