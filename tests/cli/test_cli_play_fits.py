"""`scopa play --plain` in Italian in an 80-column terminal: the create dialog's prompts
(the game first) are each printed once, on one line that fits, with what to choose from
said on the line above; nothing the dialog prints is wider than the terminal."""

from __future__ import annotations

import os
import sys

import pexpect
import pytest

from paths import ROOT
from serverthread import ServerThread
from test_cli_play import server, state_dir  # noqa: F401 - the server fixture

pytestmark = pytest.mark.process

PROMPTS = ["Gioco [scopa]: ", "Giocatori (2, 3, 4, 6) [2]: ", "Traguardo (11, 16, 21, 31, 51) [11]: ",
           "Regola di presa (tradizionale, la più piccola, a scelta) [tradizionale]: ",
           "Altre opzioni (NOME=VALORE …, per esempio re_bello=true) [nessuna]: ", "Tavolo privato? (s/n) [n]: ",
           "Tempo per mossa [quello del server (1:00)]: ", "Bot [nessuno]: "]


def test_the_create_dialog_prompts_fit_80_columns_once_each(server: ServerThread) -> None:
    env = dict(os.environ, TERM="dumb", COLUMNS="80", LINES="24")
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "play", "--plain", "--lang", "it", "--name", "ada",
                                           "--server", server.address, "--state-dir", state_dir()],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=30, dimensions=(24, 80))
    try:
        child.expect("Sala> ")
        child.sendline("c")
        said = ""
        for prompt in PROMPTS:
            child.expect(r"\]: |\): ")  # the bots prompt ended in "): " when it took two lines
            said += child.before + child.after
            child.sendline("greedy" if prompt.startswith("Bot") else "")
        child.expect("Il tavolo 1 è aperto")
        said += child.before
        lines = [line.rstrip() for line in said.replace("\r", "").split("\n")]
        assert [line for line in lines if len(line) > 80] == []
        for prompt in PROMPTS:  # the prompt and what was typed after it: one whole line, once
            typed = (prompt + ("greedy" if prompt.startswith("Bot") else "")).rstrip()
            assert lines.count(typed) == 1, said
        assert "Giochi: scopa, scopone" in said
    finally:
        child.terminate(force=True)
