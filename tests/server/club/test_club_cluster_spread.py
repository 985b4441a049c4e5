"""A tournament whose entrants are connected to two members of a cluster sharing one
PostgreSQL journal (PROTOCOL.md §7 "A cluster's lobby", §16): the member that does not
run it carries its players' joins and leaves to the one that does and gives back the
answers, answers its standings, and when a round is paired tells its players of their
table and sends them to it (``redirect``), where they are seated; the tournament ends
with the standings of the same tournament on one server alone (the same tournament
seed, the same players).  A player of the other member who never comes to their table
loses by forfeit once the grace period is over.  Time is the members' fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from club_members import ada_on_a, answer_to, two_members
from club_players import ClubPlayer, Server, final_standings, holding_round_two
from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_prefix  # noqa: F401 - the fixture
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage
from test_club_tournament import create, rows_of
from wire_client import WireClient

pytestmark = pytest.mark.integration

SEED = 7  # the club's: where the tournament's seed is drawn from
ROW = tuple[object, ...]


async def tournament(homes: Sequence[Server], hold: asyncio.Event | None = None,
                     ) -> tuple[str, list[ClubPlayer], list[asyncio.Future[Command]]]:
    """Players p0…p4 at ``homes``: p0 creates a Swiss tournament of 2 rounds (4 places),
    p0, p1, p2 join it, p4 joins and leaves, p3 joins, p0 starts it; its id, the players
    and each entrant's final standings to come.  ``hold``: p0 leaves its first turn of
    round 2 unanswered and sets it (club_players.holding_round_two)."""
    players = [ClubPlayer(f"p{i}", home, seed=i, hold=holding_round_two(hold) if i == 0 and hold is not None else None)
               for i, home in enumerate(homes)]
    for p in players:
        await p.connect()
    tid = await create(players[0], rounds=2, cap=4, grace=120)
    for p in players[:3]:
        assert (await answer_to(p, wire.TournamentJoin(tournament=tid))).name == "tournament_update"
    joined = await answer_to(players[4], wire.TournamentJoin(tournament=tid))
    assert joined.name == "tournament_update" and joined.body.tournament.entrants == ["p0", "p1", "p2", "p4"]
    left = await answer_to(players[4], wire.TournamentLeave(tournament=tid))
    assert left.name == "tournament_update" and left.body.tournament.entrants == ["p0", "p1", "p2"]
    assert (await answer_to(players[3], wire.TournamentJoin(tournament=tid))).name == "tournament_update"
    players[0].send(wire.TournamentStart(tournament=tid))
    return tid, players, [asyncio.ensure_future(p.until(final_standings)) for p in players[:4]]


async def alone() -> list[ROW]:
    """The final standings of the same tournament on one server of its own."""
    engine = NetworkEngine("127.0.0.1", 0, clock=FakeClock(), storage=MemoryStorage(), club=ClubOptions(seed=SEED))
    await engine.start()
    try:
        _, players, finals = await tournament([Server(engine.port)] * 5)
        rows = [rows_of((await f).body.rows) for f in finals]
        assert all(r == rows[0] for r in rows)
        for p in players:
            await p.close()
        return rows[0]
    finally:
        await engine.stop()


async def test_a_tournament_whose_players_are_on_two_members_ends_as_on_one_server(
        pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    async with two_members(pg_url, redis_prefix, ClubOptions(seed=SEED)) as (a, b, _):
        expected = await alone()
        at_a, at_b = Server(a.port), Server(b.port)
        tid, players, finals = await tournament([at_a, at_a, at_b, at_b, at_b])
        assert a.club is not None and b.club is not None
        assert tid in a.club.tournaments.directors and tid not in b.club.tournaments.directors
        rows = [rows_of((await f).body.rows) for f in finals]
        assert rows == [expected] * 4
        # p2 and p3 were sent from b to a: told of their table on b, then seated at a
        for p in players[2:4]:
            names = [c.name for c in p.seen]
            first = names.index("tournament_table")
            assert names[first + 1] == "redirect" and "joined" in names[first + 2:]
            assert p.games == 2
        reader = await WireClient.connect(b.port, "eve")  # the standings read on b
        reader.send(wire.GetStandings(tournament=tid))
        kept = (await reader.recv_until("tournament_standings")).body
        assert kept.final and rows_of(kept.rows) == expected
        for c in (*players, reader):
            await c.close()


async def bea_on_b(b: NetworkEngine, tid: str) -> WireClient:
    """bea, connected to B, joins ada's tournament (run by A)."""
    bea = await WireClient.connect(b.port, "bea")
    bea.send(wire.TournamentJoin(tournament=tid))
    await bea.recv_until("tournament_update")
    return bea


async def test_a_player_of_the_other_member_who_does_not_come_loses_by_forfeit(
        pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    async with two_members(pg_url, redis_prefix) as (a, b, clock):
        ada, tid = await ada_on_a(a)
        bea = await bea_on_b(b, tid)
        ada.send(wire.TournamentStart(tournament=tid))
        told = await bea.recv_until("tournament_table")  # on b, of her table on a
        sent = await bea.recv_until("redirect")
        assert sent.re is None and sent.body.table == told.body.table and sent.body.address.endswith(f":{a.port}")
        await bea.close()  # and never goes there
        await ada.until(lambda c: c.name == "joined")
        clock.advance(30.0)  # the grace period is over
        final = await ada.until(final_standings)
        assert [(r.entrant, r.wins, r.losses) for r in final.body.rows] == [("ada", 1, 0), ("bea", 0, 1)]
        await ada.close()


async def test_a_player_who_connects_to_the_other_member_in_time_is_sent_to_their_table(
        pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    async with two_members(pg_url, redis_prefix) as (a, b, clock):
        ada, tid = await ada_on_a(a)
        bea = await bea_on_b(b, tid)
        await bea.close()  # away when the round is paired
        ada.send(wire.TournamentStart(tournament=tid))
        table = (await ada.until(lambda c: c.name == "joined")).body.table
        clock.advance(10.0)
        bea = await WireClient.connect(b.port, "bea")  # back, on b, within the grace period
        told = await bea.recv_until("tournament_table")
        assert told.body.table == table and told.body.grace_ms == 20_000
        sent = await bea.recv_until("redirect")
        assert sent.body.table == table and sent.body.address.endswith(f":{a.port}")
        there = await WireClient.connect(a.port)
        assert (await there.hello("bea", ticket=sent.body.ticket)).name == "welcome"
        await bea.close()
        joined = await there.recv_until("joined")
        assert joined.re is None and joined.body.table == table
        await there.recv_until("game_start")
        for c in (ada, there):
            await c.close()
