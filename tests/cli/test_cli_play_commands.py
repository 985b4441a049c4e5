"""`scopa play --plain` at the move prompt, through a pseudo-terminal: besides a move one
may type ``?`` (or ``aiuto``) for what can be typed there, ``!text`` (or ``chat text``) to
talk to the table, and ``esci`` (or ``q``) to leave the game, asked first as the
full-screen client asks (what leaving does at this table; Enter there is no); ``esci`` at the lobby leaves the client.  In
Italian, and in English."""

from __future__ import annotations

import pytest

from serverthread import ServerThread
from test_cli_play import create_table, quit_from_the_lobby, server, spawn, to_the_bots_question  # noqa: F401 - the server fixture

pytestmark = pytest.mark.process


def test_help_chat_and_leaving_at_the_italian_move_prompt(server: ServerThread) -> None:
    child = spawn(server, "--name", "ada", "--lang", "it")
    try:
        to_the_bots_question(child, lobby="Sala> ")
        child.expect("Bot per")
        child.sendline("greedy")
        child.expect("\\? elenca cosa puoi scrivere qui")
        child.expect("La tua mossa: ")
        child.sendline("?")
        child.expect("Al prompt puoi scrivere")
        child.expect("!testo o scrivi testo")
        child.expect("esci o q: lascia la partita")
        child.expect("La tua mossa: ")
        child.sendline("!ciao a tutti")
        child.expect("ada: ciao a tutti")  # said to the table, and heard there
        child.expect("La tua mossa: ")
        child.sendline("esci")
        child.expect("Lasci la partita\\? ")
        child.expect("Finisce qui, senza vincitori: a questo tavolo")  # only a bot plays here: nobody to play on
        child.expect(r"\(s/n\) \[n\]: ")
        child.sendline("")  # Enter: no
        child.expect("Resti al tavolo")
        child.expect("La tua mossa: ")
        child.sendline("q")  # as the lobby's and the full-screen client's q
        child.expect(r"\(s/n\) \[n\]: ")
        child.sendline("s")
        child.expect("Di nuovo nella sala")
        quit_from_the_lobby(child, lobby="Sala> ", word="esci")  # the lobby's "q esci" read as a word
        assert "Traceback" not in child.before
    finally:
        child.terminate(force=True)


def test_help_and_chat_at_the_english_move_prompt(server: ServerThread) -> None:
    child = spawn(server, "--name", "bob", "--lang", "en")
    try:
        create_table(child, {})
        child.expect("Your move: ")
        child.sendline("help")
        child.expect("At the prompt you can type")
        child.expect("Your move: ")
        child.sendline("chat hello")
        child.expect("bob: hello")
        child.expect("Your move: ")
        child.sendline("leave")
        child.expect(r"Leave the game\?.*\(y/n\) \[n\]: ")
        child.sendline("y")
        child.expect("Back in the lobby")
    finally:
        child.terminate(force=True)
