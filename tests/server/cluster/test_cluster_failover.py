"""A cluster member killed mid-game (kill -9): another member takes its tables over from
the shared PostgreSQL journal once their leases run out, and the clients, connected to
members other than their table's, find their seats there with every announced move kept.

The killed member is a `scopa serve --cluster ... --db postgresql://...` process; the
one that takes over runs in this process on the real clock (the lease's TTL runs on
Redis's).  The failover time printed is from the kill to the first move answered on
the new member (a figure, never asserted)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from redis.asyncio import Redis

from pg import pg_url  # noqa: F401 - the fixture
from procs import ROOT, SCOPA, stop
from redis_server import SERVER, redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.bots import make_bot
from scopa.client.net import ServerRefused
from scopa.client.game import GameResult
from scopa.client.net import ClientSession
from scopa.engine import Declare, Play, Player, View
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.cluster import ClusterOptions
from scopa.server.journal.backends import open_storage
from wire_client import WireClient
from ports import free_port

pytestmark = pytest.mark.process

DEADLINE = 30.0  # a safety net: every wait normally ends long before


class Timed(Player):
    """A bot that notes when it chose each move, and says when it has played ``after``."""

    def __init__(self, bot: Player, after: int) -> None:
        self.bot, self.after = bot, after
        self.session: ClientSession | None = None
        self.times: list[tuple[float, int]] = []  # when, and at which member's port
        self.reached = asyncio.Event()

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.times.append((time.monotonic(), self.session.port if self.session is not None else 0))
        if len(self.times) == self.after:
            self.reached.set()
        return await self.bot.choose(view, legal)


def serve(port: int, prefix: str, db: str, tmp: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*SCOPA, "serve", "--port", str(port), "--db", db, "--cluster", SERVER, "--cluster-prefix", prefix,
         "--no-announce", "--admin-token-file", str(tmp / f"token-{port}")],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))


async def until(check: object, what: str, deadline: float = DEADLINE) -> None:
    """Wait until ``check`` (a value, or a function, maybe async, of none) holds."""
    try:
        async with asyncio.timeout(deadline):
            while True:
                done = check() if callable(check) else check
                if asyncio.iscoroutine(done):
                    done = await done
                if done:
                    return
                await asyncio.sleep(0.02)
    except TimeoutError:
        pytest.fail(f"waited {deadline} s in vain: {what}")


async def welcomed(port: int, name: str) -> WireClient:
    """A client of the member at ``port``, welcomed (its hello is unavailable until the
    member has joined the cluster)."""
    client = await WireClient.connect(port)
    async with asyncio.timeout(DEADLINE):
        while (await client.hello(name)).name != "welcome":
            await asyncio.sleep(0.05)
    return client


async def members_of(redis: Redis, prefix: str) -> int:
    return int(await redis.scard(f"{prefix}:members"))


@dataclass
class Pair:
    """Member B (in this process) and member A (a process) sharing one journal; ann,
    connected to B, plays at a table on A with a random bot, three moves into her game."""

    b: NetworkEngine
    a: subprocess.Popen[str]
    port: int  # A's
    table: str
    ann: ClientSession
    player: Timed
    playing: asyncio.Task[GameResult]


@asynccontextmanager
async def a_game_on_a_member_process(redis: Redis, redis_prefix: str, pg_url: str,
                                     tmp_path: Path) -> AsyncIterator[Pair]:
    b = NetworkEngine("127.0.0.1", 0, seed=2, db=pg_url,
                      cluster=ClusterOptions(url=SERVER, prefix=redis_prefix, shared_journal=True, member_ttl=30.0))
    await b.start()
    port = free_port()
    a = serve(port, redis_prefix, pg_url, tmp_path)
    try:
        await until(lambda: _two(redis, redis_prefix), "A joins the cluster")
        maker, table = await table_made(port)
        await until(lambda: b.tables.remote.get(table) is not None, "B lists A's table")
        # ann connects to B; her table plays on A: her client is sent there
        ann = await ClientSession.connect("127.0.0.1", b.port, "ann")
        ann.first_backoff, ann.max_backoff = 0.02, 0.2
        await ann.join_table(table)
        assert ann.port == port
        player = Timed(make_bot("random", "ann", seed=6), after=3)
        player.session = ann
        playing = asyncio.create_task(ann.play_game(player))
        await asyncio.wait_for(player.reached.wait(), DEADLINE)
        yield Pair(b, a, port, table, ann, player, playing)
        await ann.close()
        await maker.close()
    finally:
        if a.poll() is None:
            a.kill()
        out, _ = a.communicate()
        print(f"member A's output:\n{out}")  # shown when the test fails
        await b.stop()


async def table_made(port: int, name: str = "maker") -> tuple[WireClient, str]:
    """A table made by ``name`` on the member at ``port``, which has just joined the
    cluster: until its first block of table ids comes from Redis, ``create_table`` is
    ``unavailable`` (PROTOCOL.md §7), and the maker asks again."""
    maker = await welcomed(port, name)
    async with asyncio.timeout(DEADLINE):
        while True:
            maker.send(wire.CreateTable(fill_with_bots=["random"], sit=False))
            reply = await maker.recv_until("table_created", "error")
            if reply.name == "table_created":
                maker.table = reply.body.table.id
                return maker, maker.table
            assert reply.body.code is ErrorCode.UNAVAILABLE, reply
            await asyncio.sleep(0.05)


async def test_a_member_killed_mid_game_loses_no_game_and_no_move(redis_prefix: str, pg_url: str,
                                                                  tmp_path: Path) -> None:
    redis = await redis_client()
    try:
        async with a_game_on_a_member_process(redis, redis_prefix, pg_url, tmp_path) as pair:
            b, ann, table = pair.b, pair.ann, pair.table
            pair.a.send_signal(signal.SIGKILL)
            killed_at = time.monotonic()
            pair.a.wait(timeout=10)
            result = await asyncio.wait_for(pair.playing, DEADLINE * 2)
            after = [t - killed_at for t, at in pair.player.times if t > killed_at and at == b.port]
            print(f"\nfailover: {after[0]:.2f} s from kill -9 to the first move on the new member")
            assert table in b.tables and ann.port == b.port
            assert b.storage is not None
            await b.storage.flush()
            found = next(r for r in await b.results() if r.id == table)
            assert (found.winner, found.totals) == (result.winner, result.totals)
            t = b.tables[table]
            assert t.master is not None and list(result.totals) == list(t.master.state.totals)
    finally:
        await redis.aclose()


async def _two(redis: Redis, prefix: str) -> bool:
    return await members_of(redis, prefix) >= 2


@pytest.mark.parametrize("how", ["admin drain", "SIGTERM"])
async def test_a_drained_member_hands_its_table_on_between_two_moves_and_exits(
        redis_prefix: str, pg_url: str, tmp_path: Path, how: str) -> None:
    redis = await redis_client()
    try:
        async with a_game_on_a_member_process(redis, redis_prefix, pg_url, tmp_path) as pair:
            a, b, ann, table = pair.a, pair.b, pair.ann, pair.table
            if how == "SIGTERM":
                a.send_signal(signal.SIGTERM)
            else:
                drain = subprocess.run([*SCOPA, "admin", "--token-file", str(tmp_path / f"token-{pair.port}"), "drain",
                                        f"127.0.0.1:{pair.port}"], cwd=ROOT, text=True, capture_output=True,
                                       timeout=DEADLINE)
                assert drain.returncode == 0, drain.stdout + drain.stderr
            out, _ = a.communicate(timeout=DEADLINE)
            assert a.returncode == 0, out
            assert "gave back the leases of tables" in out
            assert not await redis.exists(f"{redis_prefix}:lease:{table}") or table in b.tables
            result = await asyncio.wait_for(pair.playing, DEADLINE * 2)
            assert table in b.tables and ann.port == b.port
            assert b.storage is not None
            await b.storage.flush()
            found = next(r for r in await b.results() if r.id == table)
            assert (found.winner, found.totals) == (result.winner, result.totals)
    finally:
        await redis.aclose()


async def test_scopa_cluster_runs_members_at_one_address_and_stops_them_together(
        redis_prefix: str, pg_url: str) -> None:
    redis = await redis_client()
    port = free_port()
    cluster = subprocess.Popen(
        [*SCOPA, "cluster", "--processes", "2", "--cluster", SERVER, "--db", pg_url, "--port", str(port),
         "--cluster-prefix", redis_prefix],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))
    try:
        await until(lambda: _two(redis, redis_prefix), "both members join the cluster")
        # every connection to the one port reaches one of the members (tables say which)
        seen: dict[str, str] = {}
        makers = []
        for i in range(16):
            maker = await welcomed(port, f"maker{i}")
            makers.append(maker)
            maker.send(wire.CreateTable())
            created = (await maker.recv_until("table_created")).body.table
            seen[created.id] = created.member or ""
        assert len(set(seen.values())) == 2 and f"127.0.0.1:{port}" not in seen.values()
        # ann, at the one address, joins each member's table (there, or sent there)
        for table in sorted({member: table for table, member in seen.items()}.values()):
            ann = await ClientSession.connect("127.0.0.1", port, "ann")
            joined = await ann.join_table(table)
            assert joined.table == table and f"{ann.host}:{ann.port}" in (seen[table], f"127.0.0.1:{port}")
            await ann.leave_table()
            await ann.close()
        for maker in makers:
            await maker.close()
        cluster.send_signal(signal.SIGTERM)
        out, _ = cluster.communicate(timeout=DEADLINE)
        assert cluster.returncode == 0, out
        assert "2 members of the cluster at" in out and "cluster stopped" in out
        # uvloop is installed (scopa[cluster] brings it): the cluster says so, and each member runs on it
        assert f"at 127.0.0.1:{port} on uvloop" in out
        assert sum("Scopa server on" in line and "on uvloop" in line for line in out.splitlines()) == 2
        await until(lambda: _none(redis, redis_prefix), "the members leave the cluster")
    finally:
        if cluster.poll() is None:
            cluster.kill()  # its members get SIGTERM from the kernel as it dies
            out, _ = cluster.communicate()
            print(f"scopa cluster's output:\n{out}")  # shown when the test fails
        await until(lambda: _none(redis, redis_prefix), "no member outlives scopa cluster")
        await redis.aclose()


async def _none(redis: Redis, prefix: str) -> bool:
    return await members_of(redis, prefix) == 0


class Paced(Player):
    """A bot that thinks ``think`` seconds per move (the games last long enough for a
    member to be killed and another drained while they run), counting the moves."""

    moves = 0

    def __init__(self, bot: Player, think: float) -> None:
        self.bot, self.think = bot, think

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        await asyncio.sleep(self.think)
        Paced.moves += 1
        return await self.bot.choose(view, legal)


async def joined_from(port: int, name: str, table: str) -> ClientSession:
    """A session at the member at ``port``, seated at ``table`` (wherever it plays; it may
    take a moment to be listed there)."""
    session = await ClientSession.connect("127.0.0.1", port, name)
    session.first_backoff, session.max_backoff = 0.02, 0.2
    async with asyncio.timeout(DEADLINE):
        while True:
            try:
                await session.join_table(table)
                return session
            except ServerRefused as exc:
                if exc.code is not ErrorCode.NO_SUCH_TABLE:
                    raise
                await asyncio.sleep(0.05)


async def journaled_results(db: str) -> dict[str, tuple[int | None, tuple[int, ...]]]:
    storage = open_storage(db, None)
    assert storage is not None
    try:
        return {r.id: (r.winner, r.totals) for r in await storage.load_results(1000)}
    finally:
        await storage.close()


GAMES = int(os.environ.get("SCOPA_CLUSTER_GAMES", "60"))
"""Games of the three-member test: 60, twenty made on each member (SCOPA_CLUSTER_GAMES
sets another number for a quicker run)."""


async def test_three_members_one_killed_one_drained_every_game_ends_as_the_journal_says(
        redis_prefix: str, pg_url: str, tmp_path: Path) -> None:
    redis = await redis_client()
    ports = [free_port() for _ in range(3)]
    logs = [open(tmp_path / f"member-{p}.log", "w") for p in ports]
    procs = [subprocess.Popen(
        [*SCOPA, "serve", "--port", str(p), "--db", pg_url, "--cluster", SERVER, "--cluster-prefix", redis_prefix,
         "--no-announce", "--admin-token-file", str(tmp_path / f"token-{p}"),
         "--max-connections-per-address", "none", "--max-waiting-tables-per-client", "none"],
        cwd=ROOT, text=True, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))
        for p, log in zip(ports, logs)]  # every client here comes from 127.0.0.1
    killed, drained, kept = 0, 1, 2
    sessions: list[ClientSession] = []
    makers: list[WireClient] = []
    try:
        await until(lambda: _count(redis, redis_prefix, 3), "the three members join the cluster")
        games: list[tuple[str, ClientSession]] = []
        for i in range(GAMES):
            where = i % 3
            maker, table = await table_made(ports[where], f"maker{i}")
            makers.append(maker)
            home = kept if where != kept else i % 2  # always a member other than the table's
            session = await joined_from(ports[home], f"ann{i}", table)
            sessions.append(session)
            games.append((table, session))
        playing = [asyncio.create_task(s.play_game(Paced(make_bot("random", f"ann{i}", seed=i), 0.02)))
                   for i, (_, s) in enumerate(games)]
        await until(lambda: Paced.moves >= 3 * GAMES, "the games are under way")
        procs[killed].send_signal(signal.SIGKILL)
        procs[killed].wait(timeout=10)
        await until(lambda: Paced.moves >= 6 * GAMES, "the games play on")
        drain = subprocess.run([*SCOPA, "admin", "--token-file", str(tmp_path / f"token-{ports[drained]}"), "drain",
                                f"127.0.0.1:{ports[drained]}"], cwd=ROOT, text=True, capture_output=True,
                               timeout=DEADLINE)
        assert drain.returncode == 0, drain.stdout + drain.stderr
        assert procs[drained].wait(timeout=DEADLINE) == 0
        results = await asyncio.wait_for(asyncio.gather(*playing), 240)
        journal: dict[str, tuple[int | None, tuple[int, ...]]] = {}

        async def every_end_journaled() -> bool:  # a game's end is stored just after it is told
            journal.update(await journaled_results(pg_url))
            return all(table in journal for table, _ in games)

        await until(every_end_journaled, "the journal holds every game's end")
        for (table, _), result in zip(games, results):
            assert result.reason != "abandoned", table
            assert journal[table] == (result.winner, result.totals), table
        took_over = (tmp_path / f"member-{ports[kept]}.log").read_text()
        assert "took over tables" in took_over
    finally:
        for session in sessions:
            await session.close()
        for maker in makers:
            maker.abort()
        for proc in procs:
            stop(proc, DEADLINE)
        for log in logs:
            log.close()
        await redis.aclose()


async def _count(redis: Redis, prefix: str, count: int) -> bool:
    return await members_of(redis, prefix) >= count


async def test_scopa_bot_connected_to_one_member_plays_at_a_table_of_another(redis_prefix: str, pg_url: str) -> None:
    a = NetworkEngine("127.0.0.1", 0, seed=1, db=pg_url,
                      cluster=ClusterOptions(url=SERVER, prefix=redis_prefix, shared_journal=True, member_ttl=30.0))
    b = NetworkEngine("127.0.0.1", 0, seed=2, db=pg_url,
                      cluster=ClusterOptions(url=SERVER, prefix=redis_prefix, shared_journal=True, member_ttl=30.0))
    await a.start()
    await b.start()
    try:
        maker, table = await table_made(a.port)
        await until(lambda: b.tables.remote.get(table) is not None, "B lists A's table")
        bot = await asyncio.create_subprocess_exec(
            *SCOPA, "bot", "--server", f"127.0.0.1:{b.port}", "--table", table, "--name", "pybot", cwd=ROOT,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))
        out, _ = await asyncio.wait_for(bot.communicate(), DEADLINE * 2)
        assert bot.returncode == 0, out.decode()
        assert f"table {table}" in out.decode()
        assert a.storage is not None
        await a.storage.flush()
        assert any(r.id == table and "pybot" in r.seats for r in await a.results())
        await maker.close()
    finally:
        await b.stop()
        await a.stop()
