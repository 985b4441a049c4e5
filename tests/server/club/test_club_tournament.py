"""Tournaments on a real server over loopback (PROTOCOL.md §16), their players bots
speaking the protocol: a Swiss tournament runs to its end by itself, its standings those
the pure core folds from the journaled results, each result the one its table journaled;
a player who does not come to their table within the grace period loses by forfeit.
Time is the server's fake clock."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from club_players import ClubPlayer, Server, final_standings
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.club import ClubOptions, TableOpened, decode, is_event
from scopa.server.journal.commands import AppendTournamentEvent, Journal, Request
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.tournament import Director, GameFinished, Phase, StandingRow
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 120


def rows_of(rows: Sequence[StandingRow | wire.StandingsRow]) -> list[tuple[object, ...]]:
    """Standings rows, the core's or the wire's, as comparable tuples."""
    return [(r.rank, r.entrant, r.match_points, r.buchholz, r.game_points, r.played, r.wins, r.draws, r.losses, r.byes)
            for r in rows]


async def journaled(storage: Journal, tournament: str) -> list[object]:
    """The tournament's records as the journal holds them, in order."""
    await storage.flush()
    rows = [r for r in await storage.tournament_events() if r[0] == tournament]
    assert [seq for _, seq, _, _ in rows] == list(range(len(rows)))
    return [decode(kind, data) for _, _, kind, data in rows]


def director_of(records: Sequence[object]) -> Director:
    return Director.rebuild([r for r in records if is_event(r)])  # type: ignore[misc]


async def create(player: ClubPlayer, **fields: object) -> str:
    fields.setdefault("format", wire.TournamentFormat.SWISS)
    player.send(wire.TournamentCreate(name="Coppa", **fields))  # type: ignore[arg-type]
    made = await player.until(lambda c: c.name in ("tournament_update", "error"))
    assert made.name == "tournament_update", made.body
    return str(made.body.tournament.id)


async def ada_and_bea(port: int, **fields: object) -> tuple[ClubPlayer, WireClient, str]:
    """ada (a :class:`ClubPlayer`) creates a tournament with ``fields``; she and bea (a bare
    client) join it."""
    ada = ClubPlayer("ada", Server(port))
    await ada.connect()
    tid = await create(ada, **fields)
    bea = await WireClient.connect(port, "bea")
    for c in (ada, bea):
        c.send(wire.TournamentJoin(tournament=tid))
    await bea.recv_until("tournament_update")
    return ada, bea, tid


async def test_a_swiss_tournament_of_nine_bots_runs_to_its_end_by_itself() -> None:
    clock = FakeClock()
    storage = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=11, clock=clock, storage=storage, club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            server = Server(engine.port)
            players = [ClubPlayer(f"p{i}", server, seed=i) for i in range(9)]
            for p in players:
                await p.connect()
            tid = await create(players[0], rounds=4, cap=9)
            for p in players:
                asked = p.send(wire.TournamentJoin(tournament=tid))
                await p.until(lambda c: c.re == asked)
            players[0].send(wire.TournamentStart(tournament=tid))
            finals = await asyncio.gather(*(p.until(final_standings) for p in players))
            assert engine.storage is not None
            records = await journaled(engine.storage, tid)
            director = director_of(records)
            assert director.state.phase is Phase.FINISHED and len(director.state.rounds) == 4
            assert all(len(r.games) == 4 and len(r.byes) == 1 for r in director.state.rounds)
            assert all(rows_of(f.body.rows) == rows_of(director.standings()) for f in finals)
            # each game's result is the one its table journaled (seat 0's side first)
            tables = {r.game: r.table for r in records if isinstance(r, TableOpened)}
            results = {t.id: t.totals for t in await engine.results(1000)}
            finished = [r for r in records if isinstance(r, GameFinished)]
            assert len(finished) == 16
            assert all(tuple(results[tables[g.game]]) == g.points for g in finished)
            # every player was seated by the server and played one game a round, but for its bye
            assert sorted(p.games for p in players) == [3] * 4 + [4] * 5
            for p in players:
                await p.close()
    finally:
        await engine.stop()


async def test_a_player_who_does_not_come_loses_by_forfeit() -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, storage=MemoryStorage(), club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            ada, bea, tid = await ada_and_bea(engine.port, rounds=1, cap=2, grace=30)
            await bea.close()  # and never comes back
            ada.send(wire.TournamentStart(tournament=tid))
            table = await ada.until(lambda c: c.name == "tournament_table")
            game = table.body.game
            assert table.body.grace_ms == 30_000 and {game.first, game.second} == {"ada", "bea"}
            assert table.body.seat == (0 if game.first == "ada" else 1)  # the first entrant sits at seat 0
            joined = await ada.until(lambda c: c.name == "joined")
            assert joined.body.table == table.body.table
            clock.advance(29.0)
            ada.send(wire.GetStandings(tournament=tid))
            live = await ada.until(lambda c: c.name == "tournament_standings" and c.re is not None)
            assert not live.body.final and all(r.played == 0 for r in live.body.rows)
            clock.advance(1.0)  # the grace period is over
            left = await ada.until(lambda c: c.name == "left")
            assert left.body.table == table.body.table and left.body.reason == "closed"
            final = await ada.until(final_standings)
            assert [(r.entrant, r.wins, r.losses, r.game_points) for r in final.body.rows] == [("ada", 1, 0, 0),
                                                                                                 ("bea", 0, 1, 0)]
            assert engine.storage is not None
            records = await journaled(engine.storage, tid)
            assert [type(r).__name__ for r in records if type(r).__name__ in ("Forfeited", "Finished")] == \
                ["Forfeited", "Finished"]
            await ada.close()
    finally:
        await engine.stop()


async def test_a_stranger_cannot_sit_at_a_tournament_table_and_creators_may_be_kept_few() -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, club=ClubOptions(creators=frozenset({"Ada"})))
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            cal = ClubPlayer("cal", Server(engine.port))
            await cal.connect()
            asked = cal.send(wire.TournamentCreate(name="Coppa", format=wire.TournamentFormat.SWISS, rounds=1, cap=2))
            refused = await cal.until(lambda c: c.re == asked)
            assert refused.name == "error" and refused.body.code == "not_allowed"
            ada, bea, tid = await ada_and_bea(engine.port, rounds=1, cap=2)
            await bea.close()
            ada.send(wire.TournamentStart(tournament=tid))
            table = (await ada.until(lambda c: c.name == "tournament_table")).body.table
            asked = cal.send(wire.JoinTable(table=table))
            refused = await cal.until(lambda c: c.re == asked)
            assert refused.name == "error" and refused.body.code == "no_such_table"
            cal.send(wire.ListTables())
            listed = await cal.until(lambda c: c.name == "tables")
            seats = next(t.seats for t in listed.body.tables if t.id == table)  # listed: anyone may watch
            assert sorted(seats, key=str) == [None, "ada"]  # bea's seat is kept for her
            for p in (ada, cal):
                await p.close()
    finally:
        await engine.stop()


async def test_a_player_who_leaves_a_game_loses_it() -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, storage=MemoryStorage(), club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            ada, bea, tid = await ada_and_bea(engine.port, rounds=1, cap=2)
            ada.send(wire.TournamentStart(tournament=tid))
            joined = await bea.recv_until("joined")
            await bea.recv_until("game_start")
            bea.send(wire.LeaveTable(table=joined.body.table))
            final = await ada.until(final_standings)
            rows = [(r.entrant, r.wins, r.losses) for r in final.body.rows]
            assert rows == [("ada", 1, 0), ("bea", 0, 1)]
            assert engine.storage is not None
            [finished] = [r for r in await journaled(engine.storage, tid) if isinstance(r, GameFinished)]
            bea_side = 0 if joined.body.seat == 0 else 1
            assert finished.points[bea_side] == 0 and finished.points[1 - bea_side] >= 1
            await bea.close()
            await ada.close()
    finally:
        await engine.stop()


async def test_a_tournament_starts_at_its_time_and_a_late_player_is_seated_when_they_come() -> None:
    """``starts_in``: the server starts it by itself; bea, away at the pairing, is seated as
    soon as she connects (within the grace period); cal, busy at another table, sits down
    with join_table once free."""
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, storage=MemoryStorage(), club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            server = Server(engine.port)
            ada = ClubPlayer("ada", server)
            await ada.connect()
            tid = await create(ada, rounds=1, cap=4, starts_in=600, grace=60)
            others = {n: await WireClient.connect(engine.port, n) for n in ("bea", "cal", "dan")}
            for c in (ada, *others.values()):
                c.send(wire.TournamentJoin(tournament=tid))
            for c in others.values():
                await c.recv_until("tournament_update")
            await others["bea"].close()  # away when the round is paired
            cal = others["cal"]
            cal.send(wire.CreateTable(fill_with_bots=["greedy"]))  # busy elsewhere
            busy = (await cal.recv_until("joined")).body.table
            clock.advance(599.0)
            ada.send(wire.GetStandings(tournament=tid))
            assert (await ada.until(lambda c: c.name == "tournament_standings")).body.rows[0].played == 0
            clock.advance(1.0)  # its start time
            paired = await ada.until(lambda c: c.name == "tournament_round")
            games = {p: g for g in paired.body.games for p in (g.first, g.second)}
            told = await cal.recv_until("tournament_table")  # told, not seated: cal is at a table
            cal.send(wire.LeaveTable(table=busy))
            await cal.recv_until("left")
            asked = cal.send(wire.JoinTable(table=told.body.table))
            sat = await cal.recv_until("joined")
            assert (sat.re, sat.body.table, sat.body.seat) == (asked, told.body.table, told.body.seat)
            clock.advance(30.0)
            bea = await WireClient.connect(engine.port, "bea")  # within the grace period
            table = await bea.recv_until("tournament_table")
            joined = await bea.recv_until("joined")
            assert joined.re is None and joined.body.table == table.body.table and table.body.grace_ms == 30_000
            assert (table.body.game.first, table.body.game.second) == (games["bea"].first, games["bea"].second)
            await bea.recv_until("game_start")  # her opponent was seated at once: the game begins
            for c in (ada, bea, cal, others["dan"]):
                await c.close()
    finally:
        await engine.stop()


class HeldJournal(MemoryStorage):
    """A journal that stores a tournament's events only once ``gate`` is open."""

    blocks = True

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        if any(isinstance(r, AppendTournamentEvent) for r in requests):
            self.gate.wait(SAFETY)
        return super().run_batch(requests)


async def test_nobody_hears_of_a_tournament_event_before_the_journal_holds_it() -> None:
    journal = HeldJournal()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, clock=FakeClock(), storage=journal, club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            ada = await WireClient.connect(engine.port, "ada")
            created = ada.send(wire.TournamentCreate(name="Coppa", format=wire.TournamentFormat.SWISS, rounds=1, cap=2))
            ada.send(wire.ListTables())  # answered at once, after the create was carried out
            first = await ada.recv_until("tables", "tournament_update")
            assert first.name == "tables"  # the create's answer waits for the journal
            journal.gate.set()
            update = await ada.recv_until("tournament_update")
            assert update.re == created and update.body.tournament.phase == "registering"
            await ada.close()
    finally:
        journal.gate.set()
        await engine.stop()
