"""The journal under attack and under age: a damaged table spares every other game, a
journal from a newer server is refused in one line, an older one is migrated, finished
games are compact, and the file is its owner's only."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from scopa.engine import Play, RuleSet, replay
from scopa.server import NetworkEngine
from scopa.server.journal.sqlite import storage
from scopa.server.journal.sqlite.storage import SQLiteStorage
from scopa.server.table.seats import token_digest

from wire_client import WireClient


def _playing_table(db: SQLiteStorage, tid: str, seed: int) -> None:
    """A journaled 2-player game between two people (away until they resume)."""
    db.writes.create_table(tid, RuleSet(), seed)
    db.writes.set_seat(tid, 0, f"p{tid}a", token_digest=token_digest(f"token-{tid}-a"))
    db.writes.set_seat(tid, 1, f"p{tid}b", token_digest=token_digest(f"token-{tid}-b"))
    db.writes.start_table(tid)


def _raw(path: str, sql: str, *args: object) -> None:
    con = sqlite3.connect(path)
    try:
        con.execute(sql, args)
        con.commit()
    finally:
        con.close()


async def test_a_damaged_table_is_marked_and_every_other_game_restores(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    path = str(tmp_path / "journal.db")
    db = SQLiteStorage(path)
    for tid in ("1", "2", "3", "4"):
        _playing_table(db, tid, seed=100 + int(tid))
    db.close()
    _raw(path, "INSERT INTO actions (table_id, idx, action) VALUES ('3', 1, '[\"p\",0,0]')")  # a gap: no action 0
    _raw(path, "UPDATE tables SET rules='{\"players\": \"lots' WHERE id='1'")  # garbage rules
    _raw(path, "INSERT INTO actions (table_id, idx, action) VALUES ('2', 0, 'not json at all')")  # garbage row
    # table 3: action 1 without action 0 (a gap); table 4 is sound.

    caplog.set_level(logging.INFO, logger="scopa.server")
    engine = NetworkEngine("127.0.0.1", 0, seed=1, db=path)
    await engine.start()
    try:
        assert sorted(engine.damaged) == ["1", "2", "3"]
        assert "rules" in engine.damaged["1"] and "action 0" in engine.damaged["2"]
        assert "action 0 is missing" in engine.damaged["3"]
        assert list(engine.tables) == ["4"]  # the sound game is back
        c = await WireClient.connect(engine.port)
        assert (await c.resume("token-4-a", 0, "p4a")).name == "welcome"
        assert (await c.recv_until("joined")).body.resumed
        await c.close()
    finally:
        await engine.stop()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 3 and all(r.exc_info is None for r in errors)  # one line each, no traceback
    assert all("damaged" in r.getMessage() for r in errors)

    caplog.clear()
    again = NetworkEngine("127.0.0.1", 0, seed=1, db=path)
    await again.start()
    try:
        assert sorted(again.damaged) == ["1", "2", "3"]  # still shown to the operator
    finally:
        await again.stop()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # logged once, not at every start


def test_a_journal_from_a_newer_server_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scopa.cli import main

    path = str(tmp_path / "journal.db")
    SQLiteStorage(path).close()
    _raw(path, "UPDATE meta SET value='99' WHERE key='schema_version'")
    with pytest.raises(storage.JournalTooNew):
        SQLiteStorage(path)
    code = main(["serve", "--port", "0", "--db", path, "--admin-token-file", str(tmp_path / "t")])
    out = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in out.out + out.err
    complaint = [line for line in out.out.splitlines() if "format 99" in line]
    assert len(complaint) == 1 and "newer version" in complaint[0] and path in complaint[0]


_V1_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (id TEXT PRIMARY KEY, num INTEGER NOT NULL, rules TEXT NOT NULL, seed INTEGER NOT NULL,
    private INTEGER NOT NULL DEFAULT 0, options TEXT NOT NULL DEFAULT '{}', status TEXT NOT NULL DEFAULT 'waiting',
    created_at REAL NOT NULL, finished_at REAL, winner INTEGER, totals TEXT, reason TEXT);
CREATE INDEX tables_status ON tables(status);
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
    token_digest TEXT, bot TEXT, PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)) WITHOUT ROWID;
INSERT INTO meta VALUES ('schema_version', '1');
"""


def test_an_older_journal_is_migrated(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    con = sqlite3.connect(path)
    con.executescript(_V1_SCHEMA)
    con.execute("INSERT INTO tables (id, num, rules, seed, status, created_at) VALUES ('5', 5, ?, 42, 'playing', 0)",
                (RuleSet().model_dump_json(),))
    con.execute("INSERT INTO seats VALUES ('5', 0, 'ann', 'aa', NULL), ('5', 1, 'greedy-bot-1', NULL, 'greedy')")
    con.commit()
    con.close()
    db = SQLiteStorage(path)
    [table] = db.reads.load_unfinished()
    assert table.id == "5" and table.damage is None and table.seed == 42
    db.writes.finish_table("5", 0, [11, 3], "target")
    assert [r.id for r in db.reads.load_results()] == ["5"]
    db.close()
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(storage.SCHEMA_VERSION)
    con.close()


async def test_a_finished_two_player_game_to_11_takes_at_most_8_kilobytes(tmp_path: Path) -> None:
    """96 bot games, 16 at a time (as a burst of bot-only tables would run): the journal
    on disk, database and write-ahead log together, grows by at most 8 KB a game."""
    path = str(tmp_path / "games.db")
    engine = NetworkEngine("127.0.0.1", 0, seed=8, db=path)
    await engine.start()

    def on_disk() -> int:
        return sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))

    base = on_disk()
    final = {}
    try:
        clients = [await WireClient.connect(engine.port, f"c{i}") for i in range(8)]
        for _ in range(6):
            ids = [await c.create(bots=["greedy", "random"], sit=False) for c in clients for _ in range(2)]
            for tid in ids:
                table = engine.tables[tid]
                await table.task
                assert table.rules.target == 11 and table.master.state.phase.value == "over"
                final[tid] = table.master
        per_game = (on_disk() - base) / len(final)
        for c in clients:
            await c.close()
    finally:
        await engine.stop()
    assert len(final) == 96
    assert per_game <= 8 * 1024, per_game
    # Still all a record needs: rules, seed, every deal and action, the result.
    db = SQLiteStorage(path)
    results = {r.id: r for r in db.reads.load_results(200)}
    for tid, master in final.items():
        actions = db.reads.load_actions(tid)
        assert actions == list(master.actions)
        state = replay(master.rules, master.first_dealer, actions)
        assert list(results[tid].totals) == state.totals and results[tid].winner == state.winner
    db.close()


def test_the_journal_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "private.db"
    old = os.umask(0o022)
    try:
        db = SQLiteStorage(str(path))
        db.writes.create_table("1", RuleSet(), 1)
        for name in (path, Path(str(path) + "-wal"), Path(str(path) + "-shm")):
            assert name.exists() and stat.S_IMODE(name.stat().st_mode) == 0o600, name
        db.close()
    finally:
        os.umask(old)
