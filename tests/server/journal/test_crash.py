"""Persistence: journal before acknowledgement, restore after a stop, and the crash
test (the server process killed with SIGKILL at chosen journal positions and restarted)."""

from __future__ import annotations

import asyncio

from scopa.bots import RandomBot
from scopa.engine import CARDS, Play, replay
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire
from scopa.server import NetworkEngine
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.journal.commands import LoadActions, LoadResults, LoadUnfinished, is_postgres
from scopa.server.journal.postgres.storage import PostgresStorage
from scopa.server.journal.sqlite.storage import SQLiteStorage, StorageError, decode_action

from wire_client import WireClient
from paths import TESTS


class FailingStorage(MemoryStorage):
    """Refuses to journal the ``fail_at``-th Play (counting from 1)."""

    def __init__(self, fail_at: int) -> None:
        super().__init__()
        self.fail_at = fail_at
        self.plays = 0

    def append_encoded(self, table_id, index, encoded) -> None:  # type: ignore[override]
        if isinstance(decode_action(encoded), Play):
            self.plays += 1
            if self.plays == self.fail_at:
                raise StorageError("disk full (test)")
        super().append_encoded(table_id, index, encoded)


async def test_a_play_that_cannot_be_journaled_is_never_announced() -> None:
    storage = FailingStorage(fail_at=7)
    engine = NetworkEngine("127.0.0.1", 0, seed=11, storage=storage)
    await engine.start()
    try:
        a = await WireClient.connect(engine.port, "ada")
        table = await a.create(bots=["greedy"])
        events = await a.play_game(RandomBot(seed=2))
        played = [c.body for c in events if isinstance(c.body, wire.CardPlayed)]
        assert events[-1].body.reason == "abandoned"  # the table ends; nothing unjournaled was told
        [stored] = [t for t in storage._tables.values()]
        journaled = [x for x in map(decode_action, stored.actions) if isinstance(x, Play)]
        assert len(journaled) == 6 and len(played) == 6
        assert [p.card for p in played] == [str(CARDS[x.card]) for x in journaled]
        # The in-memory game applied the 7th play, but it was not acknowledged to anyone.
        assert sum(isinstance(x, Play) for x in engine.tables[table].master.actions) == 7
        assert stored.status == "finished" and stored.result is not None and stored.result.reason == "abandoned"
        await a.close()
    finally:
        await engine.stop()


async def test_bot_game_restored_from_a_cut_journal_runs_to_the_end(tmp_path) -> None:
    """A journal cut mid-game (as a crash leaves it) is replayed from its seed and the
    table plays on to the end; the stored log replays to the final state."""
    path = str(tmp_path / "bots.db")
    full = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, storage=full)
    await engine.start()
    a = await WireClient.connect(engine.port, "ada")
    tid = await a.create(bots=["random", "greedy"], sit=False)
    master = engine.tables[tid].master
    await engine.tables[tid].task
    await a.close()
    await engine.stop()
    [record] = [t for t in full._tables.values()]
    assert record.status == "finished"

    # Cut the journal after 17 actions: a playing table of four bots.
    db = SQLiteStorage(path)
    db.writes.create_table(tid, master.rules, master.seed)
    for seat, st in record.seats.items():
        db.writes.set_seat(tid, seat, st.name, bot=st.bot)
    db.writes.start_table(tid)
    cut = [decode_action(x) for x in record.actions[:17]]
    for i, act in enumerate(cut):
        db.writes.append_action(tid, i, act)
    db.close()

    again = NetworkEngine("127.0.0.1", 0, seed=6, db=path)
    await again.start()
    try:
        table = again.tables[tid]
        await table.task
        st = table.master.state
        assert table.master.actions[:17] == cut and st.phase.value == "over"
        again_state = replay(table.rules, table.master.first_dealer, table.master.actions)
        assert again_state.totals == st.totals and again_state.history == st.history
        # Ids go on after the restored one.
        b = await WireClient.connect(again.port, "bob")
        assert int(await b.create(bots=["random"])) == int(tid) + 1
        await b.close()
    finally:
        await again.stop()
    check = SQLiteStorage(path)
    [result] = [r for r in check.reads.load_results() if r.id == tid]
    assert check.reads.load_unfinished() == [] or all(t.id != tid for t in check.reads.load_unfinished())
    assert list(result.totals) == st.totals and result.winner == st.winner
    assert check.reads.load_actions(tid) == table.master.actions  # journaled on from action 17
    assert check.integrity_check() == "ok"
    check.close()


# ---------------------------------------------------------------------- the crash test
#
# Each server process is tests/crash_server.py: a journaled server whose journal writer
# kills it (and itself) with SIGKILL at a chosen journal position (right after the n-th
# action of its bot games is committed), with a fixed seed and a clock that never moves.  Every kill point is a journal
# position and every wait ends on a message or on the process ending, so the test runs
# the same however busy the machine is.

import fcntl  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import sqlite3  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import psycopg  # noqa: E402
import pytest  # noqa: E402

from scopa.engine import LocalGame, GameState  # noqa: E402
from scopa.engine.cards import cards_in  # noqa: E402
from scopa.server.journal.sqlite.movefile import moves_path  # noqa: E402

from pg import pg_url  # noqa: E402,F401 - the fixture

CRASH_SERVER = TESTS / "crash_server.py"
SAFETY = 120.0  # a safety net only: every wait ends on a message or on the process ending
BOT_TABLES_PER_LIFE = 2
MIN_BOT_GAME = 36  # plays in one round of a two-seat game: no game is shorter
"""The kill point is at most this many bot actions into a life, so it always comes."""


class ServerProcess:
    """A crash_server.py child: journaled to ``db``, killed at ``kill_at`` (0: never)."""

    def __init__(self, proc: asyncio.subprocess.Process, port: int, stderr: Path) -> None:
        self.proc = proc
        self.port = port
        self.stderr = stderr

    @classmethod
    async def start(cls, db: str, seed: int, kill_at: int, count_from: int, stderr: Path) -> ServerProcess:
        with stderr.open("wb") as err:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(CRASH_SERVER), db, str(seed), str(kill_at), str(count_from),
                stdout=asyncio.subprocess.PIPE, stderr=err)
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        assert line.strip().isdigit(), f"server did not start: {stderr.read_text()[-2000:]}"
        return cls(proc, int(line), stderr)

    async def connect(self, name: str | None) -> WireClient:
        client = await WireClient.connect(self.port)
        if name is not None:
            reply = await client.hello(name)
            assert reply.name == "welcome", reply
        return client

    async def ended(self) -> int:
        """The process's exit status once it has ended (-SIGKILL: killed at its journal position)."""
        return await self.proc.wait()

    def kill(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()


def _journal_plays(stored_rules, seed: int, actions) -> list[tuple[int, str, list[str]]]:
    """(seat, card, captured) of every play in a journal, checking its deals follow the seed."""
    gm = LocalGame(stored_rules, [RandomBot()] * stored_rules.players, seed)
    gm.restore(actions)
    s = GameState.new(stored_rules, gm.first_dealer)
    out = []
    for a in actions:
        if isinstance(a, Play):
            out.append((s.to_move, str(CARDS[a.card]), [str(c) for c in cards_in(a.capture)]))
        s.apply(a, None if not isinstance(a, Play) else s.to_move)
    return out


class RemotePlayer:
    """A remote seat that records every `played` acknowledgement it receives, and comes
    back after a restart with its seat token (hello resume)."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed=seed)
        self.client: WireClient | None = None
        self.table: str | None = None
        self.token = ""
        self.rules = None
        self.last_event = 0
        self.lives: list[list[tuple[int, str, list[str]]]] = []  # acks, per server process
        self.over = False

    async def sit(self, server: ServerProcess) -> None:
        self.client = await server.connect("ada")
        self.table = await self.client.create(bots=["greedy"])
        self.token = next(c.body.token for c in self.client.inbox if isinstance(c.body, wire.Joined))
        self.lives.append([])

    async def resume(self, server: ServerProcess) -> None:
        self.client = await server.connect(None)
        self.client.send(wire.Hello(name="ada", resume=wire.ResumeRequest(token=self.token,
                                                                          last_event=self.last_event)))
        reply = await self.client.recv()
        assert reply.name == "welcome", reply
        self.client.table = self.table
        self.lives.append([])

    async def play(self, stop_after: int | None, stop_after_send: bool = False) -> None:
        """Play, recording acks; return after ``stop_after`` acks in this life (or right
        after sending the next own play), or at the game's end."""
        from scopa.protocol.convert import action_to_wire, legal_from_wire, view_from_wire

        acks = self.lives[-1]
        while True:
            cmd = await self.client.recv()
            body = cmd.body
            if isinstance(body, wire.TableEvent):
                self.last_event = max(self.last_event, body.event)
            if isinstance(body, wire.GameStart):
                self.rules = rules_from_wire(body.rules)
            elif isinstance(body, wire.Snapshot):
                self.rules = rules_from_wire(body.table.rules)
            elif isinstance(body, wire.CardPlayed):
                acks.append((body.seat, body.card, list(body.captured)))
                if stop_after is not None and len(acks) >= stop_after and not stop_after_send:
                    return
            elif isinstance(body, wire.YourTurn):
                action = await self.bot.choose(view_from_wire(body.view, self.rules), legal_from_wire(body))
                self.client.send(action_to_wire(action), recipient=f"table:{self.table}", re=cmd.seq)
                if stop_after is not None and len(acks) >= stop_after and stop_after_send:
                    return
            elif isinstance(body, wire.GameEnd):
                self.over = True
                return

    def check_against(self, journal_plays: list) -> None:
        """Every acknowledged play is in the journal, in order; within one server process
        the acks are consecutive journal plays."""
        pos = 0
        for life in self.lives:
            if not life:
                continue
            start = next((k for k in range(pos, len(journal_plays) - len(life) + 1)
                          if journal_plays[k:k + len(life)] == life), None)
            assert start is not None, f"acknowledged plays {life} are not (in order) in the journal"
            pos = start + len(life)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_crash_kill_9_at_chosen_journal_positions_loses_no_acknowledged_play(
        tmp_path, backend: str, request: pytest.FixtureRequest) -> None:
    """Four server processes, each killed with SIGKILL at a seeded journal position in the
    middle of its bot games, then a fifth that plays every cut game to its end: no play
    a client heard of is missing from the journal, and every game replays from its seed.
    Against the SQLite file and against PostgreSQL."""
    db = str(tmp_path / "crash.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    rng = random.Random(20240607)
    ada = RemotePlayer(seed=7)
    cut_bot_tables: set[str] = set()  # bot tables unfinished when a kill came
    mid_game: set[str] = set()  # ... with part of their game journaled
    async with asyncio.timeout(SAFETY):
        for life in range(4):
            # The kill comes inside this life's new bot games (numbered count_from on; in
            # the first life ada's table is number 1), right after a journal commit.
            count_from = _last_table_number(db) + 1 + (1 if life == 0 else 0)
            kill_at = rng.randint(1, BOT_TABLES_PER_LIFE * (MIN_BOT_GAME - 1))
            server = await ServerProcess.start(db, 1000 + life, kill_at, count_from, tmp_path / f"life{life}.err")
            try:
                if life == 0:
                    await ada.sit(server)
                    assert ada.table == "1"
                else:
                    await ada.resume(server)
                await ada.play(stop_after=rng.randint(2, 25), stop_after_send=rng.random() < 0.5)
                # Bot games (server-side bots only) in full swing when the kill comes; it
                # may come before the server has answered, or even read, every request.
                feeder = await server.connect("feeder")
                for _ in range(BOT_TABLES_PER_LIFE):
                    feeder.send(wire.CreateTable(fill_with_bots=["random", "greedy"], sit=False))
                status = await server.ended()
                assert status == -signal.SIGKILL, f"exit {status}: {server.stderr.read_text()[-2000:]}"
            finally:
                server.kill()
            # The server is dead, and once its journal's process (killed too) lets go of the
            # move file, what the journal holds is all the next one will know.
            await asyncio.to_thread(_wait_for_the_journal_process, db)
            check = _open(db)
            try:
                unfinished = {t.id: t for t in await check.load_unfinished()}
                stored = unfinished.get(ada.table)
                if stored is not None:
                    ada.check_against(_journal_plays(stored.rules, stored.seed, stored.actions))
                cut = {t_id for t_id, t in unfinished.items() if t_id != ada.table and t.status == "playing"}
                cut_bot_tables |= cut
                mid_game |= {t_id for t_id, t in unfinished.items() if t_id != ada.table and t.actions}
                assert any(int(t_id) >= count_from and unfinished[t_id].actions for t_id in cut), \
                    "the kill did not cut a bot game of this life mid-way"
            finally:
                await check.close()
            assert not ada.over, "the remote game ended before the last kill; use later kill points"

        # A last process: the remote player comes back and plays to the end; every cut
        # bot game is restored and played to its end by the server's bots; then the
        # process stops by itself.
        server = await ServerProcess.start(db, 2000, 0, 0, tmp_path / "last.err")
        try:
            await ada.resume(server)
            await ada.play(stop_after=None)
            await ada.client.close()
            status = await server.ended()
            assert status == 0, f"exit {status}: {server.stderr.read_text()[-2000:]}"
        finally:
            server.kill()
    assert ada.over and mid_game
    check = _open(db)
    try:
        assert await check.load_unfinished() == []
        results = {r.id: r for r in await check.load_results(1000)}
        for t_id in cut_bot_tables | {ada.table}:
            r = results[t_id]
            actions = await check.load_actions(t_id)
            plays = _journal_plays(r.rules, _seed_of(db, t_id), actions)  # deals follow from the seed
            final = replay(r.rules, _first_dealer(r.rules, _seed_of(db, t_id)), actions)
            assert final.phase.value == "over" and list(r.totals) == final.totals and r.winner == final.winner
            if t_id == ada.table:
                ada.check_against(plays)
                assert r.reason == "target"
    finally:
        await check.close()


def _open(db: str) -> Any:
    """The journal, to check it (an SQLite file checked whole first)."""
    if is_postgres(db):
        return Check(PostgresStorage(db))
    check = SQLiteStorage(db)
    assert check.integrity_check() == "ok"
    return Check(check)


class Check:
    """The reads the checks make, on either journal (PostgreSQL's awaited on the test's loop)."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend

    async def _one(self, request: Any) -> Any:
        if isinstance(self.backend, PostgresStorage):
            [result] = await self.backend.run_batch([request])
        else:
            [result] = self.backend.run_batch([request])
        if isinstance(result, BaseException):
            raise result
        return result

    async def load_unfinished(self) -> Any:
        return await self._one(LoadUnfinished())

    async def load_results(self, limit: int) -> Any:
        return await self._one(LoadResults(limit))

    async def load_actions(self, table_id: str) -> Any:
        return await self._one(LoadActions(table_id))

    async def close(self) -> None:
        if isinstance(self.backend, PostgresStorage):
            await self.backend.close()
        else:
            self.backend.close()


def _wait_for_the_journal_process(db: str) -> None:
    """Until no process holds the journal's move file (its lock is free)."""
    if is_postgres(db):
        return
    try:
        fd = os.open(moves_path(db), os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # waits for the holder to end
    finally:
        os.close(fd)


def _last_table_number(db: str) -> int:
    """The highest table number in the journal (0: none yet, or no journal)."""
    if is_postgres(db):
        with psycopg.connect(db) as conn:
            if conn.execute("SELECT to_regclass('tables')").fetchone() == (None,):
                return 0
            row = conn.execute("SELECT COALESCE(MAX(num), 0) FROM tables").fetchone()
            return int(row[0]) if row else 0
    if not Path(db).exists():
        return 0
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COALESCE(MAX(num), 0) FROM tables").fetchone()[0]
    finally:
        con.close()


def _first_dealer(rules, seed: int) -> int:
    return LocalGame(rules, [RandomBot()] * rules.players, seed).first_dealer


def _seed_of(db: str, table_id: str) -> int:
    if is_postgres(db):
        with psycopg.connect(db) as conn:
            return int(conn.execute("SELECT seed FROM tables WHERE id=%s", (table_id,)).fetchone()[0])

    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT seed FROM tables WHERE id=?", (table_id,)).fetchone()[0]
    finally:
        con.close()
