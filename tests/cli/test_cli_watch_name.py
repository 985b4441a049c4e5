"""`scopa watch` and `scopa tournament` take their name as `scopa play` does: asked at a
terminal when `--name` is not given (the login name offered, a name with a space asked
again with the forms a server takes), full-screen or plain; from a pipe the login name,
unasked.  Through a pseudo-terminal."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from scopa.client.net import ClientSession

from serverthread import ServerThread
from test_cli_play_name import plain_name_with_a_space_then_the_login_name, spawn_scopa
from procs import ROOT, end_child

pytestmark = pytest.mark.process


def spawn(*args: str, term: str = "dumb") -> pexpect.spawn:
    """``scopa ARGS`` at a terminal (``dumb``: no escape codes), for the login name zio."""
    return spawn_scopa(*args, term=term)


def a_table(server: ServerThread) -> tuple[ClientSession, str]:
    """bruno waits at a table, on the server's own loop: his session and the table."""
    async def host() -> tuple[ClientSession, str]:
        session = await ClientSession.connect("127.0.0.1", server.port, "bruno")
        return session, (await session.create_table(preset="scopa")).id

    assert server._loop is not None
    return asyncio.run_coroutine_threadsafe(host(), server._loop).result(30)


def test_the_plain_watch_asks_the_name_as_play_does() -> None:
    with ServerThread() as server:
        _, table = a_table(server)
        child = spawn("watch", "--plain", "--table", table, "--server", server.address)
        try:
            plain_name_with_a_space_then_the_login_name(child)
            child.expect(f"Watching table {table}")
        finally:
            end_child(child)


def test_the_full_screen_watch_asks_the_name_first() -> None:
    with ServerThread() as server:
        _, table = a_table(server)
        child = spawn("watch", "--table", table, "--server", server.address, term="xterm-256color")
        try:
            child.expect("Your name at the tables")
            child.send("\r")
            child.expect(f"watching table {table}")
        finally:
            end_child(child)


def test_tournament_asks_the_name_at_a_terminal_and_not_from_a_pipe(tmp_path: Path) -> None:
    with ServerThread() as server:
        child = spawn("tournament", "list", "--server", server.address)
        try:
            child.expect_exact("Your name at the tables (Enter: zio): ")
            child.sendline("")
            child.expect("does not accept 'tournament_list'")  # asked, once connected (this server has no club)
            child.expect(pexpect.EOF)
        finally:
            end_child(child)
        env = dict(os.environ, TERM="dumb", LANG="C.UTF-8", LC_ALL="", LOGNAME="zio")
        done = subprocess.run([sys.executable, "-m", "scopa.cli", "tournament", "list", "--server", server.address],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, env=env,
                              cwd=str(ROOT))
    assert "Your name" not in done.stdout and "does not accept 'tournament_list'" in done.stdout, done.stdout
