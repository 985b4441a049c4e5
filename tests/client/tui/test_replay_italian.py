"""`scopa replay FILE` in a terminal whose locale is Italian (LANG=it_IT.UTF-8), through a
pseudo-terminal as a person sees it: the title, the step line, the deal, the plays, the
round's score and the result speak Italian."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

from procs import ROOT, end_child
from test_replay_cli import scopa
from test_tui_italian import shows

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    done = scopa("local", "--seats", "greedy,random", "--seed", "12", "--record", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    return path


def test_the_replay_viewer_speaks_italian_under_an_italian_locale(recorded: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG="it_IT.UTF-8", TERM="xterm-256color", COLUMNS="100", LINES="30")  # the pty's size, whatever pytest's is
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "replay", str(recorded)], cwd=str(ROOT), env=env,
                          encoding="utf-8", codec_errors="replace", timeout=30, dimensions=(30, 100))
    try:
        shows(child, "Scopa: rivedi la partita")  # the title
        shows(child, "Smazzata 1/")  # the step line
        shows(child, "distribuzione · passo 1/")
        shows(child, "dà le carte Bot 2 (random); in tavola 4 Bas, 5 Spa")  # the deal (seed 12): dealer, table
        shows(child, "scegli smazzata")  # the keys in the footer, all of them in 100 columns
        shows(child, "q esci")
        child.send("l")
        shows(child, "mossa 1/")
        shows(child, "Bot 1 (greedy) gioca 4 Den, prende 4 Bas")  # seed 12: the first play
        child.send("n")
        shows(child, "Smazzata 2/")
        child.send("\x1b[F")  # End: the last step
        shows(child, "Punti della smazzata")
        shows(child, "Partita finita: vince")
        shows(child, "traguardo raggiunto")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        end_child(child)
