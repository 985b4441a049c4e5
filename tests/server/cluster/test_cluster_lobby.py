"""One lobby across the members of a cluster (``scopa serve --cluster redis://...``):
servers in this process sharing a real Redis, each test under a key prefix of its own.

Every wait is on a message or a condition (with a deadline), never a fixed sleep; the
members' timers (refresh, liveness checks, retries) run on fake clocks the tests move."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest

from faultproxy import FaultProxy
from redis_server import SERVER, redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.bots import make_bot
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.cluster import ClusterOptions
from scopa.server.core.tls import ServerTls
from wire_client import WireClient

pytestmark = pytest.mark.integration

DEADLINE = 10.0  # a safety net: every wait normally ends long before


def options(prefix: str, url: str = SERVER, **given: object) -> ClusterOptions:
    settings: dict[str, object] = {"member_ttl": 30.0, "refresh": 1.0, "retry": 1.0, "timeout": 2.0} | given
    return ClusterOptions(url=url, prefix=prefix, **settings)  # type: ignore[arg-type]


@asynccontextmanager
async def members(prefix: str, count: int = 2, tls: ServerTls | None = None,
                  **given: object) -> AsyncIterator[list[NetworkEngine]]:
    """``count`` servers on 127.0.0.1 (port 0) sharing one lobby, each on a fake clock (with
    ``tls``, all speaking TLS with that certificate)."""
    engines = [NetworkEngine("127.0.0.1", 0, seed=i, clock=FakeClock(), tls=tls, cluster=options(prefix, **given))
               for i in range(count)]
    started: list[NetworkEngine] = []
    try:
        for engine in engines:
            await engine.start()
            started.append(engine)
        yield engines
    finally:
        for engine in started:
            await engine.stop()


async def until(check: Callable[[], Awaitable[bool]], what: str, clock: FakeClock | None = None,
                step: float = 0.5) -> None:
    """Wait until ``check()`` holds; with ``clock``, move it on by ``step`` between looks."""
    try:
        async with asyncio.timeout(DEADLINE):
            while not await check():
                if clock is not None:
                    clock.advance(step)
                await asyncio.sleep(0.01)
    except TimeoutError:
        pytest.fail(f"waited {DEADLINE} s in vain: {what}")


async def listing(client: WireClient, **filters: object) -> dict[str, wire.TableInfo]:
    seq = client.send(wire.ListTables(**filters))  # type: ignore[arg-type]
    while (reply := await client.recv_until("tables")).re != seq:
        pass
    return {t.id: t for t in reply.body.tables}


async def lobby_watcher(member: NetworkEngine) -> WireClient:
    """A client of ``member`` that watches the lobby, past its first listing."""
    watcher = await WireClient.connect(member.port, "watcher")
    watcher.send(wire.WatchLobby())
    await watcher.recv_until("tables")
    return watcher


async def update_of(client: WireClient, table: str, state: wire.TableState | None = None) -> wire.TableInfo:
    """The next table_update a lobby watcher gets for ``table`` (in ``state``, if given)."""
    while True:
        cmd = await client.recv_until("table_update")
        info = cmd.body.table
        if info.id == table and (state is None or info.state is state):
            return info


async def refused(client: WireClient, body: wire.Body, recipient: str = "lobby") -> wire.Error:
    seq = client.send(body, recipient=recipient)
    while True:
        reply = await client.recv()
        if reply.re == seq:
            assert isinstance(reply.body, wire.Error), reply
            return reply.body


def address(engine: NetworkEngine) -> str:
    return f"127.0.0.1:{engine.port}"


# --------------------------------------------------------------------------- the lobby


async def test_a_table_made_on_one_member_is_listed_on_every_member_with_where_it_plays(redis_prefix: str) -> None:
    async with members(redis_prefix, 3) as (a, b, c):
        watcher = await lobby_watcher(b)
        ann = await WireClient.connect(a.port, "ann")
        table = await ann.create()
        assert ann.inbox[-2].body.table.member == address(a)  # table_created says where it plays too
        seen = await update_of(watcher, table)
        assert seen.member == address(a) and seen.seats == ["ann", None] and seen.state is wire.TableState.WAITING
        bob = await WireClient.connect(c.port, "bob")
        await until(lambda: _has(bob, table), "the table is listed on the third member")
        listed = (await listing(bob))[table]
        assert listed.member == address(a) and listed.rules.players == 2
        assert table in await listing(watcher, state=wire.TableState.WAITING, players=2)
        own = await listing(ann)
        assert own[table].member == address(a)
        cid = await WireClient.connect(a.port, "cid")
        assert (await cid.join(table)).name == "joined"
        playing = await update_of(watcher, table, wire.TableState.PLAYING)
        assert playing.seats == ["ann", "cid"]
        for client in (watcher, ann, bob, cid):
            await client.close()


async def _has(client: WireClient, table: str) -> bool:
    return table in await listing(client)


async def test_table_ids_are_unique_across_the_members(redis_prefix: str) -> None:
    async with members(redis_prefix, 2) as (a, b):
        ann = await WireClient.connect(a.port, "ann")
        bob = await WireClient.connect(b.port, "bob")
        ids = []
        for _ in range(3):
            ids.append(await ann.create(sit=False, bots=["random"]))
            ids.append(await bob.create(sit=False, bots=["random"]))
        assert len(set(ids)) == 6
        await ann.close()
        await bob.close()


async def answer_to(client: WireClient, body: wire.Body, recipient: str = "lobby") -> wire.Body:
    seq = client.send(body, recipient=recipient)
    while (reply := await client.recv()).re != seq:
        pass
    return reply.body


async def test_joining_or_watching_a_table_of_another_member_redirects_there_with_a_ticket(
        redis_prefix: str) -> None:
    async with members(redis_prefix, 2) as (a, b):
        watcher = await lobby_watcher(b)
        ann = await WireClient.connect(a.port, "ann")
        table = await ann.create()
        await update_of(watcher, table)
        for body in (wire.JoinTable(table=table), wire.WatchTable(table=table)):
            sent = await answer_to(watcher, body)
            assert isinstance(sent, wire.Redirect) and sent.table == table and sent.address == address(a)
        # the watcher's connection to B still holds its name: the ticket takes it to A
        moved = await WireClient.connect(a.port)
        moved.send(wire.Hello(name="watcher", ticket=sent.ticket))
        welcome = (await moved.recv()).body
        assert welcome == wire.Welcome(you="player:watcher", server=ann.inbox[0].body.server,
                                       protocol=ann.inbox[0].body.protocol, turn_timeout=welcome.turn_timeout,
                                       reading_time=ann.inbox[0].body.reading_time, cluster=welcome.cluster)
        assert address(a) in welcome.cluster  # where the cluster can be reached (PROTOCOL.md §7)
        assert isinstance(await answer_to(moved, wire.WatchTable(table=table)), wire.Snapshot)
        # a ticket serves once, and only the name it was given for
        await moved.close()
        await until(lambda: _async("watcher" not in a.names), "A lets the name go")
        again = await WireClient.connect(a.port)
        again.send(wire.Hello(name="watcher", ticket=sent.ticket))
        assert (await again.recv()).body.code is ErrorCode.BAD_TOKEN
        other = await answer_to(watcher, wire.JoinTable(table=table))
        assert isinstance(other, wire.Redirect)
        again.send(wire.Hello(name="someone", ticket=other.ticket))
        assert (await again.recv()).body.code is ErrorCode.BAD_TOKEN
        assert (await refused(watcher, wire.JoinTable(table="999999"))).code is ErrorCode.NO_SUCH_TABLE
        for client in (watcher, ann, again):
            await client.close()


async def _async(value: bool) -> bool:
    return value


async def test_a_private_table_stays_off_the_other_members_lobbies(redis_prefix: str) -> None:
    async with members(redis_prefix, 2) as (a, b):
        watcher = await lobby_watcher(b)
        ann = await WireClient.connect(a.port, "ann")
        ann.send(wire.CreateTable(private=True))
        secret = (await ann.recv_until("table_created")).body.table.id
        public = await ann.create(sit=False, bots=["random", "random"])
        seen = await update_of(watcher, public)
        assert seen.id == public
        assert secret not in await listing(watcher)
        assert all(c.body.table.id != secret for c in watcher.inbox if c.name == "table_update")
        await watcher.close()
        await ann.close()


async def test_lobby_chat_reaches_every_members_lobby(redis_prefix: str) -> None:
    async with members(redis_prefix, 3) as (a, b, c):
        ann = await WireClient.connect(a.port, "ann")
        bob = await WireClient.connect(b.port, "bob")
        cid = await WireClient.connect(c.port, "cid")
        ann.send(wire.Chat(text="ciao a tutti"))
        for client in (ann, bob, cid):
            said = (await client.recv_until("chat_message")).body
            assert said.author == "player:ann" and said.text == "ciao a tutti"
        for client in (ann, bob, cid):
            await client.close()


# --------------------------------------------------------------------------- names


async def test_a_name_taken_on_one_member_is_taken_on_the_others_until_its_connection_goes(
        redis_prefix: str) -> None:
    async with members(redis_prefix, 2) as (a, b):
        ann = await WireClient.connect(a.port, "ann")
        for spelling in ("ann", "ANN", "Ann"):
            other = await WireClient.connect(b.port)
            reply = await other.hello(spelling)
            assert reply.name == "error" and reply.body.code is ErrorCode.NAME_TAKEN, spelling
            assert "another server" in reply.body.message
            await other.close()
        same = await WireClient.connect(a.port)
        assert (await same.hello("ann")).body.code is ErrorCode.NAME_TAKEN
        await same.close()
        await ann.close()
        store = await redis_client()
        try:
            await until(lambda: _free(store, f"{redis_prefix}:name:ann"), "the name is released on disconnect")
        finally:
            await store.aclose()
        again = await WireClient.connect(b.port)
        assert (await again.hello("ann")).name == "welcome"
        await again.close()


async def _free(store: object, key: str) -> bool:
    return not await store.exists(key)  # type: ignore[attr-defined]


async def test_two_connections_of_one_member_asking_for_one_name_at_once_get_it_once(redis_prefix: str) -> None:
    async with members(redis_prefix, 1) as (a,):
        first, second = await WireClient.connect(a.port), await WireClient.connect(a.port)
        first.send(wire.Hello(name="zoe"))
        second.send(wire.Hello(name="zoe"))
        replies = sorted([(await first.recv()).name, (await second.recv()).name])
        assert replies == ["error", "welcome"]
        await first.close()
        await second.close()


# --------------------------------------------------------------------------- members coming and going


async def test_a_member_that_stops_takes_its_tables_out_of_the_other_lobbies(redis_prefix: str) -> None:
    async with members(redis_prefix, 1) as (b,):
        a = NetworkEngine("127.0.0.1", 0, seed=5, clock=FakeClock(), cluster=options(redis_prefix))
        await a.start()
        watcher = await lobby_watcher(b)
        ann = await WireClient.connect(a.port, "ann")
        table = await ann.create()
        await update_of(watcher, table)
        await a.stop()
        gone = await update_of(watcher, table, wire.TableState.CLOSED)
        assert gone.member == address(a)
        assert table not in await listing(watcher)
        await watcher.close()


async def test_a_member_whose_key_expired_leaves_the_other_lobbies_and_comes_back(redis_prefix: str) -> None:
    """A member that stops refreshing (its clock stands still, as a hung process's would)
    leaves the lobby when its key expires; once it refreshes again its tables are back."""
    a = NetworkEngine("127.0.0.1", 0, seed=1, clock=FakeClock(), cluster=options(redis_prefix, member_ttl=0.3,
                                                                                  refresh=0.1))
    b_clock = FakeClock()
    b = NetworkEngine("127.0.0.1", 0, seed=2, clock=b_clock, cluster=options(redis_prefix))
    await a.start()
    await b.start()
    store = await redis_client()
    try:
        watcher = await lobby_watcher(b)
        ann = await WireClient.connect(a.port, "ann")
        table = await ann.create()
        await update_of(watcher, table)
        assert a.cluster is not None
        await until(lambda: _free(store, f"{redis_prefix}:member:{a.cluster.id}"), "the member's key expires")
        b_clock.advance(1.0)  # b's liveness check
        await update_of(watcher, table, wire.TableState.CLOSED)
        assert table not in await listing(watcher)
        assert isinstance(a.clock, FakeClock)
        a.clock.advance(0.1)  # a refreshes: its key was gone, so it publishes its tables again
        back = await update_of(watcher, table, wire.TableState.WAITING)
        assert back.member == address(a)
        await watcher.close()
        await ann.close()
    finally:
        await store.aclose()
        await a.stop()
        await b.stop()


# --------------------------------------------------------------------------- Redis down


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_without_redis_lobby_actions_are_unavailable_and_games_play_on(redis_prefix: str) -> None:
    redis_port = int(SERVER.rsplit(":", 1)[1].split("/")[0])
    async with FaultProxy(redis_port) as proxy:
        a_clock = FakeClock()
        a = NetworkEngine("127.0.0.1", 0, seed=7, clock=a_clock,
                          cluster=options(redis_prefix, url=f"redis://127.0.0.1:{proxy.port}/0"))
        b = NetworkEngine("127.0.0.1", 0, seed=8, clock=FakeClock(), cluster=options(redis_prefix))
        await a.start()
        await b.start()
        try:
            assert a.cluster is not None and a.cluster.available
            watcher = await lobby_watcher(b)
            ann = await WireClient.connect(a.port, "ann")
            cid = await WireClient.connect(a.port, "cid")
            table = await ann.create(bots=["random"])
            await update_of(watcher, table, wire.TableState.PLAYING)

            proxy.retarget(_dead_port())
            proxy.reset_all()
            await until(lambda: _down(a), "the member notices Redis is gone")
            guest = await WireClient.connect(a.port)
            reply = await guest.hello("dan")
            assert reply.name == "error" and reply.body.code is ErrorCode.UNAVAILABLE
            assert (await refused(cid, wire.CreateTable())).code is ErrorCode.UNAVAILABLE
            assert (await refused(cid, wire.Chat(text="anyone?"))).code is ErrorCode.UNAVAILABLE
            assert table in await listing(cid)  # its own tables are listed still
            ended = await ann.play_game(make_bot("random", "ann", seed=1))
            assert ended[-1].name == "game_end"

            proxy.retarget(redis_port)
            await until(lambda: _up(a), "the member reaches Redis again", clock=a_clock)
            assert (await guest.hello("dan")).name == "welcome"
            again = await cid.create()
            seen = await update_of(watcher, again)
            assert seen.member == address(a)
            for client in (watcher, ann, cid, guest):
                await client.close()
        finally:
            await a.stop()
            await b.stop()


async def _down(engine: NetworkEngine) -> bool:
    return engine.cluster is not None and not engine.cluster.available


async def _up(engine: NetworkEngine) -> bool:
    return engine.cluster is not None and engine.cluster.available


async def test_a_member_starts_without_redis_and_joins_when_it_comes(redis_prefix: str) -> None:
    clock = FakeClock()
    dead = _dead_port()
    async with FaultProxy(dead) as proxy:
        a = NetworkEngine("127.0.0.1", 0, seed=9, clock=clock,
                          cluster=options(redis_prefix, url=f"redis://127.0.0.1:{proxy.port}/0"))
        await a.start()
        try:
            assert a.cluster is not None and not a.cluster.available
            guest = await WireClient.connect(a.port)
            assert (await guest.hello("eva")).body.code is ErrorCode.UNAVAILABLE
            proxy.retarget(int(SERVER.rsplit(":", 1)[1].split("/")[0]))
            await until(lambda: _up(a), "the member joins once Redis is there", clock=clock)
            assert (await guest.hello("eva")).name == "welcome"
            await guest.close()
        finally:
            await a.stop()


async def test_the_welcome_names_the_seeds_then_every_member_and_not_one_that_left(redis_prefix: str) -> None:
    """PROTOCOL.md §7 "Finding another member": ``welcome.cluster`` is the operator's seeds,
    then this member's address and the others' (as its liveness check last read them); a
    member that leaves is named no more."""
    async with members(redis_prefix, 2, seeds=("scopa.example:7015",)) as (a, b):
        c = NetworkEngine("127.0.0.1", 0, seed=3, clock=FakeClock(), cluster=options(redis_prefix))
        await c.start()
        stopped = False
        try:
            def welcome_names(*others: NetworkEngine) -> Callable[[], Awaitable[bool]]:
                async def check() -> bool:
                    client = await WireClient.connect(a.port, "ann")
                    await client.close()
                    want = ["scopa.example:7015", address(a), *sorted(address(m) for m in others)]
                    return bool(client.inbox[0].body.cluster == want)
                return check

            await until(welcome_names(b, c), "A's welcome names the seed and every member", a.clock)
            await c.stop()
            stopped = True
            await until(welcome_names(b), "A's welcome no longer names the member that left", a.clock)
        finally:
            if not stopped:
                await c.stop()
