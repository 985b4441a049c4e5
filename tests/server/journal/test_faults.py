"""Bots through a fault-injecting proxy (tests/faultproxy.py): connections reset at random
moments in every phase (hello, lobby, creating or joining, waiting, the game, after it),
with latency, jitter and 1-byte slices; a server restarted behind it.  Every game must
finish, its journal must replay to the recorded result, and what each client reported
must be that result.  No table may be left ``waiting`` in the journal.

``SCOPA_FAULT_SEEDS`` (default 3) sets how many seeds the random-reset test runs;
``SCOPA_FAULT_SEEDS=300`` is the long run.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.client.console import botrunner, BotRunner
from scopa.client.game import GameResult
from scopa.client.net import LinkEvent, ClientSession
from scopa.engine import LocalGame, RuleSet, replay
from scopa.engine.actions import Action
from scopa.server import NetworkEngine
from scopa.server.journal.sqlite.movefile import moves_path, read_rows
from scopa.server.journal.memory.storage import MemoryStorage

from faultproxy import FaultProxy, Faults
from procs import SAFETY, stop
from ports import free_port

SEEDS = int(os.environ.get("SCOPA_FAULT_SEEDS", "3"))
GAMES = 2  # games each bot plays, one after the other: the "after a game" phase is crossed


@dataclass(frozen=True)
class Journaled:
    id: str
    rules: RuleSet
    seed: int
    status: str
    winner: int | None
    totals: tuple[int, ...]
    reason: str
    actions: list[Action]


def journal_of_memory(storage: MemoryStorage) -> list[Journaled]:
    out = []
    for tid, t in storage._tables.items():
        r = t.result
        out.append(Journaled(tid, t.rules, t.seed, t.status, r.winner if r else None,
                             tuple(r.totals) if r else (), r.reason if r else "", storage.load_actions(tid)))
    return out


def journal_of_sqlite(path: Path) -> list[Journaled]:
    from scopa.server.journal.sqlite.storage import SQLiteStorage

    db = sqlite3.connect(path)
    rows = db.execute("SELECT id, seed, status, winner, totals, reason FROM tables").fetchall()
    db.close()
    store = SQLiteStorage(str(path))
    results = {r.id: r for r in store.reads.load_results(10_000)}
    out = []
    for tid, seed, status, winner, totals, reason in rows:
        rules = results[tid].rules if tid in results else RuleSet()
        out.append(Journaled(tid, rules, int(seed), status, winner, tuple(results[tid].totals) if tid in results else (),
                             reason or "", store.reads.load_actions(tid)))
    store.close()
    return out


def check_against_journal(journal: Sequence[Journaled], reported: Sequence[GameResult], games: int) -> None:
    """Every table finished or closed; every finished game replays to its result; each
    client's result is the journal's; each game is one the clients played."""
    states = {j.id: j.status for j in journal}
    assert all(s in ("finished", "closed") for s in states.values()), states
    finished = {j.id: j for j in journal if j.status == "finished"}
    for j in finished.values():
        assert j.reason == "target", (j.id, j.reason)  # no game was abandoned or lost
        first = LocalGame(j.rules, [GreedyBot() for _ in range(j.rules.players)], j.seed).first_dealer
        again = replay(j.rules, first, j.actions)
        assert again.phase.value == "over" and again.winner == j.winner and tuple(again.totals) == j.totals
        assert again.end_reason is not None and again.end_reason.value == j.reason
    assert len(reported) == games
    for result in reported:
        j = finished[result.table]
        assert (result.winner, result.totals, result.reason) == (j.winner, j.totals, j.reason), result.table
    assert {r.table for r in reported} == set(finished)
    assert all(sum(1 for r in reported if r.table == t) == 2 for t in finished)  # both seats reported


async def run_bot(port: int, name: str, seed: int, games: int, events: list[LinkEvent],
                  reconnects: list[int] | None = None) -> list[GameResult]:
    # The first connection may be reset during its hello too: connect retries it.
    session = await ClientSession.connect("127.0.0.1", port, name, listener=events.append)
    session.first_backoff, session.max_backoff = 0.01, 0.2
    player = RandomBot(seed=seed) if seed % 2 else GreedyBot()
    try:
        return await BotRunner(session, player, games=games).run()
    finally:
        if reconnects is not None:
            reconnects.append(session.reconnects)
        await session.close()


async def match_through(faults: Faults, seed: int, games: int = GAMES) -> tuple[FaultProxy, list[LinkEvent]]:
    storage = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=seed, storage=storage)
    await engine.start()
    events: list[LinkEvent] = []
    try:
        async with FaultProxy(engine.port, faults, seed=seed) as proxy, asyncio.timeout(SAFETY):
            a, b = await asyncio.gather(run_bot(proxy.port, "ann", seed, games, events),
                                        run_bot(proxy.port, "bea", seed + 1, games, events))
    finally:
        await engine.stop()
    check_against_journal(journal_of_memory(storage), [*a, *b], 2 * games)
    return proxy, events


@pytest.fixture(autouse=True)
def quick_lobby_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot waiting at its table looks at the lobby every 0.05 s instead of every 1 s."""
    monkeypatch.setattr(botrunner, "LOBBY_POLL_SECONDS", 0.05)


RESETS = Faults(latency=0.001, jitter=0.002, reset_budget=(1, 6000), max_resets=6)


@pytest.mark.parametrize("seed", range(SEEDS))
async def test_bots_finish_every_game_through_resets_at_random_moments(seed: int) -> None:
    proxy, events = await match_through(RESETS, seed)
    assert proxy.stats.resets == 6  # every planned reset happened (the budgets are small)
    statuses = [e.status.value for e in events]
    assert "lost" in statuses and "reconnected" in statuses and "gave_up" not in statuses


async def test_bots_finish_through_one_byte_slices_and_latency() -> None:
    proxy, _ = await match_through(Faults(latency=0.002, jitter=0.003, slice_bytes=1), seed=77, games=1)
    assert proxy.stats.resets == 0 and proxy.stats.bytes_down > 1000


async def test_bots_finish_through_resets_landing_in_games_and_slices() -> None:
    faults = Faults(slice_bytes=1, reset_budget=(2000, 40_000), max_resets=4)
    proxy, _ = await match_through(faults, seed=5, games=1)
    assert proxy.stats.resets >= 1


# ---------------------------------------------------------------------- a server restart


def _serve(port: int, db: Path) -> subprocess.Popen[str]:
    from procs import ROOT, SCOPA

    return subprocess.Popen([*SCOPA, "serve", "--port", str(port), "--db", str(db)], cwd=ROOT, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR="1"))


async def _listening(port: int) -> None:
    for _ in range(400):
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            await asyncio.sleep(0.05)  # a child process starting: nothing else to wait on
    raise AssertionError("the server did not start")


def _journaled_plays(db: Path) -> int:
    """Actions in the journal: rows of its SQLite file and of its move file."""
    try:
        rows = len(read_rows(Path(moves_path(str(db))).read_bytes()))
    except FileNotFoundError:
        rows = 0
    try:
        con = sqlite3.connect(db)
        try:
            return rows + int(con.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return rows


@pytest.mark.parametrize("kill_at", [0, 40])
async def test_bots_finish_when_the_server_is_killed_and_restarted_behind_the_proxy(tmp_path: Path,
                                                                                      kill_at: int) -> None:
    """SIGKILL the server (at the lobby, early in the first game, later) and start it again
    on the same journal; the proxy adds latency and resets the links as the server dies."""
    port, db = free_port(), tmp_path / "scopa.db"
    server = _serve(port, db)
    events: list[LinkEvent] = []
    reconnects: list[int] = []
    try:
        await _listening(port)
        async with FaultProxy(port, Faults(latency=0.002, jitter=0.004), seed=kill_at) as proxy, \
                asyncio.timeout(SAFETY):
            bots = asyncio.gather(run_bot(proxy.port, "ann", 1, GAMES, events, reconnects),
                                  run_bot(proxy.port, "bea", 2, GAMES, events, reconnects))
            while _journaled_plays(db) < kill_at or proxy.stats.connections < 2:
                await asyncio.sleep(0.01)  # a condition on the journal, not a timing guess
            server.send_signal(signal.SIGKILL)
            server.wait(SAFETY)
            proxy.reset_all()
            server = _serve(port, db)
            a, b = await bots
    finally:
        stop(server, 10, signal.SIGINT)
    check_against_journal(journal_of_sqlite(db), [*a, *b], 2 * GAMES)
    assert len(reconnects) == 2 and min(reconnects) >= 1  # both bots lost the server and came back
