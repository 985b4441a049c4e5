"""The SQLite journal's schema (:mod:`.storage`): its relations, its format number and the
steps that bring a file of an older format up to this one."""

from __future__ import annotations

import sqlite3
from typing import Callable

from ..values import StorageError, JournalTooNew, compact

ARCHIVE_SCHEMA = """
CREATE TABLE IF NOT EXISTS game_players (
    table_id     TEXT NOT NULL REFERENCES tables(id),
    seat         INTEGER NOT NULL,
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL,            -- person | bot
    strategy     TEXT,                     -- a built-in bot's strategy
    taken_over   INTEGER NOT NULL DEFAULT 0, -- a bot played this person's seat from some point on
    token_digest TEXT,                     -- sha256 hex of the person's seat token
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS game_players_name ON game_players(name);
CREATE TABLE IF NOT EXISTS ratings (
    preset TEXT NOT NULL,
    name   TEXT NOT NULL,
    mu     REAL NOT NULL,
    sigma  REAL NOT NULL,
    games  INTEGER NOT NULL DEFAULT 0,
    wins   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (preset, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS accounts (
    name       TEXT PRIMARY KEY,
    salt       BLOB NOT NULL,
    hash       BLOB NOT NULL,              -- scrypt(password, salt, n, r, p)
    n          INTEGER NOT NULL,
    r          INTEGER NOT NULL,
    p          INTEGER NOT NULL,
    created_at REAL NOT NULL
) WITHOUT ROWID;
"""
"""The archive's relations (:mod:`.archive`): who played each finished game, the
ratings and the claimed names."""

SCHEMA_VERSION = 4
"""1: actions as rows only; 2: a finished table's actions compacted into ``tables.record``;
3: the refused answers (``refusals``); 4: an abandoned game's leaver (``tables.leaver``).
A file of an older format is brought up to this one by :data:`MIGRATIONS`."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id          TEXT PRIMARY KEY,
    num         INTEGER NOT NULL,          -- the id as a number (0 if not numeric)
    rules       TEXT NOT NULL,             -- RuleSet JSON
    seed        INTEGER NOT NULL,          -- < 2**63
    private     INTEGER NOT NULL DEFAULT 0,
    options     TEXT NOT NULL DEFAULT '{}',
    status      TEXT NOT NULL DEFAULT 'waiting',  -- waiting | playing | finished | closed
    created_at  REAL NOT NULL,
    finished_at REAL,
    winner      INTEGER,
    totals      TEXT,                      -- JSON list
    reason      TEXT,                      -- how it ended (damaged: why it cannot be restored)
    record      BLOB,                      -- a finished table's actions, compacted (zlib JSON)
    leaver      INTEGER                    -- an abandoned game's seat whose person left (or did not come back)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE TABLE IF NOT EXISTS seats (
    table_id     TEXT NOT NULL REFERENCES tables(id),
    seat         INTEGER NOT NULL,
    name         TEXT NOT NULL,
    token_digest TEXT,                     -- sha256 hex of the seat token, never the token
    bot          TEXT,                     -- strategy of a built-in bot
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx      INTEGER NOT NULL,
    action   TEXT NOT NULL,                -- encode_action()
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS refusals (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx      INTEGER NOT NULL,             -- the action index the answer was for
    seat     INTEGER NOT NULL,
    nth      INTEGER NOT NULL,             -- the how-many-th refusal of that turn (1, 2, ...)
    code     TEXT NOT NULL,                -- the protocol's error code
    PRIMARY KEY (table_id, idx, seat, nth)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tournament_events (
    tournament_id TEXT NOT NULL,
    seq           INTEGER NOT NULL,        -- 0, 1, ... within its tournament
    kind          TEXT NOT NULL,           -- the event's class name
    data          TEXT NOT NULL,           -- its JSON
    PRIMARY KEY (tournament_id, seq)
) WITHOUT ROWID;
"""


def _compact_record_column(db: sqlite3.Connection) -> None:
    """1 -> 2: the ``record`` column, and the finished or closed tables' action rows
    compacted into it (as format 2 keeps them)."""
    if "record" not in {r[1] for r in db.execute("PRAGMA table_info(tables)")}:
        db.execute("ALTER TABLE tables ADD COLUMN record BLOB")
    done = db.execute("SELECT id FROM tables WHERE status IN ('finished', 'closed') AND record IS NULL").fetchall()
    for (table_id,) in done:
        rows = db.execute("SELECT action FROM actions WHERE table_id=? ORDER BY idx", (table_id,)).fetchall()
        if rows:
            db.execute("UPDATE tables SET record=? WHERE id=?", (compact([r[0] for r in rows]), table_id))
            db.execute("DELETE FROM actions WHERE table_id=?", (table_id,))


def _refusals_relation(db: sqlite3.Connection) -> None:
    """2 -> 3: the ``refusals`` relation (empty: no refusal was journaled before)."""
    db.execute(_SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS refusals"):].split(";")[0])


def _leaver_column(db: sqlite3.Connection) -> None:
    """3 -> 4: the ``leaver`` column (empty: no game's leaver was journaled before)."""
    if "leaver" not in {r[1] for r in db.execute("PRAGMA table_info(tables)")}:
        db.execute("ALTER TABLE tables ADD COLUMN leaver INTEGER")


MIGRATIONS: tuple[tuple[int, Callable[[sqlite3.Connection], None]], ...] = (
    (1, _compact_record_column),
    (2, _refusals_relation),
    (3, _leaver_column),
)
"""(from format, step): applied in this order to a file of that format or older, all in
one transaction; the steps cover every format from 1 to :data:`SCHEMA_VERSION`."""


def open_schema(db: sqlite3.Connection, path: str) -> None:
    """Create the schema in a new file, or bring an older one up to this server's by
    the steps of :data:`MIGRATIONS`; refuse a newer one (inside the opening transaction)."""
    has_meta = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
    row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() if has_meta else None
    if row is not None:
        try:
            version = int(row[0])
        except (TypeError, ValueError):
            raise StorageError(f"{path}: its format {row[0]!r} is not one this server knows") from None
        if version > SCHEMA_VERSION:
            raise JournalTooNew(f"it was written by a newer version of the server (format {version}; "
                                f"this server reads up to {SCHEMA_VERSION}): upgrade the server")
        for since, step in MIGRATIONS:
            if since >= version:
                step(db)
    # executescript() would commit on its own: run the statements one by one.  In a file
    # of an older format this adds only what it lacks (e.g. the archive's relations).
    for stmt in (_SCHEMA + ARCHIVE_SCHEMA).split(";"):
        if stmt.strip():
            db.execute(stmt)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
