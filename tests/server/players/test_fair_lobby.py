"""A lobby that a few addresses cannot fill: waiting tables capped per source address as
well as per connection, room kept for players who hold none, and waiting tables nobody
sits down at closed after a while (server/lobby/directory.py; real sockets from several loopback
source addresses, the server's fake clock)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from scopa.client.net import ClientSession
from scopa.protocol import ErrorCode
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

from wire_client import WireClient

EXPIRY = 600.0  # Limits().waiting_table_expiry


@asynccontextmanager
async def running(**options: object) -> AsyncIterator[NetworkEngine]:
    """A server on loopback, stopped at the end."""
    engine = NetworkEngine("127.0.0.1", 0, seed=5, **options)  # type: ignore[arg-type]
    await engine.start()
    try:
        yield engine
    finally:
        await engine.stop()


async def connect_from(port: int, source: str, name: str) -> WireClient:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    client = WireClient(reader, writer)
    assert (await client.hello(name)).name == "welcome"
    return client


async def create(client: WireClient) -> wire.Body:
    """A 2-player table where the client sits and waits for a second player."""
    client.send(wire.CreateTable(sit=False, options={"players": 2}))  # type: ignore[dict-item]
    return (await client.recv_until("table_created", "error")).body


async def test_a_few_addresses_cannot_crowd_out_the_others(clock: FakeClock) -> None:
    limits = Limits(max_waiting_tables=40, commands_per_second=None)
    per_address = limits.max_waiting_tables_per_address
    assert per_address is not None
    async with running(clock=clock, limits=limits) as engine:
        made: dict[str, int] = {}
        crowd = []
        for a in range(2, 6):  # 4 source addresses x 5 connections x 4 tables each
            source = f"127.0.0.{a}"
            for c in range(5):
                client = await connect_from(engine.port, source, f"crowd{a}x{c}")
                crowd.append(client)
                for _ in range(4):
                    reply = await create(client)
                    if isinstance(reply, wire.TableCreated):
                        made[source] = made.get(source, 0) + 1
                    else:
                        assert isinstance(reply, wire.Error) and reply.code is ErrorCode.TOO_MANY_TABLES
        # Two addresses reach their cap; the third stops where the last tenth (4) begins;
        # the fourth, holding none, may still take one of those.
        assert made == {"127.0.0.2": per_address, "127.0.0.3": per_address, "127.0.0.4": 36 - 2 * per_address,
                        "127.0.0.5": 1}
        # A person from another address, and the next table of someone who holds none, get theirs.
        person = await connect_from(engine.port, "127.0.0.9", "person")
        assert isinstance(await create(person), wire.TableCreated)
        other = await connect_from(engine.port, "127.0.0.10", "other")
        assert isinstance(await create(other), wire.TableCreated)
        for client in (*crowd, person, other):
            await client.close()


async def test_a_waiting_table_nobody_sits_down_at_closes(clock: FakeClock) -> None:
    async with running(clock=clock, limits=Limits(ping_interval=None)) as engine:
        host = await connect_from(engine.port, "127.0.0.2", "host")
        table = await host.create(players=4)
        idle = await connect_from(engine.port, "127.0.0.3", "idle")
        idle.send(wire.CreateTable(sit=False, options={"players": 2}))  # type: ignore[dict-item]
        empty = (await idle.recv_until("table_created")).body.table.id
        clock.advance(EXPIRY - 1)
        guest = await connect_from(engine.port, "127.0.0.4", "guest")
        assert (await guest.join(table)).name == "joined"  # a person sat down: its time starts again
        clock.advance(1)
        assert empty not in engine.tables and table in engine.tables  # nobody ever sat at the empty one
        clock.advance(EXPIRY - 2)
        assert table in engine.tables
        clock.advance(2)
        for seated in (host, guest):
            left = await seated.recv_until("left")
            assert left.body.table == table and left.body.reason == "closed"
        assert table not in engine.tables and engine.tables.waiting_count == 0
        for client in (host, idle, guest):
            await client.close()


async def test_a_client_waiting_at_a_table_that_closes_is_told_so(clock: FakeClock) -> None:
    async with running(clock=clock, limits=Limits(ping_interval=None)) as engine:
        async with await ClientSession.connect("127.0.0.1", engine.port, "patient") as s:
            await s.create_table(preset="scopa")
            waiting = asyncio.create_task(s.wait_for_game_start())
            clock.advance(EXPIRY)
            assert await asyncio.wait_for(waiting, 30) is False and s.table_id is None  # scopa bot looks again

