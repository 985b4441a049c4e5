"""A new table whose id the journal holds already (written there by someone else behind the
server's back) is refused: its maker gets ``unavailable`` saying the table could not be
made, nothing is played, the table the journal holds stays as it was, and the next
``create_table`` gets an id above the journal's highest, read again (a cluster member
takes a new block of ids)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from redis_server import SERVER, redis_prefix  # noqa: F401 - the fixture
from scopa.engine import RuleSet
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.cluster import ClusterOptions
from scopa.server.journal.commands import CreateTable, FinishedGameOf, FinishTable, LastTableId, SetSeat
from scopa.server.journal.commands import StartTable
from scopa.server.journal.values import GamePlayer
from scopa.server.journal.memory.storage import MemoryStorage
from slow_journal import SlowToRead
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 30.0  # seconds: a safety net for thread waits only; every wait normally ends on an event


def finished_behind_its_back(backend: MemoryStorage, table_id: str) -> list[Any]:
    """A finished game journaled by another writer: what the journal answers about it."""
    players = (GamePlayer(0, "old", "person"), GamePlayer(1, "greedy-1", "bot", "greedy"))
    assert backend.run_batch([CreateTable(table_id, RuleSet(), 5), SetSeat(table_id, 0, "old"),
                              SetSeat(table_id, 1, "greedy-1", bot="greedy"), StartTable(table_id),
                              FinishTable(table_id, 0, (11, 3), "target", players)]) == [None] * 5
    return backend.run_batch([FinishedGameOf(table_id)])


async def refused_then_made(engine: NetworkEngine, taken: str) -> str:
    """ann's first table is refused (its id is ``taken``), her second is made: its id."""
    ann = await WireClient.connect(engine.port, "ann")
    try:
        ann.send(wire.CreateTable(fill_with_bots=["greedy"]))
        reply = await ann.recv_until("table_created", "error")
        assert reply.name == "error" and reply.body.code is ErrorCode.UNAVAILABLE, reply
        assert f"table {taken} could not be made" in reply.body.message and "nothing was played" in reply.body.message
        assert taken not in engine.tables
        made = await ann.create(bots=["greedy"])
        assert made != taken and made in engine.tables
        return made
    finally:
        await ann.close()


async def test_a_server_of_its_own_refuses_a_table_whose_id_the_journal_holds() -> None:
    backend = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=1, storage=backend)
    await engine.start()
    try:
        kept = [finished_behind_its_back(backend, t) for t in ("1", "2", "3")]
        assert await refused_then_made(engine, "1") == "4"  # after the journal's highest, read again
        assert engine.storage is not None
        await engine.storage.flush()
        assert [backend.run_batch([FinishedGameOf(t)])[0] for t in ("1", "2", "3")] == [k[0] for k in kept]
    finally:
        await engine.stop()


async def test_a_cluster_member_refuses_it_and_takes_ids_above_the_journals(redis_prefix: str) -> None:
    backend = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=1, storage=backend, cluster=ClusterOptions(
        url=SERVER, prefix=redis_prefix, id_block=2, member_ttl=30.0, timeout=2.0))
    await engine.start()
    try:
        kept = [finished_behind_its_back(backend, t) for t in ("1", "2", "3")]  # the member holds 1 and 2
        made = await refused_then_made(engine, "1")
        assert int(made) > 3
        assert engine.storage is not None
        await engine.storage.flush()
        assert [backend.run_batch([FinishedGameOf(t)])[0] for t in ("1", "2", "3")] == [k[0] for k in kept]
    finally:
        await engine.stop()


async def test_a_cluster_member_says_try_again_once_it_holds_new_ids(redis_prefix: str) -> None:
    """The refusal is told only once the member has its new block (the journal's highest
    id read again): a ``create_table`` sent as soon as it is heard gets a table, never an
    ``unavailable`` for want of ids.  The journal's answer is held back until a ``ping``
    sent meanwhile was answered: the ``pong`` comes before the refusal."""
    backend = SlowToRead(LastTableId)
    engine = NetworkEngine("127.0.0.1", 0, seed=1, storage=backend, cluster=ClusterOptions(
        url=SERVER, prefix=redis_prefix, id_block=2, member_ttl=30.0, timeout=SAFETY))
    await engine.start()
    ann = await WireClient.connect(engine.port, "ann")
    try:
        for t in ("1", "2", "3"):
            finished_behind_its_back(backend, t)
        backend.gate.clear()
        ann.send(wire.CreateTable(fill_with_bots=["greedy"]))
        assert await asyncio.to_thread(backend.asked.wait, SAFETY)  # the member reads the journal's highest id
        ann.send(wire.Ping(nonce=7))
        await ann.recv_until("pong")
        assert [c.name for c in ann.inbox if c.name in ("pong", "error")] == ["pong"]  # no answer yet
        backend.gate.set()
        reply = await ann.recv_until("table_created", "error")
        assert reply.name == "error" and "table 1 could not be made" in reply.body.message, reply
        ann.send(wire.CreateTable(fill_with_bots=["greedy"]))
        made = await ann.recv_until("table_created", "error")
        assert made.name == "table_created" and int(made.body.table.id) > 3, made
    finally:
        backend.gate.set()
        await ann.close()
        await engine.stop()
