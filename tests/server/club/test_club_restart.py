"""A tournament outlives a restart of its server (PROTOCOL.md §16): the server stops in
the middle of a round (one game held by a player who does not answer its turn), a new
server on the same journal (an SQLite file, or PostgreSQL) takes it up, the players come
back (to their seats with their tokens, or by name), and the tournament ends with the
standings the pure core folds from the journaled results; nothing journaled before the
restart is changed.  An entrant the running round gives no table (out of a knockout, or
a bye) who connects to the restarted server is told so again (``tournament_no_table``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from club_players import ClubPlayer, Server, entrants, holding_round_two, join_all, start
from pg import pg_url  # noqa: F401 - the fixture
from scopa.protocol import commands as wire
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


AbsentOf = Callable[[dict[int, wire.TournamentRound]], str]
"""Which entrant comes back, from the rounds paired so far."""


async def told_again_after_a_restart(db: str, fmt: wire.TournamentFormat, count: int, absent: AbsentOf,
                                     **fields: object) -> tuple[str, list[wire.TournamentNoTable]]:
    """``count`` players play a tournament until the first turn of round 2, which is held;
    the server stops and a new one starts on the same journal; the entrant ``absent``
    names (from the rounds paired) connects to the new server alone and asks
    for the standings.  Its name and the ``tournament_no_table`` it got before the answer."""
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=9, clock=clock, db=db, club=ClubOptions())
    await engine.start()
    held = asyncio.Event()
    finals: list[asyncio.Future[object]] = []
    players: list[ClubPlayer] = []
    try:
        async with asyncio.timeout(SAFETY):
            server = Server(engine.port)
            players = [ClubPlayer(f"p{i}", server, seed=i, hold=holding_round_two(held)) for i in range(count)]
            for p in players:
                await p.connect()
            tid = await create(players[0], format=fmt, cap=count, **fields)
            await join_all(players, tid)
            finals = list(start(players, tid))
            await held.wait()  # round 2 is under way, and stays so: nobody's clock runs
            rounds = {c.body.round: c.body for p in players for c in p.seen if isinstance(c.body, wire.TournamentRound)}
            name = absent(rounds)
            server.down()  # the others wait for a server that does not come back for them
            await engine.stop()
            engine = NetworkEngine("127.0.0.1", 0, seed=10, clock=clock, db=db, club=ClubOptions())
            await engine.start()
            back = ClubPlayer(name, Server(engine.port))
            await back.connect()
            asked = back.send(wire.GetStandings(tournament=tid))
            await back.until(lambda c: c.re == asked)
            await back.close()
            return name, [c.body for c in back.seen if isinstance(c.body, wire.TournamentNoTable)]
    finally:
        for f in finals:
            f.cancel()
        for p in players:
            await p.close()
        await engine.stop()


def a_loser_of_round_one(rounds: dict[int, wire.TournamentRound]) -> str:
    finalists = {n for g in rounds[2].games for n in (g.first, g.second)}
    return next(n for g in rounds[1].games for n in (g.first, g.second) if n not in finalists)


def the_bye_of_round_two(rounds: dict[int, wire.TournamentRound]) -> str:
    [bye] = rounds[2].byes
    return bye


async def test_a_knocked_out_entrant_is_told_again_by_a_restarted_server(tmp_path: Path) -> None:
    """A knockout of four: a loser of round 1, connecting only after the server restarted
    during the final, hears at once that it is out (round 1, who beat it, third place)."""
    name, told = await told_again_after_a_restart(str(tmp_path / "journal.db"), wire.TournamentFormat.KNOCKOUT,
                                                  4, a_loser_of_round_one)
    assert [(t.kind, t.round, t.place, t.name) for t in told] == [("knocked_out", 1, 3, "Coppa")]
    assert told[0].by is not None and told[0].by != name


async def test_a_bye_is_told_again_by_a_restarted_server(tmp_path: Path) -> None:
    """A Swiss tournament of three, two rounds: the entrant with round 2's bye, connecting
    only after the server restarted during that round, hears of its bye again."""
    _, told = await told_again_after_a_restart(str(tmp_path / "journal.db"), wire.TournamentFormat.SWISS, 3,
                                               the_bye_of_round_two, rounds=2)
    assert [(t.kind, t.round, t.points, t.by, t.place) for t in told] == [("bye", 2, 1.0, None, None)]
