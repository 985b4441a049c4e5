"""A member drained the moment one of its games ends: it stores that game's end itself
before it gives the table's lease back, so no other member is asked to take over a game
that is over, and the journal holds the result the players were told.

A server in this process against a real Redis (a key prefix per test) and PostgreSQL (a
schema per test), on a fake clock.  The end's write is held back by holding the ratings'
lock (a game's end is journaled with its ratings, one game at a time), so the drain
begins while the end is on its way."""

from __future__ import annotations

import asyncio

import pytest

from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_client, redis_prefix  # noqa: F401 - the fixture
from test_cluster_tables import member, result_of, running, seated, until

pytestmark = pytest.mark.integration


async def test_a_member_drained_as_a_game_ends_stores_the_end_before_it_gives_the_lease_back(
        redis_prefix: str, pg_url: str) -> None:
    a = member(redis_prefix, pg_url, 1)
    redis = await redis_client()
    async with running(a):
        assert a.cluster is not None
        leases = a.cluster._leases
        assert leases is not None
        ann, table = await seated(a)
        stopping: asyncio.Task[None] | None = None
        async with a.ratings._one:  # the game's end waits to be journaled
            await ann.turns()
            assert ann.end is not None
            assert a.tables[table].journal.end_pending
            stopping = asyncio.create_task(a.stop())
            await until(lambda: not leases.held, "the drain has begun")
            assert await redis.sismember(f"{redis_prefix}:leased", table)
        await stopping
        # the end is in the journal, and the table no longer asks for an owner
        assert not await redis.sismember(f"{redis_prefix}:leased", table)
        assert await redis.get(f"{redis_prefix}:lease:{table}") is None
    b = member(redis_prefix, pg_url, 2)
    async with running(b):
        assert await result_of(b, table) == (ann.end.winner, tuple(ann.end.totals))
    await redis.aclose()
