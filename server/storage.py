"""The embedded journal: one SQLite file (``scopa serve --db FILE``), the default backend.

It keeps, on five relations (``tables``, ``seats``, ``actions``, ``refusals``, ``meta``:
:mod:`.sqlite_schema`) and those of :mod:`.archive` (finished games' players, ratings,
accounts), what the server journals as commands (:mod:`.journal`): each table's rules,
seed and options when it is created, each seat when it is taken, every action of the
game *before* the game master announces it, each answer the table refused, and the
result when the game ends.  It is a :class:`~.journal.JournalBackend`: a batch of requests runs in one transaction (one
commit, one write to the log), each command isolated from the others (a savepoint each):
one refused write fails alone.  The server drives it from a child process
(:mod:`.writer_process`), so commits never compete with the event loop.

A journaled table that cannot be read back (garbage rules or action row, a gap in the
actions) comes back from ``load_unfinished`` with its ``damage`` said instead of its
actions: the server marks it damaged and restores every other game.

When a table is finished or closed its actions are compacted: the rows are replaced by
one zlib-compressed record on the table's row (``record``), so a finished 2-player game
to 11 keeps its rules, seed, every deal and action, and its result in a few kilobytes.
A journal file is created readable and writable by its owner only (0600): it holds the
card order of every deal.  A journal written by a newer server is refused
(:class:`JournalTooNew`); an older one is migrated when opened, by the steps of
:data:`~.sqlite_schema.MIGRATIONS` in order, in the transaction that opens it.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from contextlib import contextmanager, nullcontext
from typing import Any, Iterator, Sequence

from scopa.engine import Action, RuleSet

from .journal import AppendAction, CloseTable, FinishTable, MarkDamaged, RecordRefusal, Request, run_requests
from .journal_values import (
    FINISHED,
    FinishedTable,
    JournalTooNew,
    JournalUnavailable,
    StorageError,
    StoredSeat,
    StoredTable,
    TableResult,
    compact,
    decode_action,
    encode_action,
    read_unfinished,
    rules_from,
    rules_json,
    table_number,
    uncompact,
)
from .sqlite_archive import SQLiteArchive
from .movelog import Damage, MoveLog, restore_moves
from .sqlite_schema import MIGRATIONS, SCHEMA_VERSION, open_schema

__all__ = ["JournalTooNew", "MIGRATIONS", "SCHEMA_VERSION", "SQLiteStorage"]

log = logging.getLogger("scopa.server")

_ROWS_PER_INSERT = 256  # actions in one INSERT statement (3 parameters each)

WAL_CHECKPOINT_PAGES = 64
"""Pages in the write-ahead log before SQLite copies them into the database file."""
WAL_SIZE_LIMIT = 1024 * 1024
"""Bytes the write-ahead log file is cut back to after a checkpoint."""

_ENDS = (FinishTable, CloseTable, MarkDamaged)
"""The commands that end a table (its actions compacted, or no longer to be restored)."""


class SQLiteStorage(SQLiteArchive):
    """The embedded default backend: one SQLite file in WAL mode.

    Durability: every call is its own autocommitted transaction, so when it returns the
    change is in the write-ahead log.  ``synchronous=NORMAL`` (the default here) skips
    the fsync at each commit but the committed frames have been ``write()``-n to the WAL
    file, i.e. they are in the operating system's page cache, which survives the server
    *process* being killed (``kill -9``): nothing acknowledged is lost.  Only a power cut
    or kernel crash could lose the last commits; a deployment that must survive those
    passes ``synchronous="FULL"`` (an fsync per commit: per batch, behind a :class:`Storage`).

    ``move_file`` (the journal's own process, :mod:`.writer_process`): moves are journaled
    in the move file beside this one (:mod:`.movelog`), with the same promise, and come
    into this file when their table ends or in large batches.  Without it, opening the
    file takes in what a stopped server left in its move file.
    """

    blocks = True

    def __init__(self, path: str, synchronous: str = "NORMAL", move_file: bool = False) -> None:
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError("synchronous must be NORMAL, FULL or EXTRA")
        self.path = str(path)
        if self.path != ":memory:" and not os.path.exists(self.path):
            # Owner-only from the first byte (SQLite gives its -wal and -shm files the same mode).
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        # Autocommit (isolation_level=None): each statement commits before it returns.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._lock = threading.RLock()  # a batch holds it while its calls take it again
        self._savepoints = 0
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal" and self.path != ":memory:":
            raise StorageError(f"{self.path}: could not switch to WAL (journal_mode={mode})")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        # A short write-ahead log, truncated after each checkpoint: every play is its own
        # commit (a page in the log), and without these the log grows to some megabytes.
        self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
        self._db.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        with self._transaction():
            open_schema(self._db, self.path)
        self._moves: MoveLog | None = None
        if self.path != ":memory:":
            if move_file:
                self._moves = MoveLog(self, synchronous)
            else:
                restore_moves(self)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction; inside another (a batch), a savepoint: undone alone if it fails."""
        with self._lock:
            if self._db.in_transaction:
                self._savepoints += 1
                name = f"call{self._savepoints}"
                self._db.execute(f"SAVEPOINT {name}")
                try:
                    yield
                except BaseException:
                    self._db.execute(f"ROLLBACK TO {name}")
                    self._db.execute(f"RELEASE {name}")
                    raise
                else:
                    self._db.execute(f"RELEASE {name}")
                finally:
                    self._savepoints -= 1
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        """The requests in one transaction, so one commit (one write to the log) for all
        of them; a single statement that fails undoes only itself, a command of several
        statements runs in a savepoint.  Consecutive actions go in as one statement
        (each SQLite statement hands the interpreter lock to the event loop and waits to
        get it back: a batch of moves is a few statements, not one per move).  If the
        commit fails, every request fails."""
        if self._moves is not None:
            return self._run_with_moves(requests, self._moves)
        return self._run_in_one(requests)

    def _run_in_one(self, requests: Sequence[Request]) -> list[Any]:
        with self._lock:
            # Moves only (the usual batch) make one statement: a transaction by itself
            # (autocommit), with no BEGIN and COMMIT around it.
            one_statement = 1 < len(requests) <= _ROWS_PER_INSERT and not self._db.in_transaction \
                and all(type(r) is AppendAction for r in requests)
            try:
                with nullcontext() if one_statement else self._transaction():
                    out: list[Any] = []
                    start = 0
                    while start < len(requests):
                        end = start
                        while end < len(requests) and end - start < _ROWS_PER_INSERT \
                                and type(requests[end]) is AppendAction:
                            end += 1
                        if end - start > 1:
                            out += self._append_actions(requests[start:end])  # type: ignore[arg-type]
                        else:
                            end = start + 1
                            out += run_requests(self, requests[start:end])
                        start = end
                    return out
            except sqlite3.Error as exc:
                failed = JournalUnavailable(f"the journal could not commit: {exc}")
                return [failed] * len(requests)

    def _run_with_moves(self, requests: Sequence[Request], moves: MoveLog) -> list[Any]:
        """:meth:`run_batch` with a move file: each run of actions in it as one record, each
        run of other requests in one transaction."""
        out: list[Any] = []
        start = 0
        with self._lock:
            while start < len(requests):
                appends = type(requests[start]) is AppendAction
                end = start + 1
                while end < len(requests) and (type(requests[end]) is AppendAction) == appends:
                    end += 1
                run = requests[start:end]
                if appends:
                    out += moves.append(run)  # type: ignore[arg-type]
                else:
                    done = self._run_in_one(run)
                    for request, result in zip(run, done):
                        if isinstance(request, _ENDS) and result is None:
                            moves.forget(request.table_id)  # committed: its moves are in its record
                    out += done
                start = end
        return out

    def take_in_moves(self, when_full: bool = False) -> None:
        """With a move file (that holds enough moves, if ``when_full``): its pending moves
        into this file, and the move file emptied (a StorageError leaves them there, to be
        taken in later)."""
        if self._moves is not None and (self._moves.full or not when_full):
            self._moves.take_in()

    def _append_actions(self, commands: Sequence[AppendAction]) -> list[Any]:
        """Several actions in one INSERT: each index checked first (the next one is stored;
        the same action again is accepted as it is; another action for a stored index,
        or a gap, is refused); if the INSERT is refused, one by one."""
        out: list[Any] = []
        rows: list[tuple[str, int, str]] = []
        following: dict[str, int] = {}
        for c in commands:
            nxt = following.get(c.table_id)
            if nxt is None:
                nxt = self.next_index(c.table_id)
            try:
                if c.index == nxt:
                    rows.append((c.table_id, c.index, c.action))
                    nxt += 1
                    out.append(None)
                else:
                    self._check_stored(c, nxt)
                    out.append(None)
            except StorageError as exc:
                out.append(exc)
            following[c.table_id] = nxt
        if not rows:
            return out
        try:
            # One statement: if it fails, SQLite undoes it alone (no savepoint needed).
            self._insert_rows(rows)
        except sqlite3.IntegrityError:
            return run_requests(self, commands)
        return out

    def next_index(self, table_id: str) -> int:
        """The index of the next action of ``table_id`` (0 for a table with none stored)."""
        row = self._db.execute("SELECT MAX(idx) FROM actions WHERE table_id=?", (table_id,)).fetchone()
        return 0 if row is None or row[0] is None else int(row[0]) + 1

    def stored_action(self, table_id: str, index: int) -> str | None:
        row = self._db.execute("SELECT action FROM actions WHERE table_id=? AND idx=?", (table_id, index)).fetchone()
        return None if row is None else str(row[0])

    def _check_stored(self, command: AppendAction, following: int) -> None:
        """An action that is not the next one: accepted if it is stored as it is, else refused."""
        if command.index > following or command.index < 0:
            raise StorageError(f"table {command.table_id}: action {command.index} given, {following} expected")
        if self.stored_action(command.table_id, command.index) != command.action:
            raise StorageError(f"table {command.table_id}: action {command.index} is journaled already, "
                               "as another action")

    def insert_actions(self, rows: Sequence[tuple[str, int, str]], restoring: bool = False) -> None:
        """Encoded actions (``(table_id, index, text)``) in one transaction: all or none
        (StorageError).  ``restoring``: rows from a move file, of which those already
        stored or of a table that is gone or has ended are left out."""
        with self._lock:
            try:
                with self._transaction():
                    if restoring:
                        self._db.executemany(
                            "INSERT OR IGNORE INTO actions (table_id, idx, action) SELECT ?, ?, ? WHERE EXISTS "
                            "(SELECT 1 FROM tables WHERE id=? AND status NOT IN ('finished', 'closed', 'damaged'))",
                            [(t, i, a, t) for t, i, a in rows])
                        return
                    for start in range(0, len(rows), _ROWS_PER_INSERT):
                        self._insert_rows(rows[start:start + _ROWS_PER_INSERT])
            except sqlite3.Error as exc:
                raise JournalUnavailable(f"the journal could not commit: {exc}") from exc

    def _insert_rows(self, rows: Sequence[tuple[str, int, str]]) -> None:
        """Encoded actions in one INSERT statement (at most :data:`_ROWS_PER_INSERT`)."""
        self._db.execute("INSERT INTO actions (table_id, idx, action) VALUES " + ",".join(["(?, ?, ?)"] * len(rows)),
                         [v for row in rows for v in row])

    def moves_lost(self, damage: Sequence[Damage]) -> None:
        """:meth:`~.movelog.ActionStore.moves_lost`: a :class:`~.journal.MarkDamaged` for each
        running table with a move legible in the damaged bytes that is not stored."""
        lost: dict[str, str] = {}
        with self._lock:
            for d in damage:
                for table_id, index in d.rows:
                    if table_id not in lost and self._db.execute(
                            "SELECT 1 FROM tables WHERE id=? AND status IN ('waiting', 'playing') AND NOT EXISTS "
                            "(SELECT 1 FROM actions WHERE table_id=? AND idx=?)", (table_id, table_id, index)).fetchone():
                        lost[table_id] = d.reason
            for table_id, reason in lost.items():
                log.error("table %s: %s", table_id, reason)
            failed = [r for r in self._run_in_one([MarkDamaged(t, why) for t, why in lost.items()]) if r is not None]
        if failed:
            raise StorageError(f"the damage in the move file could not be recorded: {failed[0]}")

    def action_indices(self, table_id: str) -> set[int]:
        """The indices of the actions stored for ``table_id``; StorageError if there is no such table."""
        with self._lock:
            if self._db.execute("SELECT 1 FROM tables WHERE id=?", (table_id,)).fetchone() is None:
                raise StorageError(f"no table {table_id!r} in storage")
            return {idx for (idx,) in self._db.execute("SELECT idx FROM actions WHERE table_id=?", (table_id,))}

    def _exec(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        with self._lock:
            try:
                return self._db.execute(sql, args)
            except sqlite3.IntegrityError as exc:
                raise StorageError(str(exc)) from exc

    def _changed(self, cur: sqlite3.Cursor, table_id: str) -> None:
        if cur.rowcount == 0:
            raise StorageError(f"no table {table_id!r} in storage")

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> None:
        with self._lock:
            if self._db.execute("SELECT 1 FROM tables WHERE id=?", (table_id,)).fetchone() is not None:
                raise StorageError(f"table {table_id!r} already exists")
        self._exec(
            "INSERT INTO tables (id, num, rules, seed, private, options, status, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 'waiting', ?)",
            (table_id, table_number(table_id), rules_json(rules), seed, int(private),
             json.dumps(options or {}, separators=(",", ":")), time.time()),
        )

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> None:
        self._exec("INSERT OR REPLACE INTO seats (table_id, seat, name, token_digest, bot) VALUES (?, ?, ?, ?, ?)",
                   (table_id, seat, name, token_digest, bot))

    def clear_seat(self, table_id: str, seat: int) -> None:
        self._exec("DELETE FROM seats WHERE table_id=? AND seat=?", (table_id, seat))

    def start_table(self, table_id: str) -> None:
        self._changed(self._exec("UPDATE tables SET status='playing' WHERE id=?", (table_id,)), table_id)

    def append_action(self, table_id: str, index: int, action: Action) -> None:
        self.append_encoded(table_id, index, encode_action(action))

    def append_encoded(self, table_id: str, index: int, encoded: str) -> None:
        """:meth:`append_action` with the action as :func:`encode_action` wrote it."""
        if self._moves is not None:
            [refused] = self._moves.append([AppendAction(table_id, index, encoded)])
            if refused is not None:
                raise refused
            return
        with self._lock:
            following = self.next_index(table_id)
            if index != following:
                self._check_stored(AppendAction(table_id, index, encoded), following)
                return
            # The primary key (table_id, idx) refuses an index journaled before: never twice.
            self._exec("INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)", (table_id, index, encoded))

    def record_refusal(self, command: RecordRefusal) -> None:
        c = command
        self._exec("INSERT OR IGNORE INTO refusals (table_id, idx, seat, nth, code) VALUES (?, ?, ?, ?, ?)",
                   (c.table_id, c.index, c.seat, c.nth, c.code))

    def load_refusals(self, table_id: str) -> list[RecordRefusal]:
        with self._lock:
            rows = self._db.execute("SELECT seat, idx, code, nth FROM refusals WHERE table_id=? ORDER BY idx, seat, nth",
                                    (table_id,)).fetchall()
        return [RecordRefusal(table_id, seat, idx, code, nth) for seat, idx, code, nth in rows]

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int], reason: str,
                     at: float | None = None) -> None:
        self._end(table_id, "UPDATE tables SET status='finished', finished_at=?, winner=?, totals=?, reason=?, "
                            "record=? WHERE id=?", (at or time.time(), winner, json.dumps(list(totals)), reason))

    def finish(self, command: FinishTable) -> None:
        """The game's end, who played it and its ratings, in one transaction."""
        with self._transaction():
            self.finish_table(command.table_id, command.winner, command.totals, command.reason, command.finished_at)
            if command.players:
                self.save_players(command.table_id, command.players)
            if command.rating is not None:
                self.save_ratings(command.rating.preset, command.rating.ratings)
        self._ended(command.table_id)

    def close_table(self, table_id: str, reason: str) -> None:
        self._end(table_id, "UPDATE tables SET status='closed', finished_at=?, reason=?, record=? WHERE id=?",
                  (time.time(), reason))

    def _end(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        """Finish or close a table and compact its actions into its row, in one transaction."""
        with self._transaction():
            rows = dict(self._db.execute("SELECT idx, action FROM actions WHERE table_id=?", (table_id,)).fetchall())
            if self._moves is not None:
                rows.update(self._moves.pending_of(table_id))
            record = compact([rows[i] for i in sorted(rows)]) if rows else None
            cur = self._db.execute(sql, (*args, record, table_id))
            if cur.rowcount == 0:
                raise StorageError(f"no table {table_id!r} in storage")
            self._db.execute("DELETE FROM actions WHERE table_id=?", (table_id,))
        self._ended(table_id)

    def mark_damaged(self, table_id: str, reason: str) -> None:
        self._changed(self._exec("UPDATE tables SET status='damaged', reason=? WHERE id=?",
                                 (reason[:500], table_id)), table_id)
        self._ended(table_id)

    def _ended(self, table_id: str) -> None:
        """``table_id`` has ended: once that is committed (outside a batch; a batch says it
        after its commit), the move file forgets its moves."""
        if self._moves is not None and not self._db.in_transaction:
            self._moves.forget(table_id)

    def load_damaged(self) -> list[tuple[str, str]]:
        with self._lock:
            rows = self._db.execute("SELECT id, reason FROM tables WHERE status='damaged' ORDER BY num, id").fetchall()
        return [(str(tid), str(reason or "")) for tid, reason in rows]

    def load_unfinished(self) -> list[StoredTable]:
        with self._lock:
            self.take_in_moves()
            rows = self._db.execute(
                "SELECT id, rules, seed, private, options, status FROM tables "
                "WHERE status IN ('waiting', 'playing') ORDER BY num, id"
            ).fetchall()
            out = []
            for tid, rules_text, seed, private, options, status in rows:
                out.append(self._load_one(str(tid), rules_text, seed, private, options, status))
            return out

    def _load_one(self, tid: str, rules_text: Any, seed: Any, private: Any, options: Any, status: str) -> StoredTable:
        """One unfinished table; what cannot be read makes it damaged (``damage`` says why)."""
        return read_unfinished(
            (tid, rules_text, seed, private, options, status),
            lambda: self._db.execute("SELECT seat, name, token_digest, bot FROM seats WHERE table_id=? ORDER BY seat",
                                     (tid,)).fetchall(),
            lambda: self._db.execute("SELECT idx, action FROM actions WHERE table_id=? ORDER BY idx",
                                     (tid,)).fetchall())

    def load_results(self, limit: int = 100) -> list[TableResult]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, rules, winner, totals, reason, finished_at FROM tables WHERE status='finished' "
                "ORDER BY finished_at DESC, num DESC LIMIT ?", (limit,)
            ).fetchall()
            out = []
            for tid, rules_text, winner, totals, reason, finished_at in rows:
                rules = rules_from(rules_text)
                names: list[str | None] = [None] * rules.players
                for seat, name in self._db.execute("SELECT seat, name FROM seats WHERE table_id=?", (tid,)):
                    if 0 <= seat < rules.players:
                        names[seat] = name
                out.append(TableResult(tid, rules, tuple(names), winner, tuple(json.loads(totals or "[]")),
                                       reason or "", finished_at or 0.0))
            return out

    def load_finished_since(self, since: float) -> list[FinishedTable]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, rules, seed, private, options, winner, totals, reason, finished_at FROM tables "
                "WHERE status='finished' AND finished_at >= ? ORDER BY num, id", (since,)
            ).fetchall()
            out = []
            for tid, rules_text, seed, private, options, winner, totals, reason, finished_at in rows:
                rules = rules_from(rules_text)
                seats: list[StoredSeat | None] = [None] * rules.players
                for seat, name, digest, bot in self._db.execute(
                    "SELECT seat, name, token_digest, bot FROM seats WHERE table_id=? ORDER BY seat", (tid,)
                ):
                    if 0 <= seat < rules.players:
                        seats[seat] = StoredSeat(seat, name, digest, bot)
                result = TableResult(tid, rules, tuple(s.name if s else None for s in seats), winner,
                                     tuple(json.loads(totals or "[]")), reason or "", finished_at or 0.0)
                stored = StoredTable(tid, rules, seed, bool(private), json.loads(options), FINISHED, seats)
                out.append(FinishedTable(stored, result))
            return out

    def load_actions(self, table_id: str) -> list[Action]:
        with self._lock:
            self.take_in_moves()
            rows = self._db.execute("SELECT idx, action FROM actions WHERE table_id=? ORDER BY idx",
                                    (table_id,)).fetchall()
            record = self._db.execute("SELECT record FROM tables WHERE id=?", (table_id,)).fetchone()
        if not rows and record is not None and record[0] is not None:
            return [decode_action(text) for text in uncompact(record[0])]
        for i, (idx, _) in enumerate(rows):
            if idx != i:
                raise StorageError(f"table {table_id}: action {i} is missing from the journal")
        return [decode_action(text) for _, text in rows]

    def last_table_id(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT MAX(num) FROM tables").fetchone()
        return int(row[0] or 0)

    def integrity_check(self) -> str:
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._moves is not None:
                self._moves.close()
                self._moves = None
            self._db.close()
