"""`scopa play --plain` in Italian: the form that opens a table asks whether it is private
and for its time per move (with the range the server allows); a wrong answer is said in
Italian and only that question is asked again; a private table's invite is shown."""

from __future__ import annotations

import asyncio
import os
import re
import sys

import pexpect
import pytest

from paths import ROOT
from serverthread import ServerThread
from test_cli_play import server, state_dir  # noqa: F401 - the server fixture

pytestmark = pytest.mark.process


def table_info(server: ServerThread, table: str) -> tuple[float | None, bool]:
    """The turn timer and privacy of ``table`` as the server keeps them."""
    async def read() -> tuple[float | None, bool]:
        assert server.engine is not None
        info = server.engine.tables[table].info()
        return info.turn_timeout, info.private

    assert server._loop is not None
    return asyncio.run_coroutine_threadsafe(read(), server._loop).result(30)


def wrapped(words: str) -> str:
    """A pattern of ``words`` however the terminal's width broke them into lines."""
    return r"\s+".join(re.escape(word) for word in words.split())


def test_a_private_table_with_a_timer_from_the_plain_form(server: ServerThread) -> None:
    env = dict(os.environ, TERM="dumb", COLUMNS="80", LINES="24")
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "play", "--plain", "--lang", "it", "--name", "ada",
                                           "--server", server.address, "--state-dir", state_dir()],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=30, dimensions=(24, 80))
    try:
        child.expect("Sala> ")
        child.sendline("c")
        for _ in range(4):  # the game, players, target, capture rule: as they are
            child.expect(r"\]: ")
            child.sendline("")
        child.expect(r"Altre opzioni .*\]: ")
        child.sendline("turn_timeout=10")
        child.expect(wrapped("turn_timeout non è una regola del gioco: tavolo privato e tempo per mossa sono le "
                             "prossime domande"))
        assert "Extra inputs" not in child.before
        index = child.expect([r"Altre opzioni .*\]: ", r"Gioco \["])  # that question again, not the whole form
        assert index == 0
        child.sendline("")
        child.expect(r"Tavolo privato\? \(s/n\) \[n\]: ")
        child.sendline("forse")
        child.expect("rispondi s")
        child.expect(r"Tavolo privato\? \(s/n\) \[n\]: ")
        child.sendline("s")
        child.expect(r"Tempo per mossa: da 0:01 a 1:00 \(per esempio 0:15, 0:30\); nessuno: senza tempo")
        child.expect(r"Tempo per mossa \[quello del server \(1:00\)\]: ")
        child.sendline("2:00")
        child.expect("il tempo per mossa va da 0:01 a 1:00")
        child.expect(r"Tempo per mossa \[quello del server \(1:00\)\]: ")
        child.sendline("0:20")
        child.expect(r"Bot \[nessuno\]: ")
        child.sendline("")
        child.expect(wrapped("Un tavolo privato: passa il suo invito,") + r"\s+(\d+)\.([\w-]+)")
        table = child.match.group(1)
        invite = f"{table}.{child.match.group(2)}"
        child.expect(wrapped(f"I tuoi amici lanciano: scopa play --server {server.address} --invite {invite}"))
        child.expect("Si aspetta")
        assert table_info(server, table) == (20.0, True)
    finally:
        child.terminate(force=True)
