"""Journal files of every earlier format open (server/journal/sqlite/storage.py MIGRATIONS): each file
below is written with the SQL of that format, as those servers wrote it; opened by this
server, its unfinished game resumes to the end and its finished game's result and
actions read back (R7: the journal replays).  A newer file is refused; a migration that
fails changes nothing."""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Callable

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import Action, LocalGame, GameRecord, Phase, RuleSet, replay
from scopa.server import NetworkEngine
from scopa.server.journal.sqlite import schema as sqlite_schema
from scopa.server.journal.sqlite import storage
from scopa.server.journal.sqlite.storage import JournalTooNew, SQLiteStorage, encode_action

# Format 1 (the first journal): actions only as rows; no ``record`` column.
_FORMAT_1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, num INTEGER NOT NULL, rules TEXT NOT NULL, seed INTEGER NOT NULL,
    private INTEGER NOT NULL DEFAULT 0, options TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'waiting', created_at REAL NOT NULL, finished_at REAL,
    winner INTEGER, totals TEXT, reason TEXT);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
    token_digest TEXT, bot TEXT, PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)) WITHOUT ROWID;
"""

# Format 2 as first written: a finished table's actions compacted into ``record``.
_FORMAT_2 = _FORMAT_1.replace("winner INTEGER, totals TEXT, reason TEXT);",
                              "winner INTEGER, totals TEXT, reason TEXT, record BLOB);")

# Format 2 with the archive's relations (finished games' players, ratings, accounts),
# which were added beside it without a new format number.
_ARCHIVE = """
CREATE TABLE IF NOT EXISTS game_players (
    table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
    kind TEXT NOT NULL, strategy TEXT, taken_over INTEGER NOT NULL DEFAULT 0, token_digest TEXT,
    PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS game_players_name ON game_players(name);
CREATE TABLE IF NOT EXISTS ratings (
    preset TEXT NOT NULL, name TEXT NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (preset, name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT PRIMARY KEY, salt BLOB NOT NULL, hash BLOB NOT NULL, n INTEGER NOT NULL, r INTEGER NOT NULL,
    p INTEGER NOT NULL, created_at REAL NOT NULL) WITHOUT ROWID;
"""

RULES = RuleSet()
FINISHED_SEED, PLAYING_SEED, CUT = 11, 22, 17


async def _bot_game(seed: int) -> GameRecord:
    journal: list[Action] = []
    master = LocalGame(RULES, [RandomBot(seed=seed), GreedyBot()], seed, journal=journal.append)
    record = await master.run()
    assert journal == list(record.actions)
    return record


def _write(path: Path, version: int, schema: str, finished: GameRecord, playing: GameRecord) -> None:
    """A journal as a server of ``version`` left it: table 1 finished, table 2 mid-game."""
    con = sqlite3.connect(path)
    con.executescript(schema)
    con.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(version),))
    rules = RULES.model_dump_json()
    now = time.time()
    con.execute("INSERT INTO tables (id, num, rules, seed, status, created_at, finished_at, winner, totals, reason) "
                "VALUES ('1', 1, ?, ?, 'finished', ?, ?, ?, ?, 'target')",
                (rules, FINISHED_SEED, now - 60, now - 30, finished.winner, json.dumps(list(finished.totals))))
    con.execute("INSERT INTO tables (id, num, rules, seed, status, created_at) VALUES ('2', 2, ?, ?, 'playing', ?)",
                (rules, PLAYING_SEED, now - 10))
    for tid in ("1", "2"):
        con.execute("INSERT INTO seats VALUES (?, 0, 'random-bot-0', NULL, 'random'), "
                    "(?, 1, 'greedy-bot-1', NULL, 'greedy')", (tid, tid))
    done = [encode_action(a) for a in finished.actions]
    if version == 1:  # format 1 kept a finished table's actions as rows
        con.executemany("INSERT INTO actions VALUES ('1', ?, ?)", list(enumerate(done)))
    else:
        con.execute("UPDATE tables SET record=? WHERE id='1'", (zlib.compress(("[" + ",".join(done) + "]").encode(), 9),))
    con.executemany("INSERT INTO actions VALUES ('2', ?, ?)",
                    [(i, encode_action(a)) for i, a in enumerate(playing.actions[:CUT])])
    con.commit()
    con.close()


FORMATS: dict[str, tuple[int, str]] = {
    "format 1": (1, _FORMAT_1),
    "format 2": (2, _FORMAT_2),
    "format 2 with the archive": (2, _FORMAT_2 + _ARCHIVE),
}


def test_the_migrations_cover_every_earlier_format_in_order() -> None:
    assert [since for since, _ in storage.MIGRATIONS] == list(range(1, storage.SCHEMA_VERSION))


@pytest.mark.parametrize("name", list(FORMATS))
async def test_a_journal_of_an_earlier_format_opens_resumes_and_reads(tmp_path: Path, name: str) -> None:
    version, schema = FORMATS[name]
    finished, playing = await _bot_game(FINISHED_SEED), await _bot_game(PLAYING_SEED)
    path = tmp_path / "old.db"
    _write(path, version, schema, finished, playing)

    engine = NetworkEngine("127.0.0.1", 0, seed=5, db=str(path))
    await engine.start()
    try:
        assert engine.damaged == {}
        table = engine.tables["2"]  # the unfinished game is back where it stood
        assert table.master is not None and table.master.actions[:CUT] == list(playing.actions[:CUT])
        assert table.task is not None
        await table.task  # its bots play it to the end
        state = table.master.state
        assert state.phase is Phase.OVER
        store = engine.storage
        assert store is not None
        await engine.ratings.settled()
        results = {r.id: r for r in await engine.results()}
        assert sorted(results) == ["1", "2"]
        old = results["1"]
        assert (old.winner, old.totals, old.reason) == (finished.winner, finished.totals, "target")
        assert old.seats == ("random-bot-0", "greedy-bot-1")
        assert await store.load_actions("1") == list(finished.actions)
        again = replay(RULES, finished.first_dealer, await store.load_actions("1"))
        assert tuple(again.totals) == finished.totals
        assert (results["2"].winner, list(results["2"].totals)) == (state.winner, state.totals)
        # The archive's relations are there: the game finished now is kept with its players.
        assert [g.id for g in await store.finished_games()] == ["2"]
        assert int(await store.last_table_id()) == 2
    finally:
        await engine.stop()

    con = sqlite3.connect(path)
    try:
        assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(storage.SCHEMA_VERSION),)
        # Both finished games are compact: their actions are in the record, not in rows.
        assert con.execute("SELECT COUNT(*) FROM actions").fetchone() == (0,)
        assert con.execute("SELECT COUNT(*) FROM tables WHERE record IS NOT NULL").fetchone() == (2,)
        assert con.execute("SELECT COUNT(*) FROM refusals").fetchone() == (0,)  # format 3's relation, added
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        con.close()


async def test_a_journal_newer_than_the_server_is_refused_and_left_alone(tmp_path: Path) -> None:
    finished, playing = await _bot_game(FINISHED_SEED), await _bot_game(PLAYING_SEED)
    path = tmp_path / "new.db"
    _write(path, storage.SCHEMA_VERSION + 1, _FORMAT_2 + _ARCHIVE, finished, playing)
    before = _contents(path)
    with pytest.raises(JournalTooNew, match=f"format {storage.SCHEMA_VERSION + 1}"):
        SQLiteStorage(str(path))
    with pytest.raises(JournalTooNew):
        NetworkEngine("127.0.0.1", 0, db=str(path))
    assert _contents(path) == before


def _contents(path: Path) -> list[tuple[object, ...]]:
    """Every row of every relation, and the relations' SQL."""
    con = sqlite3.connect(path)
    try:
        names = [n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        rows: list[tuple[object, ...]] = list(con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name"))
        for name in names:
            rows += [(name, *r) for r in con.execute(f"SELECT * FROM {name} ORDER BY 1, 2")]
        return rows
    finally:
        con.close()


async def test_a_migration_that_fails_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The steps run in one transaction with the opening: a failing step undoes the
    steps before it."""
    finished, playing = await _bot_game(FINISHED_SEED), await _bot_game(PLAYING_SEED)
    path = tmp_path / "old.db"
    _write(path, 1, _FORMAT_1, finished, playing)

    def broken(db: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("a step that fails (test)")

    steps: tuple[tuple[int, Callable[[sqlite3.Connection], None]], ...] = (*storage.MIGRATIONS, (1, broken))
    monkeypatch.setattr(sqlite_schema, "MIGRATIONS", steps)
    with pytest.raises(sqlite3.OperationalError, match="fails"):
        SQLiteStorage(str(path))
    con = sqlite3.connect(path)
    try:
        assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("1",)
        assert "record" not in {r[1] for r in con.execute("PRAGMA table_info(tables)")}
        assert con.execute("SELECT COUNT(*) FROM actions WHERE table_id='1'").fetchone() == (len(finished.actions),)
    finally:
        con.close()
