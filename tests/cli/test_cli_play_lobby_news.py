"""The plain lobby says what changes while its prompt waits: a new table someone made
(with the command that joins it), and the table filling up as its game starts; nobody
needs to type ``r`` to learn of it.  Through pseudo-terminals, in Italian."""

from __future__ import annotations

import pexpect
import pytest

from serverthread import ServerThread
from test_cli_play import spawn

pytestmark = pytest.mark.process


def test_the_plain_lobby_tells_of_a_new_table_and_of_it_filling() -> None:
    with ServerThread() as server:
        nonna = spawn(server, "--name", "nonna", "--lang", "it")
        bea = carlo = None
        try:
            nonna.expect("Sala> ")
            bea = spawn(server, "--name", "bea", "--lang", "it")
            bea.expect("Sala> ")
            bea.sendline("c")
            for _ in range(5):  # the create dialog: the defaults
                bea.expect(r"\]: ")
                bea.sendline("")
            bea.expect(r"Bot per")
            bea.sendline("none")  # a seat left for a person
            nonna.expect(r"Nuovo tavolo 1: .*seduti 1/2: bea\. Per sederti: j 1\.")
            carlo = spawn(server, "--name", "carlo", "--lang", "it")
            carlo.expect("Sala> ")
            carlo.sendline("j 1")
            nonna.expect("Il tavolo 1 è al completo: la partita comincia.")
            nonna.sendline("q")
            nonna.expect(pexpect.EOF)
            assert "Traceback" not in nonna.before
        finally:
            for child in (nonna, bea, carlo):
                if child is not None and child.isalive():
                    child.terminate(force=True)
