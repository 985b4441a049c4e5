"""A finished tournament is kept (PROTOCOL.md §16): ``tournament_list`` with ``finished``
lists it (the open listing no longer does), its final standings are read with
``get_standings`` after the end and after a restart of the server on the same journal,
and its games count for the ratings like any game between people."""

from __future__ import annotations

import asyncio
import pytest

from club_players import ClubPlayer, Server, join_all, start
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.club import ClubOptions
from scopa.server.journal.memory.storage import MemoryStorage
from test_club_tournament import create, rows_of

pytestmark = pytest.mark.integration

SAFETY = 120


async def listed(player: ClubPlayer, finished: bool) -> list[str]:
    asked = player.send(wire.TournamentList(finished=finished))
    reply = await player.until(lambda c: c.re == asked)
    assert reply.name == "tournaments", reply.body
    return [t.id for t in reply.body.tournaments]


async def standings(player: ClubPlayer, tid: str) -> wire.TournamentStandings:
    asked = player.send(wire.GetStandings(tournament=tid))
    reply = await player.until(lambda c: c.re == asked)
    assert reply.name == "tournament_standings", reply.body
    body = reply.body
    assert isinstance(body, wire.TournamentStandings)
    return body


async def test_a_finished_tournament_is_listed_rated_and_kept_after_a_restart() -> None:
    clock = FakeClock()
    # one journal for both servers; the players all reach them from 127.0.0.1: rated
    # against one another as people
    options = {"clock": clock, "storage": MemoryStorage(), "club": ClubOptions(), "rate_shared_addresses": ["127.0.0.1"]}
    engine = NetworkEngine("127.0.0.1", 0, seed=7, **options)  # type: ignore[arg-type]
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            server = Server(engine.port)
            players = [ClubPlayer(f"p{i}", server, seed=i) for i in range(4)]
            for p in players:
                await p.connect()
            tid = await create(players[0], rounds=2, cap=4)
            other = await create(players[0], rounds=1, cap=4)  # never started: still open
            await join_all(players, tid)
            finals = await asyncio.gather(*start(players, tid))
            final = rows_of(finals[0].body.rows)
            assert await listed(players[0], finished=False) == [other]
            assert await listed(players[0], finished=True) == [tid]
            after_end = await standings(players[0], tid)
            assert after_end.final and rows_of(after_end.rows) == final
            assert engine.storage is not None
            await engine.storage.flush()
            rated = await engine.storage.ratings("scopa", [p.name for p in players])
            assert sorted((n, r.games) for n, r in rated.items()) == [(p.name, 2) for p in players]
            assert sum(r.wins for r in rated.values()) == 4  # one winner of each of the 4 games
            for p in players:
                await p.close()
            server.down()
            await engine.stop()
            engine = NetworkEngine("127.0.0.1", 0, seed=8, **options)  # type: ignore[arg-type]
            await engine.start()
            server.again(engine.port)
            ada = ClubPlayer("ada", server)
            await ada.connect()
            assert await listed(ada, finished=True) == [tid]
            assert await listed(ada, finished=False) == [other]
            kept = await standings(ada, tid)
            assert kept.final and rows_of(kept.rows) == final and kept.round == 2
            await ada.close()
    finally:
        await engine.stop()

