"""The journal's fence (server/journal/commands.py, ``ClaimTable``): once a journal claims a table,
every write of it by another journal on the same database is refused (``Fenced``) and
stores nothing, including a write that was under way when the claim came; the claimer's
writes go on.  Two PostgreSQL journals on one database (the real server, a schema per
test); the claim's contract on every backend."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import psycopg
import pytest

from scopa.engine import Deal, Play, RuleSet
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.commands import (
    AppendAction, ClaimTable, ClearSeat, CloseTable, CreateTable, FinishTable, LoadActions, LoadRefusals,
    LoadUnfinished, MarkDamaged, RecordRefusal, Request, SetSeat, StartTable
)
from scopa.server.journal.values import Fenced, StorageError
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.journal.postgres.storage import PostgresStorage
from scopa.server.journal.sqlite.storage import SQLiteStorage

from pg import pg_url  # noqa: F401 - the fixture
from test_cluster_tables import result_of, seated

pytestmark = pytest.mark.integration

DEAL = Deal(tuple(range(40)))
PLAYS = [Play(0, 0), Play(1, 0), Play(2, 0)]
DEADLINE = 10.0


async def batch(db: Any, requests: list[Request]) -> list[Any]:
    result = db.run_batch(requests)
    return await result if inspect.isawaitable(result) else result  # type: ignore[no-any-return]


async def opened(url: str) -> PostgresStorage:
    db = PostgresStorage(url)
    await db.open()
    return db


async def _playing(db: Any, table_id: str) -> None:
    assert await batch(db, [CreateTable(table_id, RuleSet(), 7), SetSeat(table_id, 0, "ada", "aa" * 32),
                            SetSeat(table_id, 1, "greedy-1", bot="greedy"), StartTable(table_id),
                            AppendAction.of(table_id, 0, DEAL)]) == [None] * 5


@pytest.mark.parametrize("backend", ["memory", "sqlite", "postgres"])
async def test_a_claim_is_of_an_unfinished_table_and_its_claimer_writes_on(backend: str, tmp_path: Path,
                                                                          request: pytest.FixtureRequest) -> None:
    if backend == "postgres":
        db: Any = await opened(request.getfixturevalue("pg_url"))
    else:
        db = MemoryStorage() if backend == "memory" else SQLiteStorage(str(tmp_path / "j.db"))
    try:
        await _playing(db, "1")
        await _playing(db, "2")
        assert await batch(db, [FinishTable("2", 0, (11, 3), "target")]) == [None]
        claimed, unknown, ended = await batch(db, [ClaimTable("1"), ClaimTable("9"), ClaimTable("2")])
        assert claimed is None
        assert isinstance(unknown, StorageError) and not isinstance(unknown, Fenced)
        assert isinstance(ended, StorageError) and not isinstance(ended, Fenced)
        assert await batch(db, [AppendAction.of("1", 1, PLAYS[0]), ClaimTable("1"),  # claimed twice: still its own
                                AppendAction.of("1", 2, PLAYS[1]), RecordRefusal("1", 3, 0, "illegal_move")]) == [None] * 4
        [actions] = await batch(db, [LoadActions("1")])
        assert actions == [DEAL, PLAYS[0], PLAYS[1]]
    finally:
        closing = db.close()
        if inspect.isawaitable(closing):
            await closing


async def test_a_table_claimed_by_another_journal_refuses_every_write_of_the_first(pg_url: str) -> None:
    a, b = await opened(pg_url), await opened(pg_url)
    try:
        await _playing(a, "1")
        await batch(a, [CreateTable("2", RuleSet(), 8), SetSeat("2", 0, "bea")])
        assert await batch(a, [AppendAction.of("1", 1, PLAYS[0])]) == [None]  # A's: its cache knows the next index
        assert await batch(b, [ClaimTable("1"), ClaimTable("2")]) == [None, None]
        [table_1, table_2] = (await batch(b, [LoadUnfinished()]))[0]
        assert table_1.actions == [DEAL, PLAYS[0]]
        # Every write of A's is refused: moves alone (one statement), and each kind in a batch of several.
        [move] = await batch(a, [AppendAction.of("1", 2, PLAYS[1])])
        assert isinstance(move, Fenced)
        out = await batch(a, [AppendAction.of("1", 2, PLAYS[1]), RecordRefusal("1", 2, 0, "illegal_move"),
                              SetSeat("2", 1, "cy"), ClearSeat("2", 0), StartTable("2"),
                              FinishTable("1", 0, (11, 0), "target"), CloseTable("2", "closed"),
                              MarkDamaged("1", "bad")])
        assert all(isinstance(r, Fenced) for r in out), out
        [table_1, table_2] = (await batch(b, [LoadUnfinished()]))[0]
        assert table_1.actions == [DEAL, PLAYS[0]] and table_1.status == "playing"
        assert [s.name if s else None for s in table_2.seats] == ["bea", None] and table_2.status == "waiting"
        assert (await batch(b, [LoadRefusals("1")]))[0] == []
        # B, the claimer, writes on; and if A claims the table back, B's writes are refused in turn.
        assert await batch(b, [AppendAction.of("1", 2, PLAYS[2]), SetSeat("2", 1, "cy")]) == [None, None]
        assert await batch(a, [ClaimTable("1")]) == [None]
        assert await batch(a, [AppendAction.of("1", 3, PLAYS[0])]) == [None]  # A's next index read again
        assert isinstance((await batch(b, [AppendAction.of("1", 3, PLAYS[1])]))[0], Fenced)
        assert (await batch(a, [LoadActions("1")]))[0] == [DEAL, PLAYS[0], PLAYS[2], PLAYS[0]]
    finally:
        await a.close()
        await b.close()


async def _waits_for_a_lock(conn: psycopg.AsyncConnection[Any], name: str) -> None:
    async with asyncio.timeout(DEADLINE):
        while True:
            row = await (await conn.execute("SELECT wait_event_type FROM pg_stat_activity WHERE application_name=%s",
                                            (name,))).fetchone()
            if row is not None and row[0] == "Lock":
                return
            await asyncio.sleep(0.01)


async def test_a_write_under_way_while_a_claim_commits_is_refused_not_stored_behind_it(pg_url: str) -> None:
    """The claim and A's write meet on the table's row: A's write, sent while the claim
    is not yet committed, waits for it and then sees the new fence."""
    a = await opened(pg_url)
    try:
        await _playing(a, "1")
        async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as claimer, \
                await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as watcher:
            async with claimer.transaction():
                await claimer.execute("UPDATE tables SET fence = fence + 1 WHERE id='1'")  # a claim, not committed
                write = asyncio.ensure_future(batch(a, [AppendAction.of("1", 1, PLAYS[0])]))
                await _waits_for_a_lock(watcher, a.name)
                assert not write.done()
            [refused] = await write
            assert isinstance(refused, Fenced)
            row = await (await claimer.execute("SELECT count(*) FROM actions WHERE table_id='1'")).fetchone()
            assert row == (1,)  # the deal only
    finally:
        await a.close()


async def test_a_server_of_its_own_claims_the_tables_it_restores(pg_url: str) -> None:
    """A journal's tables taken over by a cluster's member once (their fence raised) are
    this server's when it restores them at start: its writes are stored, its games end."""
    first = NetworkEngine("127.0.0.1", 0, seed=1, clock=FakeClock(), db=pg_url)
    await first.start()
    ann, table = await seated(first)
    await ann.turns(2)
    await first.stop()
    await ann.closed()
    async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
        await conn.execute("UPDATE tables SET fence = fence + 3 WHERE id=%s", (table,))  # claimed elsewhere
    again = NetworkEngine("127.0.0.1", 0, seed=2, clock=FakeClock(), db=pg_url)
    await again.start()
    try:
        await ann.resume_at(again)
        await ann.turns()
        assert ann.end is not None
        assert await result_of(again, table) == (ann.end.winner, tuple(ann.end.totals))
    finally:
        await again.stop()
