"""A bot of ``scopa bot --tournament ID`` (cli/tournament.py ``play_tournament`` over a
:class:`~scopa.client.net.ClientSession`, in this process) connected to member B of a
cluster sharing one PostgreSQL journal, in a tournament that member A runs
(PROTOCOL.md §16): when its round is paired its table plays on A, and B tells it so
(``tournament_table``) and sends it there (``redirect``, ``re`` nil).  The session goes
on to A with the ticket by itself, is seated there on arrival, plays its game to the
end and has the final standings, in A's lobby.  Time is the members' fake clock."""

from __future__ import annotations

import asyncio

import pytest

from club_players import ClubPlayer, Server, final_standings
from pg import pg_url  # noqa: F401 - the fixture
from redis_server import SERVER, redis_prefix  # noqa: F401 - the fixture
from scopa.bots import make_bot
from scopa.cli.tournament import play_tournament
from scopa.client.net import ClientSession
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions
from scopa.server.cluster import ClusterOptions
from scopa.server.core.clock import FakeClock
from test_club_tournament import create

pytestmark = pytest.mark.integration

SAFETY = 60


def cluster_options(prefix: str) -> ClusterOptions:
    return ClusterOptions(url=SERVER, prefix=prefix, member_ttl=30.0, refresh=10.0, retry=1.0, timeout=2.0,
                          shared_journal=True, lease_ttl=300.0)


def registered(name: str) -> object:
    def seen(c: Command) -> bool:
        return isinstance(c.body, wire.TournamentUpdate) and name in c.body.tournament.entrants
    return seen


async def test_a_bot_on_another_member_follows_the_redirect_to_its_table_and_plays_its_game(
        pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    clock = FakeClock()
    a, b = [NetworkEngine("127.0.0.1", 0, seed=s, clock=clock, db=pg_url, cluster=cluster_options(redis_prefix),
                          club=ClubOptions(seed=7)) for s in (2, 3)]
    for engine in (a, b):
        await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            ada = ClubPlayer("ada", Server(a.port))
            await ada.connect()
            tid = await create(ada, rounds=1, cap=2, grace=30)
            asked = ada.send(wire.TournamentJoin(tournament=tid))
            assert (await ada.until(lambda c: c.re == asked)).name == "tournament_update"
            lines: list[str] = []
            async with await ClientSession.connect("127.0.0.1", b.port, "bea") as bea:
                bot = asyncio.ensure_future(play_tournament(bea, tid, make_bot("greedy", seed=1), lines.append))
                await ada.until(registered("bea"))  # carried from b to a, which runs it
                assert a.club is not None and tid in a.club.tournaments.directors
                ada.send(wire.TournamentStart(tournament=tid))
                ada_final = asyncio.ensure_future(ada.until(final_standings))  # ada plays meanwhile
                final = await bot
                assert final.final and final.tournament == tid
                assert sorted((r.entrant, r.played) for r in final.rows) == [("ada", 1), ("bea", 1)]
                assert (await ada_final).body.rows == final.rows
                table = next(c.body.table for c in ada.seen if isinstance(c.body, wire.Joined))
                assert [line.split(",")[0].split(":")[0] for line in lines if "table" in line] == [
                    f"seated at table {table}", f"game at table {table}"]  # at a's table, to its end
                assert (bea.host, bea.port) == ("127.0.0.1", a.port)  # went on to a, and stays in its lobby
                assert bea.table_id is None and bea.name == "bea"
                assert (await bea.standings(tid)).rows == final.rows  # a's lobby answers it
            await ada.close()
    finally:
        for engine in (a, b):
            await engine.stop()
