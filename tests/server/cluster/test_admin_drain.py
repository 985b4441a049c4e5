"""What ``scopa admin stop`` (``drain``) says it does: a server of its own suspends its running
games until its next start; a member of a cluster sharing one journal hands its running
tables to the other members (and the tables waiting for players are closed), and they
take them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pg import pg_url  # noqa: F401 - the fixture
from redis_server import SERVER, redis_prefix  # noqa: F401 - the fixture
from scopa.cli.admin import admin_request
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.cluster import ClusterOptions
from scopa.server.journal.sqlite.storage import SQLiteStorage
from wire_client import WireClient

pytestmark = pytest.mark.integration

DEADLINE = 15.0  # a safety net: every wait normally ends long before


def token_of(engine: NetworkEngine) -> str:
    return engine.admin.token


async def stop_said(engine: NetworkEngine) -> str:
    reply = await admin_request("127.0.0.1", engine.port, token_of(engine), wire.AdminOp.STOP)
    assert isinstance(reply, wire.AdminReply) and engine.stopped.is_set()
    return reply.message or ""


async def test_a_server_of_its_own_says_its_running_games_resume_on_its_next_start(tmp_path: Path) -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=1, storage=SQLiteStorage(str(tmp_path / "journal.db")))
    await engine.start()
    try:
        ann = await WireClient.connect(engine.port, "ann")
        await ann.create(bots=["greedy"])
        assert await stop_said(engine) == "stopping; running games resume on the next start"
        await ann.close()
    finally:
        await engine.stop()


def member(prefix: str, db: str, seed: int) -> NetworkEngine:
    return NetworkEngine("127.0.0.1", 0, seed=seed, db=db, cluster=ClusterOptions(
        url=SERVER, prefix=prefix, shared_journal=True, member_ttl=30.0, refresh=1.0, timeout=2.0))


async def test_a_cluster_member_says_how_many_tables_it_hands_to_the_others(redis_prefix: str, pg_url: str) -> None:
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    await a.start()
    await b.start()
    clients = []
    stopped = False
    try:
        running = []
        for name in ("ann", "bob"):  # two games under way on A
            client = await WireClient.connect(a.port, name)
            running.append(await client.create(bots=["greedy"]))
            clients.append(client)
        cy = await WireClient.connect(a.port, "cy")
        await cy.create()  # waiting for a second player
        clients.append(cy)
        said = await stop_said(a)
        assert said == "draining: 2 tables handed to the other members, 1 table waiting for players closed; stopping"
        await a.stop()
        stopped = True
        async with asyncio.timeout(DEADLINE):
            while not all(t in b.tables for t in running):
                await asyncio.sleep(0.02)
    finally:
        for client in clients:
            await client.close()
        if not stopped:
            await a.stop()
        await b.stop()
