"""The plain lobby's form that opens a table: the game and its rules, whether the table
is private, its turn timer, the bots for the empty seats.  Each question is asked
again alone when its answer does not do, with the reason in the person's language."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text

from scopa.bots import LEVELS, STRATEGIES
from scopa.engine import Preset, RuleSet, RuleSetError

from ..text import tr, catalog_value, coerce, level_named, level_text, rules_line, rules_problem_text
from ..text import NONE_WORDS, NO_TIMER, parse_timer, timer_choices, timer_range
from .prompt import LineReader
from .tablewords import ANSWERS, command_of

__all__ = ["NewTable", "TableForm", "levels_listed", "parse_bots", "parse_options"]

TABLE_SETTINGS = frozenset({"turn_timeout", "private", "no_turn_timer", "bot_takeover"})
"""The table's own settings (not rules of the game): the form asks for the ones it offers."""


@dataclass(frozen=True)
class NewTable:
    """What the form asks the server for: the rules, and the table's own settings."""

    rules: RuleSet
    private: bool = False
    turn_timeout: float | None = None  # None: the server's own
    no_turn_timer: bool = False


def levels_listed() -> str:
    """The bot levels a person chooses from, in the terminal's language ("easy, medium, hard")."""
    return ", ".join(level_text(level) for level in LEVELS)


def parse_bots(text: str, empty_seats: int) -> list[str] | str:
    """``medium`` fills every empty seat; ``easy,hard`` one bot per name; a hint if bad.
    A level is typed in the terminal's language or in English (any built-in bot by its
    own name too)."""
    names = [n.strip().lower() for n in text.replace(" ", ",").split(",") if n.strip()]
    if len(names) == 1 and names[0] in NONE_WORDS:
        return []
    names = [level_named(n) or n for n in names]
    bad = [n for n in names if n not in STRATEGIES]
    if bad:
        return tr("{name} is not a bot; choose from: {bots} (or leave it blank)", name=repr(bad[0]),
                  bots=levels_listed())
    if len(names) == 1:
        return names * empty_seats
    if len(names) > empty_seats:
        if empty_seats == 1:
            return tr("only 1 seat to fill, {n} bots named", n=len(names))
        return tr("only {seats} seats to fill, {n} bots named", seats=empty_seats, n=len(names))
    return names


def parse_options(text: str) -> dict[str, object] | str:
    """``re_bello=true napola=on`` → options; a hint if a word is not NAME=VALUE, or names
    no option of the rules (a table's own setting: the form's next questions)."""
    options: dict[str, object] = {}
    for item in text.replace(",", " ").split():
        if "=" not in item:
            return tr("options are NAME=VALUE, e.g. re_bello=true; {item} is not", item=repr(item))
        key, value = item.split("=", 1)
        key = key.strip().replace("-", "_")
        if key in TABLE_SETTINGS:
            return tr("{name} is not a rule of the game: whether the table is private and its turn timer are the "
                      "next questions", name=key)
        if key not in RuleSet.model_fields:
            return tr("{name} is not an option of the rules (scopa options lists them)", name=key)
        options[key] = coerce(value.strip())
    return options


class TableForm:
    """The questions, asked at ``reader``'s prompt; ``server_timer``: the longest turn
    timer the server allows (its own; None: not told)."""

    def __init__(self, reader: LineReader, defaults: RuleSet, server_timer: float | None = None) -> None:
        self.reader = reader
        self.defaults = defaults
        self.server_timer = server_timer

    def say(self, text: str, style: str = "") -> None:
        self.reader.say(Text(text, style=style))

    async def ask(self, prompt: str) -> str:
        return (await self.reader.ask(prompt)).strip()

    async def table(self) -> NewTable:
        """The rules, then the table's own settings."""
        rules = await self.rules()
        private = await self.private()
        timer = await self.timer(private)
        return NewTable(rules, private, timer if isinstance(timer, float) else None, timer == NO_TIMER)

    async def rules(self) -> RuleSet:
        d = self.defaults
        presets = ", ".join(p.value for p in Preset)
        while True:
            self.say(tr("Games: {presets}", presets=presets), style="dim")  # above a prompt that fits a line
            preset = await self.ask(tr("Game [{default}]: ", default=d.preset.value if d.preset else "scopa"))
            preset = preset.lower() or (d.preset.value if d.preset else "scopa")
            base = self._build(preset, {})
            if isinstance(base, str):
                self.say(base, style="yellow")
                continue
            if base.preset != d.preset:
                d = base  # a new preset: its own players and target are the defaults now
            # Options given on the command line (-o …) stay, unless the preset changed.
            carried = {k: v for k, v in d.model_dump().items() if v != getattr(base, k) and k != "preset"}
            options: dict[str, object] = dict(carried)
            for field, choices in (("players", (2, 3, 4, 6)), ("target", (11, 16, 21, 31, 51))):
                options[field] = await self._ask_choice(tr(field.capitalize()), choices, getattr(d, field))
            modes = ("traditional", "fewest", "free")
            options["capture_mode"] = await self._ask_choice(tr("Capture mode"), modes, d.capture_mode.value,
                                                             shown=catalog_value)
            chosen = self._build(preset, options)
            if isinstance(chosen, str):  # the choices themselves do not go together: from the game again
                self.say(tr("Those rules do not work: {reason}", reason=chosen), style="yellow")
                self.say(tr("Let's try again."))
                continue
            rules = await self._more_options(preset, options)
            self.say(tr("Rules: {rules}", rules=rules_line(rules)))
            return rules

    async def _more_options(self, preset: str, options: dict[str, object]) -> RuleSet:
        """The options beyond the ones asked, typed as NAME=VALUE; asked again alone until
        the rules they make work."""
        while True:
            extra = await self.ask(tr("Other options (NAME=VALUE …, e.g. re_bello=true) [none]: "))
            parsed = parse_options(extra)
            rules = parsed if isinstance(parsed, str) else self._build(preset, {**options, **parsed})
            if isinstance(rules, RuleSet):
                return rules
            self.say(tr("Those rules do not work: {reason}", reason=rules), style="yellow")

    async def private(self) -> bool:
        """Whether the table is private: not listed, joined with its invite."""
        self.say(tr("A private table is not listed in the lobby: you get an invite to pass on."), style="dim")
        while True:
            typed = await self.ask(tr("Private table? (y/n) [n]: "))
            answer = command_of(typed, ANSWERS) if typed else "no"
            if answer is not None:
                return answer == "yes"
            self.say(tr("answer y (yes) or n (no)"), style="yellow")

    async def timer(self, private: bool) -> str | float:
        """The turn timer: the server's own (``SERVER_TIMER``), seconds, or ``NO_TIMER`` (a
        private table's)."""
        server = self.server_timer
        (own, _), *offered, _ = timer_choices(server)
        shorter = ", ".join(name for name, _ in offered)
        said = tr("Time per move: {range}", range=timer_range(server))
        said += f" ({tr('e.g. {times}', times=shorter)})" if shorter else ""
        said += f"; {tr('none: no timer at all')}" if private else ""
        self.say(said, style="dim")
        while True:
            answer = parse_timer(await self.ask(tr("Time per move [{default}]: ", default=own)), server, private)
            if not isinstance(answer, tuple):
                return answer
            self.say(answer[0], style="yellow")

    async def _ask_choice(self, label: str, choices: Sequence[object], default: object,
                          shown: Callable[[str], str] = str) -> object:
        """One of ``choices`` (each shown as ``shown`` says, in the terminal's language,
        and taken typed either way); Enter takes ``default``."""
        words = {shown(str(c)).lower(): c for c in choices}
        listed = ", ".join(shown(str(c)) for c in choices)
        while True:
            answer = await self.ask(f"{label} ({listed}) [{shown(str(default))}]: ")
            if not answer:
                return default
            if answer.lower() in words:
                return words[answer.lower()]
            value = coerce(answer.lower())
            if value in choices:
                return value
            self.say(tr("choose one of {choices}, or Enter for {default}", choices=listed,
                        default=shown(str(default))), style="yellow")

    @staticmethod
    def _build(preset: str, options: dict[str, object]) -> RuleSet | str:
        try:
            return RuleSet.build(preset, **options)
        except RuleSetError as exc:
            return rules_problem_text(str(exc))

    async def bots(self, empty_seats: int) -> list[str]:
        while True:
            said = tr("Bot for the other seat: {bots}; blank = wait for a person.", bots=levels_listed()) \
                if empty_seats == 1 else tr("Bots for the {n} other seats: {bots}; one name fills them all; blank = "
                                            "wait for people.", n=empty_seats, bots=levels_listed())
            self.say(said, style="dim")
            bots = parse_bots(await self.ask(tr("Bots [none]: ")), empty_seats)
            if isinstance(bots, str):
                self.say(bots, style="yellow")
                continue
            return bots

