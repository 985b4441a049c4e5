"""A tournament outlives a kill -9 of its server (PROTOCOL.md §16): `scopa serve --db
FILE` is killed (SIGKILL) in the middle of a round, one game held by a player who does
not answer its turn; `scopa serve` on the same file takes the tournament up, the players
come back (to their seats with their tokens, or by name) and it ends with the standings
the pure core folds from the results the file holds."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import subprocess
from pathlib import Path

import pytest

from club_players import Server, entrants, join_all, killed_when_held, start
from procs import scopa, stop
from scopa.server.club import decode, is_event
from scopa.server.tournament import Director, GameFinished, Phase
from test_club_tournament import create, rows_of

pytestmark = pytest.mark.process

SAFETY = 180


async def serving(db: Path, tmp: Path) -> tuple[subprocess.Popen[str], int]:
    """`scopa serve` on a free port journaling to ``db``, and its port."""
    proc = scopa("serve", "--port", "0", "--db", str(db), "--admin-token-file", str(tmp / "token"))
    while True:
        line = await asyncio.to_thread(proc.stdout.readline)  # type: ignore[union-attr]
        assert line, "the server stopped before it listened"
        found = re.search(r"Scopa server on 127\.0\.0\.1:(\d+)", line)
        if found:
            return proc, int(found.group(1))


def journaled(db: Path, tournament: str) -> list[object]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq, kind, data FROM tournament_events WHERE tournament_id=? ORDER BY seq",
                            (tournament,)).fetchall()
    assert [seq for seq, _, _ in rows] == list(range(len(rows)))
    return [decode(kind, data) for _, kind, data in rows]


async def test_a_tournament_goes_on_after_its_server_is_killed(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    proc, port = await serving(db, tmp_path)
    held = asyncio.Event()

    try:
        async with asyncio.timeout(SAFETY):
            server = Server(port)
            players = await entrants(server, 4, held)
            tid = await create(players[0], rounds=3, cap=4)
            await join_all(players, tid)
            playing = start(players, tid)
            await killed_when_held(held, server, proc)
            before = journaled(db, tid)
            assert any(isinstance(r, GameFinished) and r.game.round == 1 for r in before)
            proc, port = await serving(db, tmp_path)
            server.again(port)
            finals = await asyncio.gather(*playing)
            after = journaled(db, tid)
            assert after[: len(before)] == before  # nothing journaled before the kill changed
            director = Director.rebuild([r for r in after if is_event(r)])  # type: ignore[misc]
            assert director.state.phase is Phase.FINISHED and len(director.state.rounds) == 3
            assert all(rows_of(f.body.rows) == rows_of(director.standings()) for f in finals)
            played = sorted(r.game for r in after if isinstance(r, GameFinished))
            assert played == sorted(g.key for r in director.state.rounds for g in r.games)  # each game once
            for p in players:
                await p.close()
    finally:
        stop(proc)
