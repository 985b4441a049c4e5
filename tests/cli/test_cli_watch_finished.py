"""`scopa watch --table ID` on a public table whose game is over: it says so, with the
result the server keeps and where to see the game again, full-screen or plain; a table
that does not exist is refused with a failing exit status.  Through a pseudo-terminal."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pexpect
import pytest

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession

from serverthread import ServerThread
from test_cli_watch_name import spawn
from procs import end_child

pytestmark = pytest.mark.process


def a_finished_game(server: ServerThread) -> str:
    """bruno and carla play a whole game (greedily) on the server's own loop: its table."""
    async def play() -> str:
        bruno = await ClientSession.connect("127.0.0.1", server.port, "bruno")
        carla = await ClientSession.connect("127.0.0.1", server.port, "carla")
        table = (await bruno.create_table(preset="scopa")).id
        await carla.join_table(table)
        await asyncio.gather(bruno.play_game(GreedyBot()), carla.play_game(GreedyBot()))
        return table

    assert server._loop is not None
    return asyncio.run_coroutine_threadsafe(play(), server._loop).result(30)


def finished(child: pexpect.spawn, table: str) -> str:
    child.expect_exact(f"The game at table {table} is over: ")
    child.expect(pexpect.EOF)
    text = " ".join(str(child.before).split())
    child.close()
    return text


@pytest.mark.parametrize("display", [["--plain"], []], ids=["plain", "full-screen"])
def test_watching_a_finished_game_says_it_is_over_with_its_result_R22(tmp_path: Path, display: list[str]) -> None:
    with ServerThread(db=str(tmp_path / "games.db")) as server:
        table = a_finished_game(server)
        child = spawn("watch", *display, "--name", "cleo", "--table", table, "--server", server.address,
                      term="dumb" if display else "xterm-256color")
        try:
            text = finished(child, table)
            assert " won " in text and f"scopa replay {table} --server {server.address} " in text, text  # the real one
            assert child.exitstatus == 0
        finally:
            end_child(child)


def test_watching_a_table_that_does_not_exist_fails() -> None:
    with ServerThread() as server:
        child = spawn("watch", "--plain", "--name", "cleo", "--table", "99", "--server", server.address)
        try:
            child.expect_exact("There is no table '99' to watch without an invite")
            child.expect(pexpect.EOF)
            child.close()
            assert child.exitstatus == 1
        finally:
            end_child(child)
