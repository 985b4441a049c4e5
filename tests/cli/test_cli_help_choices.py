"""An option that takes one of a few words (``--capture-mode {traditional,fewest,free}``)
has each word explained in its help, in the help's language: under an Italian locale a
person reads what ``traditional``, ``fewest`` and ``free`` mean, in Italian, for every
option of every command (numbers, such as ``--players {2,3,4,6}``, speak for themselves)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

import pytest

from scopa.cli import build_parser, helptext
from scopa.client.text import i18n

from paths import ROOT

pytestmark = pytest.mark.unit


def _unexplained(lang: i18n.Lang) -> list[str]:
    """``command --option value`` for each word an option takes that its help does not name."""
    i18n.set_language(lang)
    helptext.speak_argparse()
    missing = []
    for p in helptext.parsers(helptext.translate(build_parser())):
        for action in p._actions:
            if action.choices is None or isinstance(action, argparse._SubParsersAction):
                continue
            words = [str(c) for c in action.choices if not isinstance(c, int)]
            said = action.help or ""
            missing += [f"{p.prog} {'/'.join(action.option_strings) or action.dest} {w}" for w in words
                        if not re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", said)]
    return missing


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_choice_of_every_option_is_named_in_its_help(monkeypatch: pytest.MonkeyPatch, lang: i18n.Lang) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    monkeypatch.setattr(argparse, "_", argparse._)  # type: ignore[attr-defined]
    monkeypatch.setattr(argparse, "ngettext", argparse.ngettext)
    assert _unexplained(lang) == []


@pytest.mark.process
@pytest.mark.parametrize(("command", "said"), [
    (["local"], ["traditional (tradizionale: la carta uguale va presa per prima",
                 "fewest (la più piccola: la presa con meno carte", "free (a scelta: qualunque presa",
                 "italian: carte italiane", "french: il mazzo francese"]),
    (["play"], ["traditional (tradizionale", "fewest (la più piccola", "free (a scelta"]),
    (["tournament", "create"], ["si rigioca intera (rematch) o decide una sola smazzata (deciding_round)",
                               "il gioco: scopa, scopone"]),
])
def test_the_italian_help_explains_the_words_an_option_takes(command: list[str], said: list[str]) -> None:
    """As a person runs it: ``scopa local --help`` under LANG=it_IT.UTF-8."""
    env = dict(os.environ, LANG="it_IT.UTF-8", LC_ALL="", COLUMNS="200")
    done = subprocess.run([sys.executable, "-m", "scopa.cli", *command, "--help"], env=env, cwd=str(ROOT),
                          capture_output=True, text=True, timeout=60, check=True)
    text = " ".join(done.stdout.split())  # the help's lines joined: a phrase may wrap
    for words in said:
        assert words in text, done.stdout
