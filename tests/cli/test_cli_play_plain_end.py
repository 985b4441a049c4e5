"""`scopa play --plain` in Italian, through a pseudo-terminal: a game left at the move
prompt (only a bot plays there, so it ends) is said to be over once, not once by the game
and again by the lobby; and the lobby's list of commands reads as words, with no bracketed
placeholder ("[GIOCO]") in it."""

from __future__ import annotations

import pytest

from serverthread import ServerThread
from test_cli_play import quit_from_the_lobby, server, spawn  # noqa: F401 - the server fixture

pytestmark = pytest.mark.process


def test_a_game_left_is_said_over_once_and_the_commands_have_no_brackets(server: ServerThread) -> None:
    child = spawn(server, "--name", "ada", "--lang", "it")
    try:
        child.expect("Sala> ")
        legend = child.before
        assert "p gioca subito" in legend and "p scopone: gioca subito a scopone" in legend, legend
        assert "[GIOCO]" not in legend and "GIOCO" not in legend, legend
        child.sendline("c")
        for _ in range(7):
            child.expect(r"\]: ")
            child.sendline("")
        child.expect("Bot per")
        child.sendline("greedy")
        child.expect("La tua mossa: ")
        child.sendline("esci")
        child.expect(r"\(s/n\) \[n\]: ")
        child.sendline("s")
        child.expect("Di nuovo nella sala")
        said = child.before
        ends = [line for line in said.splitlines() if "nessuno" in line or "senza vincitori" in line]
        assert len(ends) == 1, said
        assert "Partita finita (interrotta): non vince nessuno" in ends[0], said
        quit_from_the_lobby(child, lobby="Sala> ")
        assert "Traceback" not in child.before
    finally:
        child.terminate(force=True)
