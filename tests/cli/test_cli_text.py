"""What the `scopa` command prints for a person: the rules drawn and paged on a terminal
(plain Markdown into a pipe), `scopa options` and `--help` in players' words."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect

from scopa.cli import build_parser
from scopa.client.text import book, options_text

from paths import ROOT


def scopa_on_a_terminal(tmp_path: Path, *args: str) -> tuple[str, str]:
    """Run `scopa ARGS` on a pseudo-terminal whose pager writes what it is given to a file:
    (what the terminal showed, what went through the pager)."""
    paged = tmp_path / "paged"
    env = dict(os.environ, PAGER=f"cat > {paged}", TERM="xterm-256color", COLUMNS="100", LINES="30")
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", *args], env=env, cwd=str(ROOT),
                          encoding="utf-8", dimensions=(30, 100), timeout=60)
    shown = child.read()
    child.close()
    assert child.exitstatus == 0, shown
    return shown, paged.read_text(encoding="utf-8") if paged.exists() else ""


def test_scopa_rules_on_a_terminal_is_drawn_and_paged_not_raw_markdown(tmp_path: Path) -> None:
    shown, paged = scopa_on_a_terminal(tmp_path, "rules")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", paged)
    assert "Scopa: the rules" in plain and "settebello" in plain
    assert "**" not in plain and "## " not in plain and "|---|" not in plain
    assert "\x1b[" in paged  # drawn with styles (bold headings, the suits' table)
    assert "Scopa: the rules" not in shown  # through the pager, not dumped on the screen


def test_scopa_rules_of_one_game_on_a_terminal_is_drawn_too(tmp_path: Path) -> None:
    _, paged = scopa_on_a_terminal(tmp_path, "rules", "cirulla")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", paged)
    assert "cirulla" in plain and "Piccola" in plain and "**" not in plain and "## " not in plain


def test_the_pager_is_told_utf8_under_an_italian_locale_that_is_not_installed(tmp_path: Path) -> None:
    """less falls back to ASCII where LANG names a missing locale and shows "<E2><94><80>"
    for the rules' box lines: the pager gets LESSCHARSET=utf-8, unless the person set it."""
    charset = tmp_path / "charset"
    for preset, expected in ((None, "utf-8"), ("latin1", "latin1")):
        env = {k: v for k, v in os.environ.items() if k not in ("LESSCHARSET", "LESSCHARDEF", "LC_ALL")}
        env.update(LANG="it_IT.UTF-8", TERM="xterm-256color", COLUMNS="100", LINES="30",
                   PAGER=f'sh -c \'echo "$LESSCHARSET" > {charset}; cat > /dev/null\'')
        if preset is not None:
            env["LESSCHARSET"] = preset
        child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "rules", "--lang", "it"], env=env, cwd=str(ROOT),
                              encoding="utf-8", dimensions=(30, 100), timeout=60)
        child.read()
        child.close()
        assert child.exitstatus == 0
        assert charset.read_text(encoding="utf-8").strip() == expected


def test_scopa_rules_into_a_pipe_is_the_markdown_book(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "scopa.cli", "rules"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=ROOT, timeout=60)
    assert done.returncode == 0 and done.stdout == book()


def test_scopa_options_does_not_repeat_a_values_name() -> None:
    """Each value of an option is named once: "`traditional`: a same-value card …"."""
    text = options_text()
    assert "`traditional`: a same-value card must be taken first" in text
    repeated = re.findall(r"`(\w+)`: (\w+):", text)
    assert [(value, word) for value, word in repeated if value.lower() == word.lower()] == []


def test_help_speaks_to_players_without_rule_ids() -> None:
    """`--help` of every command says what an option does, not which rule (R15, V7) it is."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    texts = [parser.format_help()] + [p.format_help() for p in subparsers.choices.values()]  # type: ignore[attr-defined]
    tags = sorted({tag for text in texts for tag in re.findall(r"\b[RV]\d{1,2}\b", text)})
    assert tags == []


def test_scopa_options_says_where_the_turn_timer_and_a_private_table_are_set() -> None:
    """A person looking for the turn timer among the options is told it is the table's own
    setting, and where it is asked (English and Italian, as the locale chooses)."""
    for lang, words in (("en_GB.UTF-8", ("turn timer (turn_timeout", "private table", "c in scopa play's lobby")),
                        ("it_IT.UTF-8", ("tempo per mossa (turn_timeout", "tavolo privato", "c nella sala di scopa play"))):
        done = subprocess.run([sys.executable, "-m", "scopa.cli", "options"], capture_output=True, text=True,
                              cwd=str(ROOT), env=dict(os.environ, LANG=lang, LC_ALL=lang), timeout=60)
        said = " ".join(done.stdout.split())
        assert done.returncode == 0 and all(w in said for w in words), said[-600:]


def test_scopone_rules_do_not_say_three_cards_each_after_nine() -> None:
    """`scopa rules scopone` says nine cards each, all at once; the basics after it say
    the basic game deals three and that scopone deals otherwise, not flatly "three each"."""
    for lang, flat, basic in (("en_GB.UTF-8", "Each player gets three cards", "In the basic game each player gets"),
                              ("it_IT.UTF-8", "Ognuno riceve tre carte", "Nel gioco di base ognuno riceve tre carte")):
        done = subprocess.run([sys.executable, "-m", "scopa.cli", "rules", "scopone"], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, cwd=str(ROOT), env=dict(os.environ, LANG=lang, LC_ALL=lang),
                              timeout=60)
        said = " ".join(done.stdout.split())
        assert done.returncode == 0 and flat not in said and basic in said and "scopone" in said.split(basic)[1][:200]
