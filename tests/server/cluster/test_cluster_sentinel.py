"""A cluster whose Redis runs with a replica and automatic failover: the members reach it
through three Sentinels (``--cluster redis+sentinel://...``).  The test starts its own
master, replica and Sentinels on free loopback ports, runs two members sharing one
PostgreSQL journal, plays games with bots through the protocol and kills the master
mid-game (kill -9); the Sentinels promote the replica, the members reach it, every
game finishes with each player's result the journal's, and the games played after it
get ids no game had before.  A player away during the failover hears what it missed as
a snapshot: every play it heard is in the journal, in order."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import psycopg
import pytest

from pg import pg_url  # noqa: F401 - the fixture
from redis_procs import RedisProcess, sentinel_lines
from scopa.bots import make_bot
from scopa.engine.events import Played
from scopa.server import NetworkEngine
from scopa.server.cluster import ClusterOptions
from scopa.server.journal.values import uncompact
from test_cluster_ids import DEADLINE, PREFIX, Counting, all_finished, play

pytestmark = pytest.mark.process

MASTER = "scopa-master"


@asynccontextmanager
async def redis_with_failover(folder: Path) -> AsyncIterator[tuple[RedisProcess, RedisProcess, list[RedisProcess]]]:
    """A master, its replica and three Sentinels that know both and one another."""
    master = RedisProcess(folder)
    replica = RedisProcess(folder, args=["--replicaof", "127.0.0.1", str(master.port)])
    sentinels = [RedisProcess(folder, sentinel=sentinel_lines(MASTER, master.port)) for _ in range(3)]
    started: list[RedisProcess] = []
    try:
        for process in (master, replica, *sentinels):
            started.append(process)
            await process.start()
        async with asyncio.timeout(DEADLINE):
            while not await _ready(replica, sentinels):
                await asyncio.sleep(0.1)
        yield master, replica, sentinels
    finally:
        for process in reversed(started):
            process.stop()


async def _ready(replica: RedisProcess, sentinels: list[RedisProcess]) -> bool:
    """The replica is in sync, and each Sentinel knows it and the two other Sentinels."""
    clients = [replica.client(), *(s.client() for s in sentinels)]
    try:
        info = await clients[0].info("replication")
        if info.get("master_link_status") != "up":
            return False
        for client in clients[1:]:
            if len(await client.sentinel_slaves(MASTER)) != 1 or len(await client.sentinel_sentinels(MASTER)) != 2:
                return False
        return True
    finally:
        for client in clients:
            await client.aclose()


async def _promoted(sentinels: list[RedisProcess], replica: RedisProcess) -> bool:
    """Every Sentinel names the replica as the master now."""
    for sentinel in sentinels:
        client = sentinel.client()
        try:
            if (await client.sentinel_get_master_addr_by_name(MASTER))[1] != replica.port:
                return False
        finally:
            await client.aclose()
    return True


def options(url: str) -> ClusterOptions:
    return ClusterOptions(url=url, prefix=PREFIX, shared_journal=True, id_block=2, retry=0.2, timeout=1.0)


async def test_the_sentinels_promote_the_replica_and_every_game_finishes_with_nothing_lost(
        pg_url: str, tmp_path: Path) -> None:
    async with redis_with_failover(tmp_path) as (master, replica, sentinels):
        url = "redis+sentinel://" + ",".join(f"127.0.0.1:{s.port}" for s in sentinels) + f"/{MASTER}"
        a = NetworkEngine("127.0.0.1", 0, seed=1, db=pg_url, cluster=options(url))
        b = NetworkEngine("127.0.0.1", 0, seed=2, db=pg_url, cluster=options(url))
        await a.start()
        try:
            await b.start()
            try:
                counting = [Counting(make_bot("greedy", f"m{i}", seed=i), after=3) for i in range(4)]
                games = [asyncio.create_task(play((a, b)[i % 2].port, f"m{i}", i, counting[i])) for i in range(4)]
                await asyncio.wait_for(asyncio.gather(*(c.reached.wait() for c in counting)), DEADLINE)
                master.kill()  # mid-game, every game
                during = await asyncio.wait_for(asyncio.gather(*games), DEADLINE * 2)
                async with asyncio.timeout(DEADLINE):  # the games may end before the Sentinels agree
                    while not await _promoted(sentinels, replica):
                        await asyncio.sleep(0.1)
                after = await asyncio.gather(*[play((a, b)[i % 2].port, f"n{i}", 10 + i) for i in range(4)])
            finally:
                await b.stop()
        finally:
            await a.stop()
    results = [*during, *after]
    ids = [r.table for r in results]
    assert len(set(ids)) == len(ids) == 8, ids
    await all_finished(pg_url, ids)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for result in results:  # each player's result is the journal's, and every play it saw is journaled
            row = conn.execute("SELECT winner, totals, record FROM tables WHERE id=%s", (result.table,)).fetchone()
            assert row is not None and row[:2] == (result.winner, str(list(result.totals))), result.table
            journaled = iter([json.loads(a)[1] for a in uncompact(row[2]) if a.startswith('["p"')])
            heard = [int(e.card) for e in result.events if isinstance(e, Played)]
            assert heard and all(card in journaled for card in heard), result.table  # in order (missed ones aside)
