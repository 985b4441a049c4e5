"""Table ids are never handed out twice and a finished game is never written over, whatever
happens to Redis: two members sharing one PostgreSQL journal play games with bots through
the protocol; mid-game, the Redis of the test's own is restarted empty (no persistence),
flushed (FLUSHALL) or replaced by another Redis at the same address (one whose counter
is far behind); the game under way finishes, then six more games: no id comes back, and
every game finished before is byte for byte what it was in the journal."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pg import pg_url  # noqa: F401 - the fixture
from redis_procs import RedisProcess
from scopa.bots import make_bot
from scopa.client.net import ServerRefused
from scopa.client.game import GameResult
from scopa.client.net import ClientSession
from scopa.engine import Declare, Play, Player, View
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.cluster import ClusterOptions

pytestmark = pytest.mark.process

DEADLINE = 60.0  # a safety net: every wait normally ends long before
PREFIX = "scopa-ids"


class Counting(Player):
    """A bot that says when it has chosen ``after`` moves."""

    def __init__(self, bot: Player, after: int) -> None:
        self.bot, self.after, self.moves = bot, after, 0
        self.reached = asyncio.Event()

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.moves += 1
        if self.moves == self.after:
            self.reached.set()
        return await self.bot.choose(view, legal)


def options(url: str) -> ClusterOptions:
    """Blocks of two ids (a member takes ids often) and quick retries when Redis is gone."""
    return ClusterOptions(url=url, prefix=PREFIX, shared_journal=True, id_block=2, retry=0.1, timeout=1.0)


@asynccontextmanager
async def two_members(url: str, db: str) -> AsyncIterator[tuple[NetworkEngine, NetworkEngine]]:
    a = NetworkEngine("127.0.0.1", 0, seed=1, db=db, cluster=options(url))
    b = NetworkEngine("127.0.0.1", 0, seed=2, db=db, cluster=options(url))
    await a.start()
    try:
        await b.start()
        try:
            yield a, b
        finally:
            await b.stop()
    finally:
        await a.stop()


async def seated(port: int, name: str) -> ClientSession:
    """``name`` at a new table with a bot on the member at ``port`` (a ``hello`` or
    ``create_table`` refused as ``unavailable`` while the member cannot reach Redis, or
    has no table ids yet, is sent again)."""
    session: ClientSession | None = None
    async with asyncio.timeout(DEADLINE):
        while True:
            try:
                if session is None:
                    session = await ClientSession.connect("127.0.0.1", port, name)
                    session.first_backoff, session.max_backoff = 0.02, 0.2
                await session.create_table(fill_with_bots=["greedy"])
                return session
            except ServerRefused as exc:
                assert exc.code is ErrorCode.UNAVAILABLE, exc
                await asyncio.sleep(0.05)


async def play(port: int, name: str, seed: int, player: Player | None = None) -> GameResult:
    session = await seated(port, name)
    try:
        return await asyncio.wait_for(session.play_game(player or make_bot("greedy", name, seed=seed)), DEADLINE)
    finally:
        await session.close()


def journal_of(db: str, tables: Sequence[str]) -> dict[str, list[Any]]:
    """Every row the journal keeps of each table: its row (record included), seats,
    players, refusals and actions, as PostgreSQL gives them."""
    with psycopg.connect(db, autocommit=True) as conn:
        return {t: [conn.execute(f"SELECT * FROM {relation} WHERE {key}=%s ORDER BY 1, 2", (t,)).fetchall()
                    for relation, key in (("tables", "id"), ("seats", "table_id"), ("game_players", "table_id"),
                                          ("refusals", "table_id"), ("actions", "table_id"))]
                for t in tables}


async def all_finished(db: str, tables: Sequence[str]) -> None:
    """Wait until the journal holds the end of each game (its result is journaled with the
    ratings it gives, a moment after the players heard of it)."""
    async with asyncio.timeout(DEADLINE):
        while True:
            with psycopg.connect(db, autocommit=True) as conn:
                statuses = conn.execute("SELECT status FROM tables WHERE id = ANY(%s)", (list(tables),)).fetchall()
            if len(statuses) == len(set(tables)) and all(s == ("finished",) for s in statuses):
                return
            await asyncio.sleep(0.05)


async def flushed(redis: RedisProcess) -> None:
    client = redis.client()
    try:
        await client.flushall()
    finally:
        await client.aclose()


async def replaced(redis: RedisProcess) -> None:
    """Another Redis at the same address, holding another cluster's keys (under the same
    prefix): its id counter far behind this cluster's."""
    redis.stop()
    await redis.start()
    client = redis.client()
    try:
        await client.set(f"{PREFIX}:table_ids", 1)
        await client.set(f"{PREFIX}:lease:1", "another-member")
    finally:
        await client.aclose()


async def restarted(redis: RedisProcess) -> None:
    redis.kill()
    await redis.start()


@pytest.mark.parametrize("event", ["restarted empty", "FLUSHALL", "another Redis at the address"])
async def test_no_table_id_comes_back_and_no_finished_game_changes_whatever_redis_forgets(
        pg_url: str, tmp_path: Path, event: str) -> None:
    redis = RedisProcess(tmp_path)
    await redis.start()
    try:
        async with two_members(redis.url, pg_url) as (a, b):
            before = await asyncio.gather(play(a.port, "ann", 1), play(b.port, "bob", 2))
            done = [r.table for r in before]
            await all_finished(pg_url, done)
            kept = journal_of(pg_url, done)

            counting = Counting(make_bot("greedy", "cy", seed=3), after=3)
            mid = asyncio.create_task(play(a.port, "cy", 3, counting))
            await asyncio.wait_for(counting.reached.wait(), DEADLINE)
            await {"restarted empty": restarted, "FLUSHALL": flushed, "another Redis at the address": replaced}[event](redis)
            during = await mid

            after = await asyncio.gather(*[play((a, b)[i % 2].port, f"p{i}", 10 + i) for i in range(6)])
            games = [*before, during, *after]
            ids = [g.table for g in games]
            assert len(set(ids)) == len(ids) == 9, ids
            await all_finished(pg_url, ids)
            assert journal_of(pg_url, done) == kept  # byte for byte
            with psycopg.connect(pg_url, autocommit=True) as conn:
                for game in games:  # each client's result is the journal's
                    row = conn.execute("SELECT status, totals FROM tables WHERE id=%s", (game.table,)).fetchone()
                    assert row is not None and row[0] == "finished" and row[1] == str(list(game.totals)), game.table
                names = dict(conn.execute("SELECT table_id, name FROM game_players WHERE kind='person'").fetchall())
            assert [names[g.table] for g in games] == ["ann", "bob", "cy", *[f"p{i}" for i in range(6)]]
    finally:
        redis.stop()
