"""The plain lobby says what changes while its prompt waits: a new table someone made
(with the command that joins it), and the table filling up as its game starts; nobody
needs to type ``r`` to learn of it.  Through pseudo-terminals, in Italian."""

from __future__ import annotations

import pytest

from serverthread import ServerThread
from test_cli_play import clients, quit_from_the_lobby, to_the_bots_question

pytestmark = pytest.mark.process


def test_the_plain_lobby_tells_of_a_new_table_and_of_it_filling() -> None:
    with ServerThread() as server, clients(server) as spawn:
        nonna = spawn("--name", "nonna", "--lang", "it")
        nonna.expect("Sala> ")
        bea = spawn("--name", "bea", "--lang", "it")
        to_the_bots_question(bea, lobby="Sala> ")
        bea.expect(r"Bot per")
        bea.sendline("none")  # a seat left for a person
        nonna.expect(r"Nuovo tavolo 1: .*seduti 1/2: bea\. Per sederti: j 1\.")
        carlo = spawn("--name", "carlo", "--lang", "it")
        carlo.expect("Sala> ")
        carlo.sendline("j 1")
        nonna.expect("Il tavolo 1 è al completo: la partita comincia.")
        quit_from_the_lobby(nonna, lobby=None)
        assert "Traceback" not in nonna.before
