"""The tables of a cluster whose members share one PostgreSQL journal: each member serves
only the tables whose lease it holds in Redis, gives a table up before its lease can run
out for the others when it cannot renew it, and the others take over (restored from the
journal) the tables of a member that is gone; the clients resume there.

Servers in this process against a real Redis (a key prefix per test) and PostgreSQL (a
schema per test), each on a fake clock the tests move; the Redis TTLs run on real time."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

import pytest
from redis.asyncio import Redis

from faultproxy import FaultProxy
from pg import pg_url  # noqa: F401 - the fixture
from redis_server import SERVER, redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.bots import make_bot
from scopa.client.net import ServerRefused, ClientSession
from scopa.engine import Declare, Play, RuleSet, View
from scopa.engine.player import Player
from scopa.protocol import PROTOCOL_VERSION
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.protocol.convert import action_to_wire, legal_from_wire, rules_from_wire, view_from_wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.core.text import name_key
from scopa.server.cluster import ClusterOptions
from test_example_js import JS, node_ready
from wire_client import WireClient

pytestmark = pytest.mark.integration

DEADLINE = 15.0  # a safety net: every wait normally ends long before (a lease runs out in 3 s of real time)


def options(prefix: str, url: str = SERVER, **given: object) -> ClusterOptions:
    settings: dict[str, object] = {"member_ttl": 30.0, "refresh": 1.0, "retry": 1.0, "timeout": 2.0,
                                   "shared_journal": True, "lease_ttl": 3.0} | given
    return ClusterOptions(url=url, prefix=prefix, **settings)  # type: ignore[arg-type]


def member(prefix: str, db: str, seed: int, url: str = SERVER) -> NetworkEngine:
    return NetworkEngine("127.0.0.1", 0, seed=seed, clock=FakeClock(), db=db, cluster=options(prefix, url=url))


@asynccontextmanager
async def running(*engines: NetworkEngine) -> AsyncIterator[None]:
    started: list[NetworkEngine] = []
    try:
        for engine in engines:
            await engine.start()
            started.append(engine)
        yield
    finally:
        for engine in started:
            if engine.storage is not None:
                await engine.stop()


async def until(check: Callable[[], Awaitable[bool] | bool], what: str, *clocks: FakeClock,
                step: float = 0.25) -> None:
    """Wait until ``check()`` holds, moving the clocks on by ``step`` between looks."""
    try:
        async with asyncio.timeout(DEADLINE):
            while True:
                done = check()
                if done if isinstance(done, bool) else await done:
                    return
                for clock in clocks:
                    clock.advance(step)
                await asyncio.sleep(0.01)
    except TimeoutError:
        pytest.fail(f"waited {DEADLINE} s in vain: {what}")


def clock_of(engine: NetworkEngine) -> FakeClock:
    assert isinstance(engine.clock, FakeClock)
    return engine.clock


class Seat:
    """A person's client at a table: it answers turns with a bot's choices."""

    def __init__(self, client: WireClient, player: Player) -> None:
        self.client = client
        self.player = player
        self.rules: RuleSet | None = None
        self.end: wire.GameEnd | None = None
        self.asked: tuple[int, wire.YourTurn] | None = None  # the turn left unanswered

    async def turns(self, count: int | None = None) -> None:
        """Answer ``count`` turns and wait for the next one, left unanswered (the table then
        waits for this seat: what it told is journaled); None: play until the game ends."""
        answered = 0
        while self.end is None:
            cmd = await self.client.recv()
            body = cmd.body
            if isinstance(body, wire.GameStart):
                self.rules = rules_from_wire(body.rules)
            elif isinstance(body, wire.Snapshot):
                self.rules = rules_from_wire(body.table.rules)
            elif isinstance(body, wire.GameEnd):
                self.end = body
            elif isinstance(body, wire.YourTurn):
                if count is not None and answered == count:
                    self.asked = (cmd.seq, body)
                    return
                await self._answer(cmd.seq, body)
                answered += 1

    async def answer(self) -> None:
        """Answer the turn :meth:`turns` left unanswered."""
        assert self.asked is not None
        await self._answer(*self.asked)
        self.asked = None

    async def _answer(self, seq: int, body: wire.YourTurn) -> None:
        assert self.rules is not None
        action = await self.player.choose(view_from_wire(body.view, self.rules), legal_from_wire(body))
        self.client.send(action_to_wire(action), recipient=f"table:{self.client.table}", re=seq)

    async def closed(self) -> list[wire.Body]:
        """What the client got until the server closed the connection."""
        got = []
        try:
            while True:
                got.append((await self.client.recv()).body)
        except ConnectionError:
            return got

    async def resume_at(self, engine: NetworkEngine) -> None:
        old = self.client
        assert old.token is not None and old.table is not None
        self.client = await WireClient.connect(engine.port)
        self.client.table, self.client.token = old.table, old.token
        reply = await self.client.resume(old.token, old.last_event, name="ann")
        assert reply.name == "welcome", reply


async def seated(engine: NetworkEngine) -> tuple[Seat, str]:
    """ann at a new table of ``engine`` against a bot, the game started."""
    client = await WireClient.connect(engine.port, "ann")
    table = await client.create(bots=["random"])
    return Seat(client, make_bot("random", "ann", seed=3)), table


async def lease_of(redis: Redis, prefix: str, table: str) -> tuple[str | None, int]:
    holder = await redis.get(f"{prefix}:lease:{table}")
    return (holder.decode() if holder is not None else None), int(await redis.pttl(f"{prefix}:lease:{table}"))


async def journaled_actions(engine: NetworkEngine, table: str) -> int:
    assert engine.storage is not None
    await engine.storage.flush()
    return next(len(t.actions) for t in await engine.storage.load_unfinished() if t.id == table)


async def result_of(engine: NetworkEngine, table: str) -> tuple[int | None, tuple[int, ...]]:
    await until(lambda: _finished(engine, table), f"table {table} is finished in the journal", clock_of(engine))
    found = next(r for r in await engine.results() if r.id == table)
    return found.winner, found.totals


async def ends_as_journaled(seat: Seat, engine: NetworkEngine, table: str) -> None:
    """``seat`` resumes at ``engine``, plays its game to the end there, and is told the
    result the journal holds."""
    await seat.resume_at(engine)
    await seat.turns()
    assert seat.end is not None
    assert await result_of(engine, table) == (seat.end.winner, tuple(seat.end.totals))


async def _finished(engine: NetworkEngine, table: str) -> bool:
    assert engine.storage is not None
    await engine.storage.flush()
    return any(r.id == table for r in await engine.results())


# --------------------------------------------------------------------------- tests


async def test_a_member_serves_only_the_tables_it_holds_the_lease_of(redis_prefix: str, pg_url: str) -> None:
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    redis = await redis_client()
    async with running(a):
        ann, table = await seated(a)
        await ann.turns(2)
        assert a.cluster is not None
        assert (await lease_of(redis, redis_prefix, table))[0] == a.cluster.id
        async with running(b):  # B starts on the same journal, which has A's game unfinished
            assert table not in b.tables and table in a.tables
            moves = await journaled_actions(a, table)
            await a.stop()  # A gives its tables up, then their leases back
            assert (await ann.closed())[-1] == wire.Bye(reason="this server is stopping; reconnect to resume your game")
            await until(lambda: table in b.tables, "B takes the table over", clock_of(b))
            assert b.cluster is not None
            assert (await lease_of(redis, redis_prefix, table))[0] == b.cluster.id
            assert await journaled_actions(b, table) == moves
            await ends_as_journaled(ann, b, table)
    await redis.aclose()


async def test_a_member_cut_off_from_redis_gives_its_table_up_before_another_can_take_it(
        redis_prefix: str, pg_url: str) -> None:
    redis_port = int(SERVER.rsplit(":", 1)[1].split("/")[0])
    redis = await redis_client()
    async with FaultProxy(redis_port) as proxy:
        a = member(redis_prefix, pg_url, 1, url=f"redis://127.0.0.1:{proxy.port}/0")
        b = member(redis_prefix, pg_url, 2)
        async with running(a, b):
            assert a.cluster is not None and b.cluster is not None
            ann, table = await seated(a)
            await ann.turns(3)
            moves = await journaled_actions(a, table)
            proxy.retarget(_dead_port())  # A's requests go nowhere, nothing answers, nothing connects
            proxy.blackhole()
            _, lease_left = await lease_of(redis, redis_prefix, table)
            cut_at = clock_of(a).now()
            # A's clock runs on: it gives the table up when the lease it could not renew
            # runs out on that clock, a third of the lease before Redis lets it go
            told = asyncio.create_task(ann.closed())
            await until(lambda: told.done(), "A gives the table up", clock_of(a), step=0.05)
            assert clock_of(a).now() - cut_at < lease_left / 1000 - 0.5  # well before the lease could expire
            holder, left = await lease_of(redis, redis_prefix, table)
            assert holder == a.cluster.id and left > 0  # nobody else can have it yet
            assert table not in a.tables
            assert told.result()[-1] == wire.Bye(reason="this server lost touch with the cluster; "
                                                        "reconnect to resume your game")
            # once the lease is gone from Redis, B takes the table and restores it
            await until(lambda: table in b.tables, "B takes the table over", clock_of(b))
            assert (await lease_of(redis, redis_prefix, table))[0] == b.cluster.id
            assert await journaled_actions(b, table) == moves  # every acknowledged move kept
            await ends_as_journaled(ann, b, table)
    await redis.aclose()


async def test_a_member_whose_lease_another_holds_stops_serving_the_table_at_once(
        redis_prefix: str, pg_url: str) -> None:
    a = member(redis_prefix, pg_url, 1)
    redis = await redis_client()
    async with running(a):
        ann, table = await seated(a)
        await ann.turns(1)
        moves = await journaled_actions(a, table)
        await redis.set(f"{redis_prefix}:lease:{table}", "someone-else", px=60_000)
        told = asyncio.create_task(ann.closed())
        await until(lambda: told.done(), "A gives the table up on its next renewal", clock_of(a))
        assert told.result()[-1] == wire.Bye(reason="another server took this table over; "
                                                    "reconnect to resume your game")
        assert table not in a.tables
        assert await journaled_actions(a, table) == moves  # nothing more journaled by A
        assert (await lease_of(redis, redis_prefix, table))[0] == "someone-else"
    await redis.aclose()


async def test_a_move_journaled_after_another_member_took_the_table_over_is_refused_and_told_to_nobody(
        redis_prefix: str, pg_url: str) -> None:
    """Two owners of one table: A still believes it holds the lease (its clock stands
    still, so it has not seen it run out) when B takes the table over (the lease gone from
    Redis) and claims it in the journal.  A's next move is refused by the journal's fence:
    A gives the table up, no client hears of the move, and the game goes on at B from what
    the journal kept."""
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    redis = await redis_client()
    async with running(a, b):
        assert a.cluster is not None and b.cluster is not None
        ann, table = await seated(a)
        await ann.turns(2)
        moves = await journaled_actions(a, table)
        await redis.delete(f"{redis_prefix}:lease:{table}")  # as if A's renewals had been lost
        await until(lambda: table in b.tables, "B takes the table over", clock_of(b))
        assert (await lease_of(redis, redis_prefix, table))[0] == b.cluster.id
        assert a.cluster.leases is not None and a.cluster.leases.holds(table)  # as A sees it
        await ann.answer()  # to A, which journals it: refused
        told = await asyncio.wait_for(ann.closed(), DEADLINE)
        assert told == [wire.Bye(reason="another server took this table over; reconnect to resume your game")]
        assert table not in a.tables or a.tables[table].closed
        assert await journaled_actions(b, table) == moves  # nothing of A's move stored
        await ends_as_journaled(ann, b, table)
    await redis.aclose()


async def test_the_member_that_takes_a_table_over_holds_its_seats_names_before_they_resume(
        redis_prefix: str, pg_url: str) -> None:
    """A's table goes to B while ann's name is still held by a member that is gone (a
    killed member's key outlives it): B takes the name as it restores the table, so
    nobody on another member can take it before ann resumes at B."""
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    c = NetworkEngine("127.0.0.1", 0, seed=3, clock=FakeClock(), cluster=options(redis_prefix, shared_journal=False))
    redis = await redis_client()
    async with running(a, b, c):
        assert b.cluster is not None
        ann, table = await seated(a)
        await ann.turns(1)
        await a.stop()
        await ann.closed()
        name = f"{redis_prefix}:name:{name_key('ann')}"
        await redis.set(name, "gone-member", px=60_000)  # its member's key is not there: it was killed
        await until(lambda: table in b.tables, "B takes the table over", clock_of(b))
        assert await redis.get(name) == b.cluster.id.encode()
        stranger = await WireClient.connect(c.port)
        reply = await stranger.hello("ann")
        assert isinstance(reply.body, wire.Error) and reply.body.code is ErrorCode.NAME_TAKEN
        await ann.resume_at(b)
        assert await redis.get(name) == b.cluster.id.encode()
        await stranger.close()
        await ann.client.close()
    await redis.aclose()


async def test_a_finished_game_gives_its_lease_back(redis_prefix: str, pg_url: str) -> None:
    a = member(redis_prefix, pg_url, 1)
    redis = await redis_client()
    async with running(a):
        ann, table = await seated(a)
        assert await redis.sismember(f"{redis_prefix}:leased", table)
        await ann.turns()
        await until(lambda: _no_lease(redis, redis_prefix, table), "the lease is given back", clock_of(a))
        assert not await redis.sismember(f"{redis_prefix}:leased", table)
    await redis.aclose()


async def _no_lease(redis: Redis, prefix: str, table: str) -> bool:
    return (await lease_of(redis, prefix, table))[0] is None


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_seat_resuming_on_a_member_that_does_not_serve_its_table_is_sent_to_the_one_that_does(
        redis_prefix: str, pg_url: str) -> None:
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    async with running(a, b):
        ann, table = await seated(a)
        await ann.turns(1)
        token, last = ann.client.token, ann.client.last_event
        assert token is not None
        ann.client.abort()
        elsewhere = await WireClient.connect(b.port)
        elsewhere.send(wire.Hello(name="ann", resume=wire.ResumeRequest(token=token, last_event=last, table=table)))
        sent = (await elsewhere.recv()).body
        assert isinstance(sent, wire.Redirect) and sent.table == table and sent.address == f"127.0.0.1:{a.port}"
        # without the table, B cannot tell where the seat is
        unknown = await WireClient.connect(b.port)
        unknown.send(wire.Hello(name="ann", resume=wire.ResumeRequest(token=token, last_event=last)))
        assert (await unknown.recv()).body.code is ErrorCode.BAD_TOKEN
        back = await WireClient.connect(a.port)
        back.send(wire.Hello(name="ann", ticket=sent.ticket,
                             resume=wire.ResumeRequest(token=token, last_event=last, table=table)))
        assert (await back.recv()).name == "welcome"
        joined = (await back.recv()).body
        assert isinstance(joined, wire.Joined) and joined.resumed and joined.table == table
        for client in (elsewhere, unknown, back):
            await client.close()


async def test_a_made_up_resume_gets_no_ticket_for_a_name_someone_goes_by(redis_prefix: str, pg_url: str) -> None:
    """A resume's ticket only lets the client through to the table's member: the name its
    hello said proves nothing, so the ticket cannot take that name (another's) there."""
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    async with running(a, b):
        ann, table = await seated(a)
        await until(lambda: b.tables.remote.get(table) is not None, "B lists A's table", clock_of(b))
        bob = await WireClient.connect(b.port, "bob")  # bob goes by his name, on B
        eve = await WireClient.connect(b.port)
        eve.send(wire.Hello(name="bob", resume=wire.ResumeRequest(token="made-up-token", last_event=0, table=table)))
        sent = (await eve.recv()).body
        assert isinstance(sent, wire.Redirect) and sent.address == f"127.0.0.1:{a.port}"
        there = await WireClient.connect(a.port)
        there.send(wire.Hello(name="bob", ticket=sent.ticket))
        assert (await there.recv()).body.code is ErrorCode.BAD_TOKEN
        # the same ticket with the made-up token, at the member that serves the table: no
        # seat has that token (not "try again": the table is here)
        again = await WireClient.connect(a.port)
        again.send(wire.Hello(name="bob", ticket=sent.ticket,
                              resume=wire.ResumeRequest(token="made-up-token", last_event=0, table=table)))
        assert (await again.recv()).body.code is ErrorCode.BAD_TOKEN
        assert a.router.greeting.names.get("bob") is None
        assert await hello_code(a, "bob") is ErrorCode.NAME_TAKEN  # still bob's, cluster-wide
        for client in (bob, eve, there, again, ann.client):
            await client.close()


async def hello_code(engine: NetworkEngine, name: str) -> ErrorCode | None:
    """A newcomer's ``hello`` as ``name`` at ``engine``: the error's code (None: welcomed)."""
    client = await WireClient.connect(engine.port)
    try:
        reply = await client.hello(name)
        return reply.body.code if isinstance(reply.body, wire.Error) else None
    finally:
        await client.close()


async def test_a_private_table_on_another_member_is_joined_with_its_invite_code(redis_prefix: str,
                                                                                pg_url: str) -> None:
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    async with running(a, b):
        cid = await WireClient.connect(a.port, "cid")
        cid.send(wire.CreateTable(private=True))
        created = (await cid.recv_until("table_created")).body
        secret, invite = created.table.id, created.invite
        assert invite is not None and b.tables.remote.get(secret) is None  # in no listing of B's
        # without the code, B knows no such table; with a wrong one, A refuses it as its own
        stranger = await WireClient.connect(b.port, "eve")
        stranger.send(wire.JoinTable(table=secret))
        assert (await stranger.recv_until("error", "redirect")).body.code is ErrorCode.NO_SUCH_TABLE
        stranger.send(wire.JoinTable(table=str(int(secret) + 50), invite=invite))
        assert (await stranger.recv_until("error", "redirect")).body.code is ErrorCode.NO_SUCH_TABLE
        guest = await ClientSession.connect("127.0.0.1", b.port, "eve2")
        with pytest.raises(ServerRefused) as refused:
            await guest.join_table(secret, invite="x" * len(invite))
        assert refused.value.code is ErrorCode.NO_SUCH_TABLE
        # ann, connected to B, is sent to A with the code and sits down there
        ann = await ClientSession.connect("127.0.0.1", b.port, "ann")
        joined = await ann.join_table(secret, invite=invite)
        assert joined.table == secret and (ann.host, ann.port) == ("127.0.0.1", a.port)
        assert a.tables[secret].state is wire.TableState.PLAYING
        for client in (cid, stranger):
            await client.close()
        await guest.close()
        await ann.close()


class Counting(Player):
    """A bot that says when it has played ``after`` turns."""

    def __init__(self, bot: Player, after: int) -> None:
        self.bot, self.after, self.turns = bot, after, 0
        self.reached = asyncio.Event()

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.turns += 1
        if self.turns == self.after:
            self.reached.set()
        return await self.bot.choose(view, legal)


async def cid_at_and_ann_from(host: NetworkEngine, home: NetworkEngine) -> tuple[WireClient, str, Seat, ClientSession]:
    """cid's new table at ``host``, her seat's player, and ann's client library connected
    to ``home`` (which lists the table), retrying quickly."""
    cid = await WireClient.connect(host.port, "cid")
    table = await cid.create()
    other = Seat(cid, make_bot("random", "cid", seed=5))
    await until(lambda: home.tables.remote.get(table) is not None, "the home member lists the table", clock_of(home))
    ann = await ClientSession.connect("127.0.0.1", home.port, "ann")
    ann.first_backoff, ann.max_backoff = 0.01, 0.05
    return cid, table, other, ann


async def test_the_client_follows_a_redirect_and_finds_its_table_again_on_the_member_that_takes_it_over(
        redis_prefix: str, pg_url: str) -> None:
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    async with running(a, b):
        # ann connects to B; the table plays on A: the client library is sent there
        cid, table, other, ann = await cid_at_and_ann_from(a, b)
        joined = await ann.join_table(table)
        assert joined.table == table and (ann.host, ann.port) == ("127.0.0.1", a.port) and ann.name == "ann"
        player = Counting(make_bot("random", "ann", seed=6), after=2)
        playing = asyncio.create_task(ann.play_game(player))
        other_playing = asyncio.create_task(other.turns())
        await player.reached.wait()
        await a.stop()  # A's tables go to B; ann's client cannot reach A and goes back to B
        try:
            await other_playing
        except ConnectionError:
            pass
        await until(lambda: table in b.tables, "B takes the table over", clock_of(b))
        await other.resume_at(b)
        other_playing = asyncio.create_task(other.turns())
        await until(lambda: playing.done() and other_playing.done(), "both seats finish the game", clock_of(b),
                    step=0.05)
        result = playing.result()
        assert (ann.host, ann.port) == ("127.0.0.1", b.port) and ann.reconnects >= 1
        assert other.end is not None and (result.winner, result.totals) == (other.end.winner, tuple(other.end.totals))
        assert await result_of(b, table) == (result.winner, result.totals)
        await ann.close()


@pytest.mark.process
async def test_the_js_bot_follows_a_redirect_to_the_member_that_serves_the_table(
        redis_prefix: str, pg_url: str) -> None:
    node = node_ready()
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    async with running(a, b):
        cid = await WireClient.connect(a.port, "cid")
        table = await cid.create()
        other = Seat(cid, make_bot("random", "cid", seed=5))
        await until(lambda: b.tables.remote.get(table) is not None, "B lists A's table", clock_of(b))
        js = await asyncio.create_subprocess_exec(
            str(node), str(JS / "bot.js"), f"127.0.0.1:{b.port}", "--name", "jsbot", "--protocol",
            str(PROTOCOL_VERSION), cwd=JS, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        await asyncio.wait_for(other.turns(), DEADLINE * 2)
        out, _ = await asyncio.wait_for(js.communicate(), DEADLINE)
        text = out.decode()
        assert js.returncode == 0, text
        assert f"table {table} plays at 127.0.0.1:{a.port}: going there" in text
        assert f"player:jsbot sits at table {table}" in text and "0 schema violations" in text
        assert other.end is not None and f"totals {json.dumps(other.end.totals, separators=(',', ':'))}" in text
