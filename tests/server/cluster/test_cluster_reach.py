"""Bots connected straight to a member of a cluster (no shared port in front) lose that
member mid-game, killed (kill -9) or drained (`scopa admin drain`): they find the other
members from their welcome (PROTOCOL.md §7, "Finding another member") or from their
own `--server HOST:PORT,HOST:PORT`, resume their seats there, and every game ends as
the shared PostgreSQL journal says.

Three `scopa serve` members share Redis and PostgreSQL; six `scopa bot` processes all
first connect to member A, where they pair up at three tables, and `scopa watch` watches
one of them from A; A goes once the three games are under way."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
from pathlib import Path

import pytest
from redis.asyncio import Redis

from pg import pg_url  # noqa: F401 - the fixture
from procs import ROOT, SCOPA, cluster_member, finish, scopa, scopa_bot, stop
from redis_server import SERVER, redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.protocol import TableState
from scopa.protocol import commands as wire
from ports import free_port
from test_cluster_failover import DEADLINE, journaled_results, members_of, until, welcomed

pytestmark = pytest.mark.process

PAIRS = 3
RESULT = re.compile(r"game 1/1 at table (\w+): (won|lost|no winner) \((\w+)\), totals \[([\d, ]+)\]")


async def _welcome_names(port: int, seed: str, ports: list[int]) -> bool:
    """Whether the welcome of the member at ``port`` names its seed first, then every member."""
    client = await welcomed(port, "looker")
    try:
        welcome = next(c.body for c in client.inbox if isinstance(c.body, wire.Welcome))
        return welcome.cluster[0] == seed and set(welcome.cluster) >= {f"127.0.0.1:{p}" for p in ports}
    finally:
        await client.close()


async def _playing_on(port: int, count: int) -> list[str]:
    """The games that play on the member at ``port`` (none until there are ``count``)."""
    client = await welcomed(port, "counter")
    try:
        client.send(wire.ListTables(state=TableState.PLAYING))
        tables = (await client.recv_until("tables")).body.tables
        here = [t.id for t in tables if t.member == f"127.0.0.1:{port}"]
        return here if len(here) >= count else []
    finally:
        await client.close()


async def _played(port: int, table: str, moves: int) -> None:
    """Watch ``table`` on the member at ``port`` until ``moves`` moves were announced."""
    client = await welcomed(port, f"watcher{table}")
    try:
        client.send(wire.WatchTable(table=table))
        await client.recv_until("snapshot")
        for _ in range(moves):
            await client.recv_until("played")
    finally:
        await client.close()


def _lines_until(proc: subprocess.Popen[str], text: str) -> str:
    """What ``proc`` printed up to the line with ``text`` (all it printed, if it ended first)."""
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if text in line:
            break
    return "".join(lines)


async def _three(redis: Redis, prefix: str) -> bool:
    return await members_of(redis, prefix) >= 3


@pytest.mark.parametrize("how", ["kill -9", "admin drain"])
async def test_bots_whose_member_goes_find_another_and_every_game_ends_as_the_journal_says(
        redis_prefix: str, pg_url: str, tmp_path: Path, how: str) -> None:
    redis = await redis_client()
    ports = [free_port() for _ in range(3)]
    seed = f"127.0.0.1:{ports[1]}"  # the operator's seed list of A (scopa serve --cluster-seeds)
    members = [cluster_member(p, SERVER, redis_prefix, pg_url, tmp_path, *(["--cluster-seeds", seed] if i == 0 else []))
               for i, p in enumerate(ports)]
    first = ports[0]
    bots: list[subprocess.Popen[str]] = []
    try:
        await until(lambda: _three(redis, redis_prefix), "the three members join the cluster")
        await until(lambda: _welcome_names(first, seed, ports), "A's welcome names its seed, then every member")
        # half the bots are given A alone (they learn the others from its welcome), half A and C
        bots = [scopa_bot(f"127.0.0.1:{first}" + (f",127.0.0.1:{ports[2]}" if i % 2 else ""),
                          "--name", f"bot{i}", "--delay", "0.05") for i in range(2 * PAIRS)]
        await until(lambda: _playing_on(first, PAIRS), "the bots' games begin on A")
        tables = await _playing_on(first, PAIRS)
        # a spectator of the first table, on A too
        bots.append(watch := scopa("watch", "--plain", "--server", f"127.0.0.1:{first}", "--table", tables[0],
                                   "--name", "viv"))
        seen = await asyncio.wait_for(asyncio.to_thread(_lines_until, watch, "Watching table"), DEADLINE)
        await asyncio.wait_for(asyncio.gather(*(_played(first, t, 3) for t in tables)), DEADLINE)
        if how == "kill -9":
            members[0].send_signal(signal.SIGKILL)
        else:
            drain = subprocess.run([*SCOPA, "admin", "--token-file", str(tmp_path / f"token-{first}"), "drain",
                                    f"127.0.0.1:{first}"], cwd=ROOT, text=True, capture_output=True,
                                   timeout=DEADLINE)
            assert drain.returncode == 0, drain.stdout + drain.stderr
        ends = await asyncio.gather(*(asyncio.to_thread(finish, bot) for bot in bots))
        status, watched = ends.pop()
        watched = seen + watched
        members[0].wait(timeout=DEADLINE)
        journal = await journaled_results(pg_url)
        told: dict[str, list[str]] = {}
        for status, out in ends:
            assert status == 0, out
            assert "connection lost" in out and "reconnected: back in table" in out, out
            found = RESULT.search(out)
            assert found is not None, out
            table, outcome, reason, totals = found.groups()
            assert reason != "abandoned", out
            winner, journaled = journal[table]
            assert journaled == tuple(int(x) for x in totals.split(",")), (out, journal[table])
            assert (winner is None) == (outcome == "no winner"), (out, journal[table])
            told.setdefault(table, []).append(outcome)
        assert len(told) == PAIRS
        assert status == 0 and watched.count("Game over") == 1, watched
        assert "Connection to the server lost" in watched and "Connected again" in watched, watched
        over = re.search(r"Game over \([\w ]+\): \w+ wins (\d+) – \w+ (\d+)", watched)  # the winner's points first
        assert over is not None and (int(over[1]), int(over[2])) == tuple(sorted(journal[tables[0]][1], reverse=True)), watched
        assert all(sorted(outcomes) in (["lost", "won"], ["no winner", "no winner"]) for outcomes in told.values())
        logs = [(tmp_path / f"member-{p}.log").read_text() for p in ports]
        if how == "admin drain":
            assert members[0].returncode == 0 and "gave back the leases of tables" in logs[0], logs[0]
        else:
            assert any("took over tables" in log for log in logs[1:]), logs[1:]
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.communicate()
        for member in members:
            await asyncio.to_thread(stop, member, DEADLINE)
        await redis.aclose()
