"""`scopa games` against a real server with a database (loopback): a game one left, whose
seat a bot played to its end, is listed as left ("you left the game" to its person, who
gives their name with --name; their name to everyone else), and the win of the bot that
played the seat is not theirs."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine

from procs import ROOT, SCOPA
from wire_client import WireClient

pytestmark = pytest.mark.process

ENV = dict(os.environ, TERM="dumb", COLUMNS="200", NO_COLOR="1")


async def scopa(*args: str) -> str:
    """What the `scopa` command prints, in a child process (the server keeps running here)."""
    done = await asyncio.to_thread(subprocess.run, [*SCOPA, *args], capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL, timeout=90, env=ENV, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


async def test_a_game_one_left_is_listed_as_left_not_as_theirs_to_win(tmp_path: Path) -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=11, db=str(tmp_path / "games.db"),
                           limits=Limits(commands_per_second=None))
    await engine.start()
    try:
        zio = await WireClient.connect(engine.port, "zio")
        table = await zio.create(bot_takeover=True)  # a bot plays on for whoever leaves
        async with await ClientSession.connect("127.0.0.1", engine.port, "bea") as bea:
            await bea.join_table(table)
            await zio.recv_until("deal")
            zio.send(wire.LeaveTable(table=table))  # zio leaves as the game starts
            await zio.recv_until("left")
            await zio.close()
            await bea.play_game(GreedyBot())
        await engine.ratings.close()  # the game's end is journaled
        address = f"127.0.0.1:{engine.port}"
        [line] = (await scopa("games", "--server", address, "--name", "zio")).splitlines()
        assert line.split()[0] == table and "zio, bea" in line
        assert line.split("scopa  ", 1)[1].startswith("you left the game; "), line
        [line] = (await scopa("games", "--server", address, "--name", "bea")).splitlines()
        result = line.split("scopa  ", 1)[1]
        assert result.startswith("zio left the game; "), line
        assert "zio won" not in result and ("a bot for zio won" in result or "bea won" in result), line
    finally:
        await engine.stop()
