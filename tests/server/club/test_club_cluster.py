"""Quick play on a member of a cluster whose members share one PostgreSQL journal: the
table it opens is leased in Redis like any new table, so its game is journaled and
played there (a table without its lease would be given up at its first action)."""

from __future__ import annotations

import asyncio

import pytest

from pg import pg_url  # noqa: F401 - the fixture
from redis_server import SERVER, redis_prefix  # noqa: F401 - the fixture
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.club import ClubOptions
from scopa.server.cluster import ClusterOptions
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 30


async def test_a_quick_game_on_a_cluster_member_is_leased_and_played(pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    clock = FakeClock()
    cluster = ClusterOptions(url=SERVER, prefix=redis_prefix, member_ttl=30.0, refresh=1.0, retry=1.0, timeout=2.0,
                             shared_journal=True, lease_ttl=3.0)
    engine = NetworkEngine("127.0.0.1", 0, seed=2, clock=clock, db=pg_url, cluster=cluster, club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            ada, bea = [await WireClient.connect(engine.port, n) for n in ("ada", "bea")]
            for c in (ada, bea):
                c.send(wire.QuickPlay())
                await c.recv_until("quick_waiting")
            clock.advance(1.0)
            joined = [await c.recv_until("joined") for c in (ada, bea)]
            table = joined[0].body.table
            assert engine.cluster is not None and engine.cluster.leases is not None
            assert engine.cluster.leases.holds(table)
            asked = [asyncio.ensure_future(c.recv_until("your_turn")) for c in (ada, bea)]
            done, waiting = await asyncio.wait(asked, return_when=asyncio.FIRST_COMPLETED)
            for task in waiting:
                task.cancel()
            turn = done.pop().result()
            assert turn.sender == f"table:{table}"  # the game began and asks its first move
            for c in (ada, bea):
                await c.close()
    finally:
        await engine.stop()


async def test_every_member_lists_a_tournament_and_only_its_own_member_runs_it(pg_url: str,  # noqa: F811
                                                                              redis_prefix: str) -> None:  # noqa: F811
    """PROTOCOL.md §16: in a cluster sharing one journal every member lists a tournament
    and answers its standings; the one that does not run it carries a command to it to
    the member running it and gives back the answer (one to a tournament nobody has is
    ``no_such_tournament``)."""
    clock = FakeClock()
    cluster = ClusterOptions(url=SERVER, prefix=redis_prefix, member_ttl=30.0, refresh=10.0, retry=1.0, timeout=2.0,
                             shared_journal=True, lease_ttl=30.0)
    a, b = [NetworkEngine("127.0.0.1", 0, seed=s, clock=clock, db=pg_url, cluster=cluster, club=ClubOptions())
            for s in (2, 3)]
    for engine in (a, b):
        await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            ada = await WireClient.connect(a.port, "ada")
            bea = await WireClient.connect(b.port, "bea")
            ada.send(wire.TournamentCreate(name="Coppa", format=wire.TournamentFormat.SWISS, rounds=2, cap=4))
            tid = (await ada.recv_until("tournament_update")).body.tournament.id
            assert a.cluster is not None and a.cluster.tournament_leases is not None
            assert a.cluster.tournament_leases.holds(tid)
            bea.send(wire.TournamentList())
            assert [t.id for t in (await bea.recv_until("tournaments")).body.tournaments] == [tid]
            bea.send(wire.GetStandings(tournament=tid))
            assert (await bea.recv_until("tournament_standings")).body.tournament == tid
            asked = bea.send(wire.TournamentJoin(tournament=tid))
            joined = await bea.recv_until("tournament_update")
            assert joined.re == asked and joined.body.tournament.entrants == ["bea"]
            assert b.club is not None and tid not in b.club.tournaments.directors  # run by a only
            ada.send(wire.TournamentJoin(tournament=tid))  # on the member running it
            told = await bea.recv_until("tournament_update")  # told to its entrant on the other
            assert told.re is None and told.body.tournament.entrants == ["bea", "ada"]
            bea.send(wire.TournamentJoin(tournament="c999999"))
            assert (await bea.recv_until("error")).body.code is ErrorCode.NO_SUCH_TOURNAMENT
            for c in (ada, bea):
                await c.close()
    finally:
        for engine in (a, b):
            await engine.stop()
