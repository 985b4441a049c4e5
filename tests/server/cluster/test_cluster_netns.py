"""A cluster across two hosts, for real: two network namespaces of this test's own, ``A``
and ``B``, joined by a veth pair (10.214.S.1 and 10.214.S.2, addresses that exist only
in them), each running one `scopa serve --cluster ... --db postgresql://... --advertise`
member.  The players sit on host A, connected to A's member; their tables play on B's,
so every join is redirected across the link.  Mid-game, host B is cut off (its links
taken down): A's member takes B's tables over from the shared journal once their leases
run out in Redis, and the players, whose link to B went silent, go back to A and resume
there.  The plays a player was told of are the journal's, in order (a snapshot may
stand in for some it missed); each player's result is the journal's; B, cut off, gave
its tables up by itself.

Redis and PostgreSQL listen on the host's 127.0.0.1, which a namespace cannot reach:
each namespace gets a second veth pair to the root namespace (10.215.S.x for A, 10.216.S.x
for B), and this test relays TCP from the root side's address to the real servers
(`FaultProxy`, the project's relay, with no faults): no iptables NAT or route_localnet,
nothing on the host but the veth ends, and what a member sends passes through the test,
which can cut it.  The relay is also where host B's
cut reaches the servers: a cut host's connections die at the servers too (as their TCP
keepalive would find, later), so B's relayed connections are reset when its links go
down; B's own side of them just goes silent.

Both namespaces, the root side's veth ends and every process started in them are gone
after the test whatever happens.  Needs root and the `ip` command (iproute2)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit, urlunsplit

import pytest
from redis.asyncio import Redis

import pg
import redis_server
from faultproxy import FaultProxy
from pg import pg_url  # noqa: F401 - the fixture
from procs import ROOT, SCOPA
from redis_server import redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.engine import Play, cards_in
from scopa.server.journal.backends import open_storage
from test_cluster_failover import until
from test_lan_netns import require_namespaces

pytestmark = pytest.mark.process

DEADLINE = 60.0  # seconds: a safety net only; every wait below ends on what it waits for
GAMES = 4
PORT = 7015  # each member's, in its own namespace
ENV = dict(os.environ, NO_COLOR="1")


def moved(url: str, host: str, port: int) -> str:
    """``url`` with its host and port replaced (the user and the rest kept)."""
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=f"{user}{host}:{port}"))


class Hosts:
    """Namespaces ``a`` and ``b`` on one veth link, each with an uplink to the root
    namespace on which the relays to Redis and PostgreSQL listen."""

    def __init__(self, tmp: Path) -> None:
        self.tag = "c31" + secrets.token_hex(3)  # unique: other test runs make namespaces too
        self.a, self.b = self.tag + "a", self.tag + "b"
        taken = subprocess.run(["ip", "-o", "addr"], capture_output=True, text=True).stdout
        self.subnet = next(s for s in (1 + secrets.randbelow(254) for _ in range(1000))
                           if f"10.215.{s}." not in taken and f"10.216.{s}." not in taken)
        self.address = {self.a: f"10.214.{self.subnet}.1", self.b: f"10.214.{self.subnet}.2"}
        self.uplink = {self.a: f"10.215.{self.subnet}", self.b: f"10.216.{self.subnet}"}  # .1 in it, .254 root
        self.link_end = {self.a: self.tag + "la", self.b: self.tag + "lb"}
        self.up_end = {self.a: self.tag + "ua", self.b: self.tag + "ub"}
        self.tmp = tmp
        self.procs: list[tuple[str, subprocess.Popen[str]]] = []
        self.cut_off: set[str] = set()

    def ip(self, *args: str) -> None:
        done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=DEADLINE)
        assert done.returncode == 0, f"ip {' '.join(args)}: {done.stderr}"

    def create(self) -> None:
        for ns in (self.a, self.b):
            self.ip("netns", "add", ns)
            self.ip("-n", ns, "link", "set", "lo", "up")
        self.ip("link", "add", self.link_end[self.a], "type", "veth", "peer", "name", self.link_end[self.b])
        for ns in (self.a, self.b):
            end = self.link_end[ns]
            self.ip("link", "set", end, "netns", ns)
            self.ip("-n", ns, "addr", "add", f"{self.address[ns]}/24", "dev", end)
            self.ip("-n", ns, "link", "set", end, "up")
            inside, root = self.up_end[ns] + "n", self.up_end[ns]
            self.ip("link", "add", root, "type", "veth", "peer", "name", inside)
            self.ip("link", "set", inside, "netns", ns)
            self.ip("addr", "add", f"{self.uplink[ns]}.254/24", "dev", root)
            self.ip("link", "set", root, "up")
            self.ip("-n", ns, "addr", "add", f"{self.uplink[ns]}.1/24", "dev", inside)
            self.ip("-n", ns, "link", "set", inside, "up")

    def cut(self, ns: str) -> None:
        """``ns`` off the network: its link to the other host and its uplink down."""
        self.cut_off.add(ns)
        self.ip("-n", ns, "link", "set", self.link_end[ns], "down")
        self.ip("-n", ns, "link", "set", self.up_end[ns] + "n", "down")

    def start(self, ns: str, args: list[str], log: str | None = None) -> subprocess.Popen[str]:
        """A Python command run in ``ns``, its output to ``tmp/LOG`` or collected."""
        with contextlib.ExitStack() as files:
            out = files.enter_context(open(self.tmp / log, "w")) if log else subprocess.PIPE
            proc = subprocess.Popen(["ip", "netns", "exec", ns, *args], cwd=ROOT, text=True, env=ENV,
                                    stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.procs.append((ns, proc))
        return proc

    def stop(self) -> None:
        """Every process started: SIGTERM (a member drains), SIGKILL on a host cut off
        (it has nowhere to drain to) or after 10 s."""
        for ns, proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL if ns in self.cut_off else signal.SIGTERM)
        for _, proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def destroy(self) -> None:
        self.stop()
        for ns in (self.a, self.b):
            pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
            for pid in pids:  # anything started there and left behind
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
            subprocess.run(["ip", "link", "del", self.up_end[ns]], capture_output=True)  # if still there


@pytest.fixture
def hosts(tmp_path: Path) -> Iterator[Hosts]:
    require_namespaces()
    network = Hosts(tmp_path)
    try:
        network.create()
        yield network
    finally:
        network.destroy()


async def members(redis: Redis, prefix: str) -> int:
    return int(await redis.scard(f"{prefix}:members"))


async def journal_of(db: str, tables: list[str]) -> dict[str, tuple[tuple[int | None, list[int]], list[list[object]]]]:
    """Each table's result and plays as the journal has them."""
    storage = open_storage(db, None)
    assert storage is not None
    try:
        results = {r.id: (r.winner, list(r.totals)) for r in await storage.load_results(1000)}
        return {table: (results[table], [[a.card, sorted(int(c) for c in cards_in(a.capture))]
                                         for a in await storage.load_actions(table) if isinstance(a, Play)])
                for table in tables}
    finally:
        await storage.close()


def relay(server: str, host: str) -> FaultProxy:
    """A relay listening on ``host`` (a free port) to the server of the URL ``server``."""
    target = urlsplit(server)
    return FaultProxy(target.port or 0, listen_host=host, target_host=target.hostname or "127.0.0.1")


async def test_a_host_cut_off_mid_game_its_tables_go_on_on_the_other_host(
        hosts: Hosts, redis_prefix: str, pg_url: str) -> None:
    redis = await redis_client()
    relays: dict[str, tuple[FaultProxy, FaultProxy]] = {}
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(redis.aclose)
        urls: dict[str, tuple[str, str]] = {}
        for ns in (hosts.a, hosts.b):
            root = f"{hosts.uplink[ns]}.254"
            relays[ns] = (await stack.enter_async_context(relay(redis_server.SERVER, root)),
                          await stack.enter_async_context(relay(pg.SERVER, root)))
            urls[ns] = (moved(redis_server.SERVER, root, relays[ns][0].port), moved(pg_url, root, relays[ns][1].port))
        stack.callback(hosts.stop)  # (first) the members stop while Redis and PostgreSQL are still relayed
        for ns in (hosts.a, hosts.b):
            cluster, db = urls[ns]
            hosts.start(ns, [*SCOPA, "serve", "--host", hosts.address[ns], "--port", str(PORT),
                             "--advertise", f"{hosts.address[ns]}:{PORT}", "--cluster", cluster,
                             "--cluster-prefix", redis_prefix, "--db", db, "--no-announce",
                             "--admin-token-file", str(hosts.tmp / f"token-{ns}"),
                             "--max-connections-per-address", "none"], log=f"member-{ns}.log")
        await until(lambda: _both(redis, redis_prefix), "both members join the cluster", DEADLINE)

        a, b = f"{hosts.address[hosts.a]}:{PORT}", f"{hosts.address[hosts.b]}:{PORT}"
        players = hosts.start(hosts.a, [SCOPA[0], str(ROOT / "tests" / "netns_players.py"), "--maker", b,
                                        "--home", a, "--games", str(GAMES)])
        assert players.stdout is not None
        lines: list[str] = []
        reader = asyncio.create_task(asyncio.to_thread(_read_all, players.stdout, lines))
        await until(lambda: sum(line.startswith("under way") for line in lines) == GAMES or reader.done(),
                    "every game is under way", DEADLINE)
        assert not reader.done(), "\n".join(lines)
        tables = [line.split()[1] for line in lines if line.startswith("table ")]
        assert len(tables) == GAMES
        hosts.cut(hosts.b)
        cut_at = time.monotonic()  # the players' clock too: one CLOCK_MONOTONIC for every namespace
        for cut in relays[hosts.b]:
            cut.reset_all()

        try:
            await asyncio.wait_for(reader, DEADLINE * 2)
        except TimeoutError:
            pytest.fail(f"the players did not finish within {DEADLINE * 2} s of the cut:\n" + "\n".join(lines))
        assert players.wait(timeout=DEADLINE) == 0, "\n".join(lines)
        results = [json.loads(line.split(" ", 1)[1]) for line in lines if line.startswith("result ")]
        await until(lambda: _ended(pg_url, tables), "the journal has every game's result", DEADLINE)
        journal = await journal_of(pg_url, tables)
        for result in results:
            table = result["table"]
            assert result["sent_to"] == b and result["ended_at"] == a, result  # redirected to B; resumed on A
            assert result["reason"] != "abandoned", result
            (winner, totals), plays = journal[table]
            assert (result["winner"], result["totals"]) == (winner, totals), table
            assert in_order(result["played"], result["snapshots"], plays), (table, result["snapshots"])
        assert sorted(r["table"] for r in results) == sorted(tables)
        resumed = sorted(min(t for t, at in r["moves"] if at == a and t > cut_at) - cut_at for r in results)
        print(f"\ncut off: {resumed[0]:.2f} to {resumed[-1]:.2f} s from the cut to each player's first move on "
              f"the other host; {sum(len(r['played']) for r in results)} plays told, "
              f"{sum(len(journal[r['table']][1]) for r in results)} journaled, "
              f"snapshots after {[r['snapshots'] for r in results]} of them")
        took_over = (hosts.tmp / f"member-{hosts.a}.log").read_text()
        assert "took over tables" in took_over and "Traceback" not in took_over, took_over
        gave_up = (hosts.tmp / f"member-{hosts.b}.log").read_text()  # B stopped serving them on its own
        assert all(f"table {table}: given up" in gave_up for table in tables), gave_up


def in_order(told: list[list[object]], snapshots: list[int], plays: list[list[object]]) -> bool:
    """Whether the plays a player was ``told`` of are the journal's ``plays``, in order,
    where a snapshot (after ``snapshots[i]`` of them) may have stood in for some: each
    stretch between two snapshots is a run of the journal's plays, after the one before
    it, and the last one ends with the game's last play."""
    bounds = [0, *snapshots, len(told)]
    at = 0
    for start, end in zip(bounds, bounds[1:]):
        stretch = told[start:end]
        if not stretch:
            continue
        found = next((i for i in range(at, len(plays) - len(stretch) + 1) if plays[i:i + len(stretch)] == stretch), None)
        if found is None:
            return False
        at = found + len(stretch)
    return at == len(plays)


async def _ended(db: str, tables: list[str]) -> bool:
    storage = open_storage(db, None)
    assert storage is not None
    try:
        return set(tables) <= {r.id for r in await storage.load_results(1000)}
    finally:
        await storage.close()


async def _both(redis: Redis, prefix: str) -> bool:
    return await members(redis, prefix) >= 2


def _read_all(stream: IO[str], lines: list[str]) -> None:
    for line in stream:
        lines.append(line.rstrip("\n"))
