"""Failover time of a cluster sharing one PostgreSQL journal: from kill -9 of the member
that serves a table to the first move answered on the member that takes it over.

    python benchmarks/cluster_failover.py [--runs 10] [--redis URL] [--db postgresql://...] [--loop uvloop]
                                          [--direct] [--pause]

Each run: member A is a ``scopa serve --cluster ... --db ...`` process, member B runs in
this process (the real clock).  A table of A (a person's seat against a bot); the person
is a client library session connected to B (sent to A by a ``redirect``) that answers
at once.  After three of its moves A is killed; the session finds A gone, goes back to
B, which serves the table once A's lease has run out (3 s) and B has looked (every
second), and the figure is the time from the kill to the person's first move on B.  Each run
has a fresh schema of the database and a key prefix of its own.  Prints every run and
the median (the figure; tests never assert it).  ``--loop uvloop`` runs both members on
uvloop, as ``scopa cluster`` does where it is installed.  ``--direct``: the person connects
straight to A, the member its table plays on (no other member in front); A's welcome
names B, where the session goes when A is gone.  ``--pause``: A is paused (SIGSTOP)
instead of killed: its connections stay open and silent, and the session notices by
its liveness check (PROTOCOL.md §7, "Liveness", "In a cluster").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from urllib.parse import quote

import psycopg
from redis.asyncio import Redis

from scopa.bots import make_bot
from scopa.cli import loops
from scopa.client.net import SessionError, ClientSession
from scopa.engine import Declare, Play, Player, View
from scopa.protocol.commands import TableInfo
from scopa.server import NetworkEngine
from scopa.server.cluster import ClusterOptions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Timed(Player):
    """A bot that notes when it chose each move and on which member (its session's port)."""

    def __init__(self, bot: Player, after: int) -> None:
        self.bot, self.after = bot, after
        self.session: ClientSession | None = None
        self.times: list[tuple[float, int]] = []
        self.reached = asyncio.Event()

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.times.append((time.monotonic(), self.session.port if self.session is not None else 0))
        if len(self.times) == self.after:
            self.reached.set()
        return await self.bot.choose(view, legal)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def one_run(redis: str, db: str, tmp: str, loop: str = "asyncio", direct: bool = False,
                  pause: bool = False) -> float:
    prefix = f"scopa-failover-{uuid.uuid4().hex[:10]}"
    b = NetworkEngine("127.0.0.1", 0, seed=2, db=db,
                      cluster=ClusterOptions(url=redis, prefix=prefix, shared_journal=True, member_ttl=30.0))
    await b.start()
    port = free_port()
    a = subprocess.Popen([sys.executable, "-m", "scopa.cli", "serve", "--port", str(port), "--db", db,
                          "--cluster", redis, "--cluster-prefix", prefix, "--no-announce",
                          "--admin-token-file", os.path.join(tmp, "token-{port}"), "--loop", loop],
                         cwd=ROOT, stdout=open(os.path.join(tmp, "a.log"), "w"), stderr=subprocess.STDOUT)
    try:
        maker, table = await _table_of(port)
        while b.tables.remote.get(table.id) is None:
            await asyncio.sleep(0.01)
        ann = await ClientSession.connect("127.0.0.1", port if direct else b.port, "ann")
        ann.first_backoff, ann.max_backoff = 0.02, 0.2
        await ann.join_table(table.id)
        if direct and f"127.0.0.1:{b.port}" not in {str(a) for a in ann.addresses.learned}:
            raise RuntimeError(f"A's welcome does not name B: {ann.addresses.learned}")
        player = Timed(make_bot("random", "ann", seed=6), after=3)
        player.session = ann
        playing = asyncio.create_task(ann.play_game(player))
        await asyncio.wait_for(player.reached.wait(), 30)
        a.send_signal(signal.SIGSTOP if pause else signal.SIGKILL)
        killed = time.monotonic()
        if not pause:
            a.wait()
        await asyncio.wait_for(playing, 60)
        await ann.close()
        await maker.close()
        return min(t for t, port in player.times if t > killed and port == b.port) - killed
    except Exception:
        print(open(os.path.join(tmp, "a.log")).read(), file=sys.stderr)
        raise
    finally:
        if a.poll() is None:
            a.kill()
            a.wait()
        await b.stop()
        await _forget(redis, prefix)


async def _forget(redis: str, prefix: str) -> None:
    """The run's keys out of Redis."""
    client = Redis.from_url(redis)
    keys = [key async for key in client.scan_iter(match=f"{prefix}:*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


async def _table_of(port: int) -> tuple[ClientSession, TableInfo]:
    """A session at member A and a table it made there (a person's seat free, a bot's
    taken), once A has joined the cluster (a hello or create_table is unavailable before,
    or while A cannot reach Redis)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            maker = await ClientSession.connect("127.0.0.1", port, "maker")
            try:
                return maker, await maker.create_table(fill_with_bots=["random"], sit=False)
            except BaseException:
                await maker.close()
                raise
        except (OSError, SessionError):  # not listening yet, or not in the cluster yet
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test",
                    help="a PostgreSQL database; each run uses a fresh schema of it")
    ap.add_argument("--loop", choices=loops.LOOPS, default="asyncio", help="both members' event loop")
    ap.add_argument("--direct", action="store_true",
                    help="the person connects straight to the member its table plays on (else to the other)")
    ap.add_argument("--pause", action="store_true", help="pause A (SIGSTOP) instead of killing it")
    args = ap.parse_args(argv)
    factory = loops.factory(loops.chosen(args.loop))
    figures = []
    for i in range(args.runs):
        schema = f"scopa_failover_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(args.db, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in args.db else "?"
        db = f"{args.db}{sep}options={quote(f'-csearch_path={schema}')}"
        try:
            with tempfile.TemporaryDirectory() as tmp:
                with asyncio.Runner(loop_factory=factory) as runner:
                    figure = runner.run(one_run(args.redis, db, tmp, args.loop, args.direct, args.pause))
        finally:
            with psycopg.connect(args.db, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        figures.append(figure)
        print(f"run {i + 1}: {figure:.2f} s from {'SIGSTOP' if args.pause else 'kill -9'} to the first move on "
              "the new member", flush=True)
    where = "clients connected to the member that dies" if args.direct else "clients connected to another member"
    print(f"failover ({where}), median of {len(figures)}: {statistics.median(figures):.2f} s "
          f"(min {min(figures):.2f}, max {max(figures):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
