"""The SQLite journal's file (:mod:`.storage`): its connection in WAL mode, the lock its
calls share, transactions (a savepoint inside another) and the move file beside it.

The parts of the storage (:mod:`.writes`, :mod:`.reads`,
:mod:`.archive`) run their statements through one :class:`SQLiteFile`.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from ..values import PLAYING, WAITING, StorageError, ended
from .movefile import MoveLog
from .schema import open_schema

OPEN = "status IN ('waiting', 'playing')"
"""The tables that take writes: a table that has ended is never written again."""
ROWS_PER_INSERT = 256  # actions in one INSERT statement (3 parameters each)

WAL_CHECKPOINT_PAGES = 64
"""Pages in the write-ahead log before SQLite copies them into the database file."""
WAL_SIZE_LIMIT = 1024 * 1024
"""Bytes the write-ahead log file is cut back to after a checkpoint."""


class SQLiteFile:
    """One SQLite file, opened (created owner-only, 0600) and brought to the current
    schema; ``moves``: its move file, when the journal has one (set by the storage)."""

    def __init__(self, path: str, synchronous: str = "NORMAL") -> None:
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError("synchronous must be NORMAL, FULL or EXTRA")
        self.path = str(path)
        if self.path != ":memory:" and not os.path.exists(self.path):
            # Owner-only from the first byte (SQLite gives its -wal and -shm files the same mode).
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        # Autocommit (isolation_level=None): each statement commits before it returns.
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.lock = threading.RLock()  # a batch holds it while its calls take it again
        self._savepoints = 0
        self.moves: MoveLog | None = None
        mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal" and self.path != ":memory:":
            raise StorageError(f"{self.path}: could not switch to WAL (journal_mode={mode})")
        self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA busy_timeout=5000")
        # A short write-ahead log, truncated after each checkpoint: every play is its own
        # commit (a page in the log), and without these the log grows to some megabytes.
        self.db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
        self.db.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        with self.transaction():
            open_schema(self.db, self.path)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction; inside another (a batch), a savepoint: undone alone if it fails."""
        with self.lock:
            if self.db.in_transaction:
                self._savepoints += 1
                name = f"call{self._savepoints}"
                self.db.execute(f"SAVEPOINT {name}")
                try:
                    yield
                except BaseException:
                    self.db.execute(f"ROLLBACK TO {name}")
                    self.db.execute(f"RELEASE {name}")
                    raise
                else:
                    self.db.execute(f"RELEASE {name}")
                finally:
                    self._savepoints -= 1
                return
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise

    def exec(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        """One statement; a constraint it breaks is a StorageError."""
        with self.lock:
            try:
                return self.db.execute(sql, args)
            except sqlite3.IntegrityError as exc:
                raise StorageError(str(exc)) from exc

    def changed(self, cur: sqlite3.Cursor, table_id: str) -> None:
        """A write of ``table_id`` made only while it is open (:data:`OPEN`): StorageError
        if it changed nothing because there is no such table or it has ended."""
        if cur.rowcount == 0:
            self.check_open(table_id)

    def check_open(self, table_id: str) -> None:
        """StorageError unless ``table_id`` is in the file and takes writes (not ended)."""
        with self.lock:
            row = self.db.execute("SELECT status FROM tables WHERE id=?", (table_id,)).fetchone()
        if row is None:
            raise StorageError(f"no table {table_id!r} in storage")
        if row[0] not in (WAITING, PLAYING):
            raise StorageError(ended(table_id, str(row[0])))

    def insert_rows(self, rows: Sequence[tuple[str, int, str]]) -> None:
        """Encoded actions in one INSERT statement (at most :data:`ROWS_PER_INSERT`)."""
        self.db.execute("INSERT INTO actions (table_id, idx, action) VALUES " + ",".join(["(?, ?, ?)"] * len(rows)),
                        [v for row in rows for v in row])

    def take_in_moves(self, when_full: bool = False) -> None:
        """With a move file (that holds enough moves, if ``when_full``): its pending moves
        into this file, and the move file emptied (a StorageError leaves them there, to be
        taken in later)."""
        if self.moves is not None and (self.moves.full or not when_full):
            self.moves.take_in()

    def integrity_check(self) -> str:
        with self.lock:
            return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self.lock:
            if self.moves is not None:
                self.moves.close()
                self.moves = None
            self.db.close()
