"""The seats' names over a drain's handoff: a member that stops hands its tables to the
others between two moves, and until the taker has restored a table its seats' names stay
the seats' (``P:name:KEY`` says ``table:ID``): a newcomer on any member is refused them,
a seat resuming anywhere gets its seat back, and the game ends as the journal says.

Servers in this process against a real Redis (a key prefix per test) and PostgreSQL (a
schema per test), each on a fake clock the tests move; the Redis TTLs run on real time.
The window is held open by the clocks: no member but B takes a table over, and B only on
its lease's next renewal, when the test moves B's clock on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from redis.asyncio import Redis

from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.bots import make_bot
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.lobby.shared import HandOn
from scopa.server.core.text import name_key
from test_cluster_tables import Counting, cid_at_and_ann_from, clock_of, hello_code, member, result_of, running, until
from wire_client import WireClient

pytestmark = pytest.mark.integration


async def resume_reply(engine: NetworkEngine, name: str, token: str, table: str) -> wire.Body:
    """The answer to a ``hello`` resuming the seat of ``token`` at ``engine``."""
    client = await WireClient.connect(engine.port)
    try:
        client.send(wire.Hello(name=name, resume=wire.ResumeRequest(token=token, last_event=0, table=table)))
        return (await client.recv()).body
    finally:
        await client.close()


async def resume_code(engine: NetworkEngine, name: str, token: str, table: str) -> ErrorCode | None:
    """The error's code in answer to a ``hello`` resuming a seat at ``engine`` (None: no error)."""
    reply = await resume_reply(engine, name, token, table)
    return reply.code if isinstance(reply, wire.Error) else None


def told_at(engine: NetworkEngine, name: str) -> list[HandOn]:
    """What ``engine`` tells the clients called ``name`` that resume a seat of a table it
    does not serve, from now on."""
    assert engine.cluster is not None
    told: list[HandOn] = []
    hand_on = engine.cluster.hand_on

    def noted(table_id: str, asker: str, answer: Callable[[HandOn], None], naming: bool = True) -> None:
        def tell(where: HandOn) -> None:
            if asker == name:
                told.append(where)
            answer(where)
        hand_on(table_id, asker, tell, naming)

    engine.cluster.hand_on = noted  # type: ignore[method-assign]
    return told


async def holder(redis: Redis, prefix: str, name: str) -> str | None:
    value = await redis.get(f"{prefix}:name:{name_key(name)}")
    return value.decode() if value is not None else None


async def test_a_drained_members_seats_keep_their_names_until_they_resume_at_the_taker(
        redis_prefix: str, pg_url: str) -> None:
    a, b, c = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2), member(redis_prefix, pg_url, 3)
    redis = await redis_client()
    async with running(a, b, c):
        assert b.cluster is not None
        # ann connects to C; her table plays on A: her client is sent there (C is its home)
        cid, table, other, ann = await cid_at_and_ann_from(a, c)
        await ann.join_table(table)
        assert (ann.host, ann.port) == ("127.0.0.1", a.port)
        player = Counting(make_bot("random", "ann", seed=6), after=2)
        playing = asyncio.create_task(ann.play_game(player))
        other_playing = asyncio.create_task(other.turns())
        await player.reached.wait()
        told_ann = told_at(c, "ann")
        other_playing.cancel()
        cid.abort()  # cid's connection is lost: A keeps the seat waiting for her client, and her name
        await until(lambda: _away(a, table, "cid"), "A sees cid's connection gone")
        grace = a.tables[table].grace
        await a.stop()  # drained: A hands the table on; B and C take nothing until their clocks move
        await asyncio.gather(other_playing, return_exceptions=True)
        assert table not in b.tables and table not in c.tables
        # in the window, nobody new gets a seat's name, on any member
        assert await hello_code(c, "ann") is ErrorCode.NAME_TAKEN
        assert await hello_code(b, "cid") is ErrorCode.NAME_TAKEN
        assert await hello_code(c, "CID") is ErrorCode.NAME_TAKEN
        # a seat resuming at a member that does not serve the table is asked to try again
        assert cid.token is not None and ann.token is not None
        assert await resume_code(c, "cid", cid.token, table) is ErrorCode.UNAVAILABLE
        assert await holder(redis, redis_prefix, "cid") == f"table:{table}"
        # for as long as the seat waits for its player (the grace period), not a name's TTL
        kept_ms = await redis.pttl(f"{redis_prefix}:name:{name_key('cid')}")
        assert b.cluster.options.name_ttl * 1000 < kept_ms <= grace * 1000, kept_ms
        # ann's client, back at its home C, is asked to try again there (not refused her name)
        await until(lambda: any(where.moving for where in told_ann), "ann's client asks C for her seat")
        # nor is a ticket good for it: as if B held the lease and had not restored the table
        # yet, a newcomer claiming cid's seat with a made-up token is sent to B, which refuses
        # the name
        lease = f"{redis_prefix}:lease:{table}"
        await redis.set(lease, b.cluster.id, px=60_000)
        sent = await resume_reply(c, "cid", "made-up-token", table)
        assert isinstance(sent, wire.Redirect) and sent.address == f"127.0.0.1:{b.port}"
        eve = await WireClient.connect(b.port)
        eve.send(wire.Hello(name="cid", ticket=sent.ticket))
        assert (await eve.recv()).body.code is ErrorCode.BAD_TOKEN
        await eve.close()
        await redis.delete(lease)
        # B takes the table over (and the seats' names with it)
        await until(lambda: table in b.tables, "B takes the table over", clock_of(b))
        await until(lambda: _held(redis, redis_prefix, b.cluster.id, "ann", "cid"),
                    "B holds the seats' names", clock_of(b))
        assert await hello_code(c, "ann") is ErrorCode.NAME_TAKEN
        # ann's client is sent on to B (or is there already); cid resumes at B itself
        await other.resume_at(b)
        other_playing = asyncio.create_task(other.turns())
        await until(lambda: playing.done() and other_playing.done(), "both seats finish the game", clock_of(b),
                    step=0.05)
        result = playing.result()
        assert (ann.host, ann.port) == ("127.0.0.1", b.port) and ann.name == "ann" and ann.reconnects >= 1
        assert other.end is not None and (result.winner, result.totals) == (other.end.winner, tuple(other.end.totals))
        assert await result_of(b, table) == (result.winner, result.totals)
        await ann.close()
        await other.client.close()
    await redis.aclose()


def _away(engine: NetworkEngine, table: str, name: str) -> bool:
    return any(s is not None and s.name == name and s.away for s in engine.tables[table].seats)


async def _held(redis: Redis, prefix: str, member_id: str, *names: str) -> bool:
    return all([await holder(redis, prefix, name) == member_id for name in names])
