"""The plain lobby answers ``?`` with its commands (as ``?`` lists the game's at the move
prompt), and says what someone wrote to the lobby (from the full-screen lobby or the
browser) while its prompt waits.  Through a pseudo-terminal, in Italian."""

from __future__ import annotations

import asyncio

import pexpect
import pytest

from scopa.client.net import ClientSession

from serverthread import ServerThread
from test_cli_play import spawn

pytestmark = pytest.mark.process


def test_question_mark_lists_the_lobby_commands_and_lobby_chat_is_said() -> None:
    with ServerThread() as server:
        nonna = spawn(server, "--name", "nonna", "--lang", "it")
        try:
            nonna.expect("Sala> ")
            nonna.sendline("?")
            nonna.expect("Sala> ")
            assert "gioca subito" in nonna.before and "non è un comando" not in nonna.before, nonna.before

            async def say_hello() -> None:
                ada = await ClientSession.connect("127.0.0.1", server.port, "ada")
                await ada.send_chat("ciao a tutti")
                await ada.close()

            asyncio.run(say_hello())
            nonna.expect("ada: ciao a tutti")
            nonna.sendline("q")
            nonna.expect(pexpect.EOF)
            assert "Traceback" not in nonna.before
        finally:
            if nonna.isalive():
                nonna.terminate(force=True)
