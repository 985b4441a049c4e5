"""`scopa games` lists a private table's games to the people who played at it: `scopa
play` keeps the seat tokens of the tables sat at (also once their games are over), and
`scopa games` sends them; anyone else does not see those games."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.client.console import SeatKeeper
from scopa.client.net import PLAYED_KEPT, ClientSession, FileTokenStore, MemoryTokenStore, SavedSeat
from scopa.protocol.commands import TableInfo
from scopa.server import Limits, NetworkEngine

from procs import ROOT, SCOPA

pytestmark = pytest.mark.process

ENV = dict(os.environ, TERM="dumb", COLUMNS="200", NO_COLOR="1")


async def scopa(*args: str, state_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = ENV if state_dir is None else dict(ENV, SCOPA_STATE_DIR=str(state_dir))
    return await asyncio.to_thread(subprocess.run, [*SCOPA, *args], capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL, timeout=90, env=env, cwd=ROOT)


def test_a_forgotten_seat_keeps_its_token_among_the_played(tmp_path: Path) -> None:
    for store in (FileTokenStore(tmp_path), MemoryTokenStore()):
        for n in range(PLAYED_KEPT + 2):
            store.save(SavedSeat(server="h:1", name="nonna", table=str(n), seat=0, token=f"token-{n:04d}"))
        store.forget("h:1", "nonna")
        assert store.load("h:1", "nonna") is None
        played = store.played("h:1")
        assert played[0] == f"token-{PLAYED_KEPT + 1:04d}" and len(played) == PLAYED_KEPT
        assert store.played("h:2") == []


@asynccontextmanager
async def a_server_keeping_its_games(tmp_path: Path, seed: int) -> AsyncIterator[NetworkEngine]:
    """A server on 127.0.0.1 keeping its games in ``tmp_path``, with no limit on commands a second."""
    engine = NetworkEngine("127.0.0.1", 0, seed=seed, db=str(tmp_path / "games.db"),
                           limits=Limits(commands_per_second=None))
    await engine.start()
    try:
        yield engine
    finally:
        await engine.stop()


async def a_private_game(nonna: ClientSession, nipote: ClientSession, family: Path, server: str) -> TableInfo:
    """nonna's private table, which nipote joins by its invite, played to its end; nonna's
    seat token kept in ``family`` as scopa play keeps it, and forgotten once the game is over."""
    private = await nonna.create_table(preset="scopa", private=True)
    seats = SeatKeeper(FileTokenStore(family), server, "nonna")  # as scopa play keeps its seat
    seats.keep(nonna)
    await nipote.join_table(private.id, invite=nonna.invite)
    await asyncio.gather(nonna.play_game(GreedyBot()), nipote.play_game(RandomBot(seed=1)))
    seats.forget()  # the game is over: nothing to come back to
    return private


async def test_a_private_game_is_listed_for_its_players_only(tmp_path: Path) -> None:
    family, stranger = tmp_path / "nonna", tmp_path / "stranger"
    async with a_server_keeping_its_games(tmp_path, 11) as engine:
        server = f"127.0.0.1:{engine.port}"
        async with await ClientSession.connect("127.0.0.1", engine.port, "nonna") as nonna, \
                await ClientSession.connect("127.0.0.1", engine.port, "nipote") as nipote:
            public = await nipote.create_table(preset="scopa")
            await nonna.join_table(public.id)
            await asyncio.gather(nonna.play_game(GreedyBot()), nipote.play_game(RandomBot(seed=1)))
            private = await a_private_game(nonna, nipote, family, server)
        mine = await scopa("games", "--server", server, "--state-dir", str(family))
        assert mine.returncode == 0, mine.stdout + mine.stderr
        assert [line.split()[0] for line in mine.stdout.splitlines()] == [private.id, public.id]
        theirs = await scopa("games", "--server", server, "--state-dir", str(stranger))
        assert [line.split()[0] for line in theirs.stdout.splitlines()] == [public.id]


async def test_a_player_replays_their_private_game_and_a_stranger_is_told_what_to_do(tmp_path: Path) -> None:
    """`scopa replay --server` sends the seat tokens scopa play kept, as `scopa games` does;
    the refusal a stranger gets says how to see such a game (--token, or as its player)."""
    family, stranger = tmp_path / "nonna", tmp_path / "stranger"
    async with a_server_keeping_its_games(tmp_path, 12) as engine:
        server = f"127.0.0.1:{engine.port}"
        async with await ClientSession.connect("127.0.0.1", engine.port, "nonna") as nonna, \
                await ClientSession.connect("127.0.0.1", engine.port, "nipote") as nipote:
            private = await a_private_game(nonna, nipote, family, server)
            # a later table's token is kept too (newest first): the one of this table still shows it
            FileTokenStore(family).save(SavedSeat(server=server, name="nonna", table="99", seat=0,
                                                  token="not-this-tables-token"))
        mine = await scopa("replay", private.id, "--server", server, "--plain", state_dir=family)
        assert mine.returncode == 0, mine.stdout + mine.stderr
        assert "nonna" in mine.stdout and "nipote" in mine.stdout
        theirs = await scopa("replay", private.id, "--server", server, "--plain", state_dir=stranger)
        assert theirs.returncode == 1
        refusal = " ".join((theirs.stdout + theirs.stderr).split())
        assert "--token" in refusal and "private_table" in refusal, refusal
