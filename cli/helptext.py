"""The `scopa` command's help in the terminal's language: its usage, descriptions,
group titles and option help (the English written beside each option, looked up in the
one Italian catalog, :data:`scopa.client.text.ITALIAN`), and argparse's own words
("usage:", "options", its errors).  The language is the one the rest of the command
speaks: ``--lang`` when the command line has it, else the locale."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence

from scopa.client.text import ITALIAN, current_language, set_language


def _said(text: str) -> str:
    """``text`` (English) in the terminal's language; a string without Italian stays as it is."""
    return ITALIAN.get(text, text) if current_language() == "it" else text


def _said_n(singular: str, plural: str, n: int) -> str:
    return _said(singular if n == 1 else plural)


def take_language(argv: Sequence[str]) -> None:
    """Speak the ``--lang`` of ``argv`` (``--lang it`` or ``--lang=it``), if it has one, from
    now on: its help and its errors are read before the command line is parsed."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg[len("--lang="):] \
            if arg.startswith("--lang=") else None
        if value in ("en", "it"):
            set_language("it" if value == "it" else "en")


def speak_argparse() -> None:
    """argparse's own words ("usage:", "options", "unrecognized arguments: …") in the
    terminal's language: argparse reads them through gettext's names, ``_`` and ``ngettext``."""
    setattr(argparse, "_", _said)
    setattr(argparse, "ngettext", _said_n)


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every subcommand's parser under it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from parsers(sub)


def translate(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser``'s description, group titles, every option's and subcommand's help and
    every placeholder (``NAME``: ``NOME``, as the help texts write it) in the terminal's
    language; ``parser``."""
    for p in parsers(parser):
        p.description = _said(p.description) if p.description else p.description
        for group in p._action_groups:
            group.title = _said(group.title) if group.title else group.title
        for action in p._actions:
            if action.help and action.help is not argparse.SUPPRESS:
                action.help = _said(action.help)
            _placeholder(action)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    choice.help = _said(choice.help) if choice.help else choice.help
    return parser


def _placeholder(action: argparse.Action) -> None:
    """The value ``action`` takes as the usage and the help show it, in the terminal's
    language (an option's own name, ``--seed SEED``, when it has none of its own; a list
    of choices stays as it is)."""
    if action.metavar is None and (action.choices is not None or action.nargs == 0 or not action.option_strings):
        return
    if isinstance(action.metavar, tuple):
        action.metavar = tuple(_said(m) for m in action.metavar)
    else:
        action.metavar = _said(action.metavar if action.metavar is not None else action.dest.upper())


ARGPARSE_WORDS: tuple[str, ...] = (
    "usage: ", "positional arguments", "options", "show this help message and exit",
    "unrecognized arguments: %s", "the following arguments are required: %s",
    "invalid choice: %(value)r (choose from %(choices)s)", "argument %(argument_name)s: %(message)s",
    "%(prog)s: error: %(message)s\n", "expected one argument", "invalid %(type)s value: %(value)r",
    "ambiguous option: %(option)s could match %(matches)s", "one of the arguments %s is required",
    "not allowed with argument %s", "expected at least one argument", "expected at most one argument")
"""The words of argparse a person reads (each has its Italian in the catalog)."""
