"""The rules for players in Italian: docs/RULES.it.md is the Italian rule book the
program prints (`scopa rules --lang it`, or with an Italian locale), with the structure of
docs/RULES.md: the same sections, every game and every option, each with Italian words."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from scopa.client.text.rulebook import en as rulebook, it as rulebook_it
from scopa.client.text import book, preset_rules
from scopa.engine import Preset, RuleSet

from paths import ROOT

pytestmark = pytest.mark.process


def scopa(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    return subprocess.run([sys.executable, "-m", "scopa.cli", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60, cwd=ROOT, env=dict(env, LANG=lang))


def outline(text: str) -> list[str]:
    """The book's skeleton: its heading levels, the games by id and the options by name."""
    out = []
    for line in text.splitlines():
        if m := re.match(r"^(#+) ", line):
            out.append(m[1] + (line.split("`")[1] if line.count("`") >= 2 else ""))
        elif m := re.match(r"^- `([a-z_]+)`", line):
            out.append("option " + m[1])
    return out


def test_rules_it_md_is_the_italian_book_the_program_prints() -> None:
    assert (ROOT / "docs" / "RULES.it.md").read_text(encoding="utf-8") == book("it")
    done = scopa("rules", "--lang", "it")
    assert done.returncode == 0 and done.stdout == book("it")
    assert scopa("rules", lang="it_IT.UTF-8").stdout == book("it")  # the locale decides without --lang
    assert scopa("rules").stdout == book()


def test_the_italian_book_has_the_english_one_s_structure() -> None:
    english, italian = book(), book("it")
    assert outline(italian) == outline(english)
    assert set(rulebook_it.PRESET_TEXT) == set(Preset)
    assert set(rulebook_it.OPTION_TEXT) == set(RuleSet.model_fields)
    assert set(rulebook_it.CATEGORY_NAMES) == set(rulebook.CATEGORY_NAMES)
    assert list(rulebook_it.OPTION_NOTES) == list(rulebook.OPTION_NOTES)
    for words in ("Le carte", "La distribuzione", "Fine della partita", "settebello", "primiera"):
        assert words in italian
    for english_words in ("The cards", "Your turn", "End of the game", "Settings:"):
        assert english_words not in italian


@pytest.mark.parametrize("preset", [p.value for p in Preset])
def test_scopa_rules_preset_in_italian(preset: str) -> None:
    done = scopa("rules", preset, "--lang", "it")
    assert done.returncode == 0 and done.stdout == preset_rules(Preset(preset), "it")
    assert "Impostazioni:" in done.stdout and "## Il tuo turno" in done.stdout


def test_the_italian_book_names_no_option_in_its_sentences() -> None:
    """An option's identifier (capture_mode, ...) appears only as code, in the option lists:
    a person reading the rules on a phone reads words, not identifiers."""
    found, in_code = [], False
    for line in book("it").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code:
            found += re.findall(r"\b[a-z]+_[a-z_]+\b", re.sub(r"`[^`]*`", "", line))
    assert found == []
