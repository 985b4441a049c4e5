"""A tournament outlives the loss of the cluster member running it (PROTOCOL.md §16): two
`scopa serve` members share one PostgreSQL journal and a Redis this test starts; the
players of a Swiss tournament are spread over both (those of the member not running it
join, leave and are sent to their tables from there); the member running it is killed
(SIGKILL) in the middle of round 2, one game held by a player who does not answer its
turn; the other member takes the tournament's lease, rebuilds it from the journal and
carries on (the held game's table taken over with it), the players come back to it (to
their seats with their tokens, or by name), and the tournament ends with the standings
of the same tournament played on one server alone (the same tournament seed), which are
those the pure core folds from the journaled results, each game played once; a member
started afterwards answers those final standings from the journal."""

from __future__ import annotations

import asyncio
import re
import subprocess
import threading
from pathlib import Path

import pytest

from club_players import Server, killed_when_held
from pg import pg_url  # noqa: F401 - the fixture
from procs import scopa, stop
from redis_procs import RedisProcess
from scopa.protocol import commands as wire
from scopa.server.journal.backends import open_storage
from scopa.server.tournament import GameFinished, Phase
from scopa.server.club import TableOpened
from test_club_cluster_spread import SEED, alone, tournament
from test_club_tournament import director_of, journaled, rows_of
from wire_client import WireClient

pytestmark = pytest.mark.process

SAFETY = 240
PREFIX = "tc"


async def member(db: str, redis: str, tmp: Path, name: str) -> tuple[subprocess.Popen[str], int]:
    """`scopa serve` as a member of the cluster, and its port; its output is read on."""
    proc = scopa("serve", "--port", "0", "--db", db, "--cluster", redis, "--cluster-prefix", PREFIX,
                 "--no-announce", "--admin-token-file", str(tmp / f"token-{name}"), "--tournament-seed", str(SEED))
    while True:
        line = await asyncio.to_thread(proc.stdout.readline)  # type: ignore[union-attr]
        assert line, "the server stopped before it listened"
        found = re.search(r"Scopa server on 127\.0\.0\.1:(\d+)", line)
        if found:
            threading.Thread(target=proc.communicate, daemon=True).start()  # its pipe never fills
            return proc, int(found.group(1))


async def welcomed(port: int, name: str) -> WireClient:
    """A client of the member at ``port`` (its hello is unavailable until the member joined the cluster)."""
    while True:
        client = await WireClient.connect(port)
        if (await client.hello(name)).name == "welcome":
            return client
        await client.close()
        await asyncio.sleep(0.1)


async def listed(port: int, tid: str) -> list[str]:
    """The tournaments a member lists."""
    eve = await welcomed(port, "eve")
    try:
        eve.send(wire.TournamentList())
        got = await eve.recv_until("tournaments")
        return [t.id for t in got.body.tournaments]
    finally:
        await eve.close()


async def test_a_tournament_goes_on_after_the_member_running_it_is_killed(pg_url: str,  # noqa: F811
                                                                         tmp_path: Path) -> None:
    redis = RedisProcess(tmp_path)
    await redis.start()
    a, a_port = await member(pg_url, redis.url, tmp_path, "a")
    b, b_port = await member(pg_url, redis.url, tmp_path, "b")
    held = asyncio.Event()

    try:
        async with asyncio.timeout(SAFETY):
            expected = await alone()
            for port in (a_port, b_port):  # each member has joined the cluster
                await (await welcomed(port, "eve")).close()
            at_a, at_b = Server(a_port), Server(b_port)
            tid, players, playing = await tournament([at_a, at_a, at_b, at_b, at_b], hold=held)
            assert tid in await listed(b_port, tid)  # the other member lists it too
            await killed_when_held(held, at_a, a)
            storage = open_storage(pg_url, None)
            assert storage is not None
            try:
                before = await journaled(storage, tid)
                done = {r.game for r in before if isinstance(r, GameFinished)}
                assert any(g.round == 1 for g in done)
                assert not all(g.key in done for g in director_of(before).state.rounds[1].games)  # mid-round 2
                at_a.again(b_port)
                finals = await asyncio.gather(*playing)
                for p in players:
                    await p.close()
                stop(b)  # all it wrote is stored
                after = await journaled(storage, tid)
                assert after[: len(before)] == before  # nothing journaled before the kill changed
                director = director_of(after)
                assert director.state.phase is Phase.FINISHED and len(director.state.rounds) == 2
                assert [rows_of(f.body.rows) for f in finals] == [expected] * 4  # as on one server alone
                assert rows_of(director.standings()) == expected
                played = sorted(r.game for r in after if isinstance(r, GameFinished))
                assert played == sorted(g.key for r in director.state.rounds for g in r.games)  # each game once
                results = {r.id for r in await storage.load_results(1000)}
                for key in played:  # and at one table only
                    tables = {r.table for r in after if isinstance(r, TableOpened) and r.game == key}
                    assert len(tables & results) == 1, (key, tables, results)
                c, c_port = await member(pg_url, redis.url, tmp_path, "c")  # a member started afterwards
                try:
                    eve = await welcomed(c_port, "eve")
                    eve.send(wire.GetStandings(tournament=tid))
                    kept = (await eve.recv_until("tournament_standings")).body
                    assert kept.final and rows_of(kept.rows) == rows_of(director.standings())
                    await eve.close()
                finally:
                    stop(c)
            finally:
                await storage.close()
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                stop(proc)
        redis.stop()
