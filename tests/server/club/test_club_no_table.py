"""What a round means for an entrant it gives no table (PROTOCOL.md §16,
``tournament_no_table``), on a real server over loopback with bots for players: in a
knockout the losers of a round hear, when the next round is paired, that they are out,
who beat them and their place, and the winners hear nothing of the kind; the best seeds'
byes are told as byes; the final's loser hears it too, and the winner their first place.
In a Swiss tournament the entrant with the bye is told so, and at the end every entrant
their final place.  Time is the server's fake clock."""

from __future__ import annotations

import asyncio

import pytest

from club_players import ClubPlayer, Server, holding_round_two, join_all, start
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage
from test_club_tournament import create

pytestmark = pytest.mark.integration

SAFETY = 120


def no_tables(player: ClubPlayer) -> list[wire.TournamentNoTable]:
    return [c.body for c in player.seen if isinstance(c.body, wire.TournamentNoTable)]


def round_tables(player: ClubPlayer) -> dict[int, wire.TournamentGame]:
    """Each round's last game the player was seated for, by round."""
    return {c.body.round: c.body.game for c in player.seen if isinstance(c.body, wire.TournamentTable)}


def paired_at(player: ClubPlayer, body: wire.Body) -> int:
    """The round paired last before ``body`` came to the player."""
    index = next(i for i, c in enumerate(player.seen) if c.body is body)
    return max(c.body.round for c in player.seen[:index] if isinstance(c.body, wire.TournamentRound))


async def run(count: int, fmt: wire.TournamentFormat, **fields: object) -> tuple[list[ClubPlayer], list[Command]]:
    """``count`` bots p0, p1 … play a tournament to its end; they and their final standings."""
    engine = NetworkEngine("127.0.0.1", 0, seed=9, clock=FakeClock(), storage=MemoryStorage(), club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            server = Server(engine.port)
            players = [ClubPlayer(f"p{i}", server, seed=i) for i in range(count)]
            for p in players:
                await p.connect()
            tid = await create(players[0], format=fmt, cap=count, **fields)
            await join_all(players, tid)
            finals = await asyncio.gather(*start(players, tid))
            for p in players:
                await p.close()
            return players, finals
    finally:
        await engine.stop()


async def test_a_knockout_tells_its_losers_they_are_out_and_its_byes_that_they_have_one() -> None:
    players, finals = await run(6, wire.TournamentFormat.KNOCKOUT)
    rank = {r.entrant: r.rank for r in finals[0].body.rows}
    first = [c.body for c in players[0].seen if isinstance(c.body, wire.TournamentRound) and c.body.round == 1][0]
    assert len(first.games) == 2 and len(first.byes) == 2  # six places of eight: the two best seeds go through
    for p in players:
        told = no_tables(p)
        assert all(t.name == "Coppa" for t in told)
        byes = [(t.round, t.points) for t in told if t.kind == "bye"]
        assert byes == ([(1, 1.0)] if p.name in first.byes else [])
        tables = round_tables(p)
        last = max(tables)
        game = tables[last]
        beaten_by = game.second if game.first == p.name else game.first
        out = [t for t in told if t.kind == "knocked_out"]
        if rank[p.name] == 1:  # never beaten: told it won
            assert out == [] and [(t.kind, t.place) for t in told if t.kind != "bye"] == [("finished", 1)]
            continue
        # beaten in its last round by its opponent there, and told once the next round was paired
        assert [(t.round, t.by) for t in out] == [(last, beaten_by)]
        assert [t.kind for t in told if t.kind != "bye"] == ["knocked_out"]
        place = out[0].place
        if last == 1:  # four are left after round 1: both its losers share fifth place
            assert place == 5 and paired_at(p, out[0]) == 2
        elif last == 2:
            assert place == 3 and paired_at(p, out[0]) == 3
        else:  # the final: second
            assert place == rank[p.name] == 2
    losers = [p.name for p in players if any(t.kind == "knocked_out" and t.round == 1 for t in no_tables(p))]
    assert len(losers) == 2  # one a game of round 1, and nobody else
    winners = [g.first if g.second in losers else g.second for g in first.games]
    assert sorted(winners + losers) == sorted(n for g in first.games for n in (g.first, g.second))


async def test_a_swiss_bye_is_told_and_every_entrant_hears_its_final_place() -> None:
    players, finals = await run(3, wire.TournamentFormat.SWISS, rounds=2)
    rank = {r.entrant: r.rank for r in finals[0].body.rows}
    rounds = {c.body.round: c.body for c in players[0].seen if isinstance(c.body, wire.TournamentRound)}
    for p in players:
        told = [(t.kind, t.round, t.points, t.place) for t in no_tables(p)]
        byes = [("bye", n, 1.0, None) for n in (1, 2) if p.name in rounds[n].byes]
        assert told == byes + [("finished", 2, None, rank[p.name])]
    assert all(len(r.byes) == 1 for r in rounds.values())


async def test_a_player_out_who_comes_back_is_told_again() -> None:
    """A loser of round 1 of a knockout of four, disconnected and back while the final is
    under way (held at its first turn), hears again at once that it is out."""
    engine = NetworkEngine("127.0.0.1", 0, seed=9, clock=FakeClock(), storage=MemoryStorage(), club=ClubOptions())
    await engine.start()
    held = asyncio.Event()
    try:
        async with asyncio.timeout(SAFETY):
            server = Server(engine.port)
            players = [ClubPlayer(f"p{i}", server, seed=i, hold=holding_round_two(held)) for i in range(4)]
            for p in players:
                await p.connect()
            tid = await create(players[0], format=wire.TournamentFormat.KNOCKOUT, cap=4)
            await join_all(players, tid)
            finals = start(players, tid)
            await held.wait()  # the final is under way, and stays so
            loser = next(p for p in players if any(t.kind == "knocked_out" for t in no_tables(p)))
            said = no_tables(loser)
            await loser.close()
            back = ClubPlayer(loser.name, server)
            await back.connect()
            asked = back.send(wire.GetStandings(tournament=tid))
            await back.until(lambda c: c.re == asked)
            assert no_tables(back) == said  # before the answer to its first question
            await back.close()
            for f in finals:
                f.cancel()
            for p in players:
                await p.close()
    finally:
        await engine.stop()
