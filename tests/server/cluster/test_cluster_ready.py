"""What a client hears from a cluster member, any member can act on at once: a member
welcomes nobody before it can make tables (its hello is ``unavailable`` while it still
takes the journal's tables over), and a new table is in the cluster's listing before its
maker hears of its id (anyone told the id may join it at once, through any member).

Members in this process against the tests' Redis (a key prefix per test), sharing one
journal (a journal in memory that a test can hold up, or PostgreSQL), on fake clocks."""

from __future__ import annotations

import asyncio

import pytest

from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.client.net import ClientSession
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.commands import LoadUnfinished
from test_cluster_tables import clock_of, member, options, running, until
from slow_journal import SAFETY, SlowToRead
from wire_client import WireClient

pytestmark = pytest.mark.integration


async def test_a_member_welcomes_nobody_before_it_can_make_tables(redis_prefix: str) -> None:
    journal = SlowToRead(LoadUnfinished)
    journal.gate.clear()
    engine = NetworkEngine("127.0.0.1", 0, seed=1, clock=FakeClock(), storage=journal, cluster=options(redis_prefix))
    starting = asyncio.create_task(engine.start())
    try:
        assert await asyncio.to_thread(journal.asked.wait, SAFETY)  # joined the lobby; taking the tables over
        early = await WireClient.connect(engine.port)
        reply = await early.hello("ann")
        assert reply.name == "error" and reply.body.code is ErrorCode.UNAVAILABLE, reply
        await early.close()
        journal.gate.set()
        await starting
        ann = await WireClient.connect(engine.port)
        assert (await ann.hello("ann")).name == "welcome"
        ann.send(wire.CreateTable())
        assert (await ann.recv_until("table_created", "error")).name == "table_created"
        await ann.close()
    finally:
        journal.gate.set()
        await asyncio.gather(starting, return_exceptions=True)
        await engine.stop()


async def test_a_new_table_is_listed_in_the_cluster_before_its_maker_hears_its_id(redis_prefix: str,
                                                                                  pg_url: str) -> None:
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    redis = await redis_client()
    async with running(a, b):
        assert a.cluster is not None
        # A publishes its tables' changes late (a busy machine: its process waits for a CPU)
        a.feed.table_listeners.remove(a.cluster.presence.changed)
        cid = await WireClient.connect(a.port, "cid")
        cid.send(wire.CreateTable())
        table = (await cid.recv_until("table_created")).body.table.id
        assert await redis.hexists(f"{redis_prefix}:tables:{a.cluster.id}", table)
        await until(lambda: b.tables.remote.get(table) is not None, "B lists A's new table", clock_of(b))
        ann = await ClientSession.connect("127.0.0.1", b.port, "ann")  # told the id, at another member
        joined = await ann.join_table(table)
        assert joined.table == table and (ann.host, ann.port) == ("127.0.0.1", a.port)
        await ann.close()
        await cid.close()
    await redis.aclose()
