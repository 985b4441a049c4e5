"""A full-screen client killed with ``kill -9`` leaves its terminal raw (no echo, no line
reading): no program can catch SIGKILL.  The next full-screen ``scopa`` started in that
terminal sets it right first, so that once it ends the terminal reads lines and echoes
keys again (before, it kept the raw modes it found and gave them back).  In a real 80×24
terminal (tmux)."""

from __future__ import annotations

import os
import shlex
import sys

import pytest

from tmux_term import terminal

pytestmark = pytest.mark.process


def test_a_terminal_left_raw_is_sane_after_the_next_full_screen_game() -> None:
    env = {k: os.environ[k] for k in ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV") if k in os.environ}
    env.update(LANG="it_IT.UTF-8", TERM="xterm-256color")
    game = " ".join(map(shlex.quote, [sys.executable, "-m", "scopa.cli", "local", "--name", "ada", "--seed", "5"]))
    modes = "stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon | tr '\\n' ' '"
    script = f"stty raw -echo; {game}; echo; echo MODES: $({modes})"  # raw, as a killed client leaves it
    with terminal(["sh", "-c", script], env) as term:
        term.wait_for(lambda s: "La tua mano" in s)
        term.keys("C-c")
        screen = term.wait_for(lambda s: "MODES:" in s)
    said = screen[screen.index("MODES:"):].split()
    assert "icanon" in said and "echo" in said, said
