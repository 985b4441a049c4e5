"""A tournament's word to an entrant without a table (PROTOCOL.md §16,
``tournament_no_table``) reaches it on the member of a cluster it is connected to: ada,
on member A, creates a Swiss tournament of one round that A runs; bea, cal and dan,
connected to member B, enter it.  The one with the bye stays on B all along (the two
others are sent to their table on A) and hears there of its bye and, at the end, of its
final place; every entrant hears its final place."""

from __future__ import annotations

import asyncio

import pytest

from club_members import answer_to, two_members
from club_players import ClubPlayer, Server, final_standings
from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_prefix  # noqa: F401 - the fixture
from scopa.protocol import commands as wire
from scopa.server.club import ClubOptions
from test_club_tournament import create

pytestmark = pytest.mark.integration


async def test_an_entrant_on_another_member_hears_of_its_bye_and_its_place(
        pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    async with two_members(pg_url, redis_prefix, ClubOptions(seed=7)) as (a, b, _):
        ada = ClubPlayer("ada", Server(a.port))
        await ada.connect()
        tid = await create(ada, rounds=1, cap=3)
        players = [ClubPlayer(name, Server(b.port), seed=i) for i, name in enumerate(("bea", "cal", "dan"))]
        for p in players:
            await p.connect()
            assert (await answer_to(p, wire.TournamentJoin(tournament=tid))).name == "tournament_update"
        assert a.club is not None and tid in a.club.tournaments.directors  # A runs it
        ada.send(wire.TournamentStart(tournament=tid))
        finals = await asyncio.gather(*(p.until(final_standings) for p in players))
        rank = {r.entrant: r.rank for r in finals[0].body.rows}
        paired = next(c.body for c in players[0].seen if isinstance(c.body, wire.TournamentRound))
        [bye] = paired.byes
        for p in players:
            told = [(t.kind, t.round, t.points, t.place, t.name) for t in
                    (c.body for c in p.seen if isinstance(c.body, wire.TournamentNoTable))]
            byes = [("bye", 1, 1.0, None, "Coppa")] if p.name == bye else []
            assert told == byes + [("finished", 1, None, rank[p.name], "Coppa")]
        stayed = next(p for p in players if p.name == bye)
        assert not any(isinstance(c.body, wire.Redirect) for c in stayed.seen)  # on B all along: told from A through B
        for p in (ada, *players):
            await p.close()
