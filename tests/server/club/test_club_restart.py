"""A tournament outlives a restart of its server (PROTOCOL.md §16): the server stops in
the middle of a round (one game held by a player who does not answer its turn), a new
server on the same journal (an SQLite file, or PostgreSQL) takes it up, the players come
back (to their seats with their tokens, or by name), and the tournament ends with the
standings the pure core folds from the journaled results; nothing journaled before the
restart is changed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from club_players import Server, entrants, join_all, start
from pg import pg_url  # noqa: F401 - the fixture
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.club import ClubOptions, TableOpened
from scopa.server.tournament import GameFinished, Phase
from test_club_tournament import create, director_of, journaled, rows_of

pytestmark = pytest.mark.process

SAFETY = 180


async def run_across_a_restart(db: str) -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=21, clock=clock, db=db, club=ClubOptions())
    await engine.start()
    held = asyncio.Event()

    try:
        async with asyncio.timeout(SAFETY):
            server = Server(engine.port)
            players = await entrants(server, 6, held)
            tid = await create(players[0], rounds=3, cap=6)
            await join_all(players, tid)
            playing = start(players, tid)
            await held.wait()
            assert engine.storage is not None
            before = await journaled(engine.storage, tid)
            director = director_of(before)
            assert director.state.current is not None and director.state.current.number == 2
            assert director.state.open_games()  # mid-round: p0's game at least is being played
            server.down()
            await engine.stop()
            engine = NetworkEngine("127.0.0.1", 0, seed=22, clock=clock, db=db, club=ClubOptions())
            await engine.start()
            server.again(engine.port)
            finals = await asyncio.gather(*playing)
            assert engine.storage is not None
            after = await journaled(engine.storage, tid)
            assert after[: len(before)] == before  # nothing journaled before the restart changed
            director = director_of(after)
            assert director.state.phase is Phase.FINISHED and len(director.state.rounds) == 3
            assert all(rows_of(f.body.rows) == rows_of(director.standings()) for f in finals)
            finished = [r for r in after if isinstance(r, GameFinished)]
            assert sorted(g.game for g in finished) == sorted(g.key for r in director.state.rounds for g in r.games)
            held_game = next(g for g in director.state.rounds[1].games if "p0" in g.sides)
            opened = [r.table for r in after if isinstance(r, TableOpened) and r.game == held_game.key]
            assert len(opened) == 1  # p0's game went on at its table after the restart
            results = {t.id: t.totals for t in await engine.results(1000)}
            assert tuple(results[opened[0]]) == next(g.points for g in finished if g.game == held_game.key)
            for p in players:
                await p.close()
    finally:
        await engine.stop()


async def test_a_tournament_goes_on_after_a_restart_sqlite(tmp_path: Path) -> None:
    await run_across_a_restart(str(tmp_path / "journal.db"))


async def test_a_tournament_goes_on_after_a_restart_postgres(pg_url: str) -> None:  # noqa: F811
    await run_across_a_restart(pg_url)
