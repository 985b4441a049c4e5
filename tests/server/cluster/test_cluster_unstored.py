"""What the players of a new table hear before the member serving it dies: only what the
journal holds.  A member of a cluster sharing one PostgreSQL journal makes a table whose
seats and start its journal stores only in part (the rest held back, as by a member
killed before its journal stored them); another member then takes the table over.
Every seat token its player was told opens the seat there and the game ends as the
journal says; a player told no token heard nothing of the game either.

Servers in this process against a real Redis (a key prefix per test) and PostgreSQL (a
schema per test), each on a fake clock the test moves (the killed member's never moves)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest
from redis.asyncio import Redis

from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.bots import make_bot
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.commands import AppendAction, Command, Journal, SetSeat, StartTable
from scopa.server.journal.backends import open_storage
from test_cluster_tables import Seat, clock_of, ends_as_journaled, options, result_of, running, until
from wire_client import WireClient

pytestmark = pytest.mark.integration

HELD = (SetSeat, StartTable, AppendAction)


class HeldBack:
    """A member's journal that stores a table's seats, start and moves only when let
    (:meth:`let`): the writes it holds are what a member killed now never stored."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.held: list[tuple[Command, asyncio.Future[None]]] = []

    def write(self, command: Command) -> Awaitable[None]:
        if not isinstance(command, HELD):
            return self.journal.write(command)
        waiting: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.held.append((command, waiting))
        return waiting

    async def let(self, count: int) -> None:
        """Store the first ``count`` writes held, in order."""
        for command, waiting in self.held[:count]:
            await self.journal.write(command)
            waiting.set_result(None)
        del self.held[:count]

    def drop(self) -> None:
        for _, waiting in self.held:
            waiting.cancel()
        self.held.clear()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.journal, name)


async def heard_until_pong(client: WireClient) -> list[wire.Body]:
    """What ``client`` was told so far: a ping's answer comes after all of it."""
    client.send(wire.Ping(nonce=7))
    heard = []
    while not isinstance(body := (await client.recv()).body, wire.Pong):
        heard.append(body)
    return heard


async def unfinished(engine: NetworkEngine, table: str) -> bool:
    assert engine.storage is not None
    return any(t.id == table for t in await engine.storage.load_unfinished())


@pytest.mark.parametrize("stored", [0, 1, 2, 3])
async def test_a_member_killed_before_its_journal_stored_a_new_table_told_nobody_what_it_lost(
        redis_prefix: str, pg_url: str, stored: int) -> None:
    """``stored``: how many of the table's writes (ann's seat, the bot's seat, the start)
    the killed member's journal stored before it died."""
    journal = open_storage(pg_url)
    assert journal is not None
    held = HeldBack(journal)
    a = NetworkEngine("127.0.0.1", 0, seed=1, clock=FakeClock(), storage=held,  # type: ignore[arg-type]
                      cluster=options(redis_prefix))
    b = NetworkEngine("127.0.0.1", 0, seed=2, clock=FakeClock(), db=pg_url, cluster=options(redis_prefix))
    redis: Redis = await redis_client()
    try:
        async with running(a, b):
            client = await WireClient.connect(a.port, "ann")
            client.send(wire.CreateTable(fill_with_bots=["random"], sit=True))
            created = (await client.recv_until("table_created")).body.table
            table = client.table = created.id
            await until(lambda: len(held.held) >= 3, "A queued the seats and the start", clock_of(b))
            await held.let(stored)
            if stored == 3:  # all of it stored: ann is told her seat
                await client.recv_until("joined")
            heard = [c.body for c in client.inbox]
            heard += await heard_until_pong(client)
            # A dies: its clock stands still (no renewal), its lease goes, its clients drop
            client.abort()
            await redis.delete(f"{redis_prefix}:lease:{table}")
            await until(lambda: _looked_at(b, table), "B takes the table or closes it", clock_of(b))
            tokens = [body.token for body in heard if isinstance(body, wire.Joined)]
            if not tokens:
                assert not any(isinstance(body, (wire.TableEvent, wire.YourTurn)) for body in heard)
                return
            assert tokens == [client.token]
            ann = Seat(client, make_bot("random", "ann", seed=3))
            ann.rules = rules_from_wire(created.rules)
            await ends_as_journaled(ann, b, table)
    finally:
        held.drop()
        await redis.aclose()


async def _looked_at(engine: NetworkEngine, table: str) -> bool:
    return table in engine.tables or not await unfinished(engine, table)


async def test_a_table_gathering_players_on_a_killed_member_waits_for_them_at_the_member_that_takes_it(
        redis_prefix: str, pg_url: str) -> None:
    """ann sits at a new table of A and waits for a partner; A dies.  B takes the table
    over: ann's token opens her seat there, bob joins her at B and the game ends as the
    journal says."""
    a = NetworkEngine("127.0.0.1", 0, seed=1, clock=FakeClock(), db=pg_url, cluster=options(redis_prefix))
    b = NetworkEngine("127.0.0.1", 0, seed=2, clock=FakeClock(), db=pg_url, cluster=options(redis_prefix))
    redis: Redis = await redis_client()
    try:
        async with running(a, b):
            client = await WireClient.connect(a.port, "ann")
            table = await client.create()
            client.abort()  # A dies: its clock stands still (no renewal), its lease goes, its clients drop
            await redis.delete(f"{redis_prefix}:lease:{table}")
            await until(lambda: _looked_at(b, table), "B takes the table or closes it", clock_of(b))
            stranger = await WireClient.connect(b.port)  # ann's name waits for her with her seat
            refused = (await stranger.hello("ann")).body
            assert isinstance(refused, wire.Error) and refused.code is ErrorCode.NAME_TAKEN, refused
            ann = Seat(client, make_bot("random", "ann", seed=3))
            await ann.resume_at(b)
            bob = await WireClient.connect(b.port, "bob")
            assert (await bob.join(table)).name == "joined"
            partner = Seat(bob, make_bot("random", "bob", seed=4))
            await asyncio.gather(ann.turns(), partner.turns())
            assert ann.end is not None and partner.end == ann.end
            assert await result_of(b, table) == (ann.end.winner, tuple(ann.end.totals))
            await bob.close()
    finally:
        await redis.aclose()
