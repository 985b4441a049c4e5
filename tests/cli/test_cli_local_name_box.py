"""`scopa local` in a real 80×24 terminal (tmux) under an Italian locale asks the name
first on a clean screen (no board half-drawn behind the box), and the name box takes a
burst of keys typed quickly after a Backspace in the order typed."""

from __future__ import annotations

import os
import sys

import pytest

from tmux_term import terminal

pytestmark = pytest.mark.process

BOX = "Il tuo nome ai tavoli"


def italian_env() -> dict[str, str]:
    keep = {k: os.environ[k] for k in ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV") if k in os.environ}
    return dict(keep, LANG="it_IT.UTF-8", TERM="xterm-256color", LOGNAME="zio", USER="zio")


def local_game() -> list[str]:
    return [sys.executable, "-m", "scopa.cli", "local", "--seed", "5"]


def test_the_name_box_comes_up_on_a_clean_screen_and_the_board_after_the_name() -> None:
    with terminal(local_game(), italian_env()) as term:
        screen = term.wait_for(lambda s: BOX in s and "zio" in s)
        assert not any(word in screen for word in ("Tavola", "La tua mano", "mescolata", "prese")), screen
        term.keys("Enter")
        board = term.wait_for(lambda s: "La tua mano" in s)
        assert BOX not in board


def test_keys_typed_quickly_after_a_backspace_all_land_in_order() -> None:
    """The box starts empty (the login name offered in grey): Backspace, then "ada!" and
    Enter in the same burst.  Each key lands in turn: the box holds "ada!", which is not a
    name, so it is asked again naming it (typed out of order, the Backspace took the "!" away)."""
    with terminal(local_game(), italian_env()) as term:
        term.wait_for(lambda s: BOX in s and "zio" in s)
        term.burst(b"\x7fada!\r")
        screen = term.wait_for(lambda s: "non può essere un nome" in s or "La tua mano" in s)
        assert "'ada!' non può essere un nome" in screen, screen
