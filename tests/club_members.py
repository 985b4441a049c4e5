"""Two members of a cluster sharing one PostgreSQL journal and the tests' Redis, on one
fake clock, for the tests of tournaments whose players are on both: member A creates
the tournament (so runs it), member B serves the players who connect there."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from club_players import ClubPlayer, Server
from redis_server import SERVER
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions
from scopa.server.cluster import ClusterOptions
from scopa.server.core.clock import FakeClock
from test_club_tournament import create

SAFETY = 60


def cluster_options(prefix: str) -> ClusterOptions:
    return ClusterOptions(url=SERVER, prefix=prefix, member_ttl=30.0, refresh=10.0, retry=1.0, timeout=2.0,
                          shared_journal=True, lease_ttl=300.0)


@asynccontextmanager
async def two_members(pg_url: str, prefix: str, club: ClubOptions | None = None,
                      ) -> AsyncIterator[tuple[NetworkEngine, NetworkEngine, FakeClock]]:
    """Members A and B, started, and their clock; the body runs within SAFETY seconds."""
    clock = FakeClock()
    a, b = [NetworkEngine("127.0.0.1", 0, seed=s, clock=clock, db=pg_url, cluster=cluster_options(prefix),
                          club=club or ClubOptions()) for s in (2, 3)]
    for engine in (a, b):
        await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            yield a, b, clock
    finally:
        for engine in (a, b):
            await engine.stop()


async def answer_to(player: ClubPlayer, body: wire.Body) -> Command:
    asked = player.send(body)
    return await player.until(lambda c: c.re == asked)


async def ada_on_a(a: NetworkEngine) -> tuple[ClubPlayer, str]:
    """ada, connected to A, creates a one-round tournament of two (grace 30 s) and joins it."""
    ada = ClubPlayer("ada", Server(a.port))
    await ada.connect()
    tid = await create(ada, rounds=1, cap=2, grace=30)
    assert (await answer_to(ada, wire.TournamentJoin(tournament=tid))).name == "tournament_update"
    return ada, tid
