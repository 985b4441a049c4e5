"""The embedded journal: one SQLite file (``scopa serve --db FILE``), the default backend.

It keeps, on five relations (``tables``, ``seats``, ``actions``, ``refusals``, ``meta``:
:mod:`.schema`) and those of :mod:`.archive` (finished games' players, ratings,
accounts), what the server journals as commands (:mod:`scopa.server.journal.commands`): each table's rules,
seed and options when it is created, each seat when it is taken, every action of the
game *before* the game master announces it, each answer the table refused, and the
result when the game ends.  It is a :class:`~.journal.JournalBackend`: a batch of requests runs in one transaction (one
commit, one write to the log), each command isolated from the others (a savepoint each):
one refused write fails alone.  The server drives it from a child process
(:mod:`.process`), so commits never compete with the event loop.

A journaled table that cannot be read back (garbage rules or action row, a gap in the
actions) comes back from ``load_unfinished`` with its ``damage`` said instead of its
actions: the server marks it damaged and restores every other game.

When a table is finished or closed its actions are compacted: the rows are replaced by
one zlib-compressed record on the table's row (``record``), so a finished 2-player game
to 11 keeps its rules, seed, every deal and action, and its result in a few kilobytes.
A journal file is created readable and writable by its owner only (0600): it holds the
card order of every deal.  A journal written by a newer server is refused
(:class:`JournalTooNew`); an older one is migrated when opened, by the steps of
:data:`~.schema.MIGRATIONS` in order, in the transaction that opens it.
"""

from __future__ import annotations

import logging
import sqlite3
from contextlib import nullcontext
from typing import Any, Sequence

from ..commands import ENDS, AppendAction, MarkDamaged, Request
from ..ops import run_requests
from ..values import JournalTooNew, JournalUnavailable, StorageError, decode_action, encode_action
from .movefile import Damage, MoveLog, restore_moves
from .archive import SQLiteArchive
from .file import ROWS_PER_INSERT, SQLiteFile
from .reads import SQLiteReads
from .schema import MIGRATIONS, SCHEMA_VERSION
from .writes import SQLiteWrites

__all__ = ["JournalTooNew", "MIGRATIONS", "SCHEMA_VERSION", "SQLiteStorage", "StorageError", "decode_action",
           "encode_action"]

log = logging.getLogger("scopa.server")

class SQLiteStorage:
    """The embedded default backend: one SQLite file in WAL mode (:class:`~.file.SQLiteFile`),
    its statements in three parts: :attr:`writes` (the commands), :attr:`reads` (the tables
    read back) and :attr:`archive` (finished games, ratings, accounts).

    Durability: every call is its own autocommitted transaction, so when it returns the
    change is in the write-ahead log.  ``synchronous=NORMAL`` (the default here) skips
    the fsync at each commit but the committed frames have been ``write()``-n to the WAL
    file, i.e. they are in the operating system's page cache, which survives the server
    *process* being killed (``kill -9``): nothing acknowledged is lost.  Only a power cut
    or kernel crash could lose the last commits; a deployment that must survive those
    passes ``synchronous="FULL"`` (an fsync per commit: per batch, behind a :class:`Storage`).

    ``move_file`` (the journal's own process, :mod:`.process`): moves are journaled
    in the move file beside this one (:mod:`.movefile`), with the same promise, and come
    into this file when their table ends or in large batches; ``server_writes``: the
    server appends them itself (:class:`~.movefile.MoveLog`'s ``server_writes``).  Without
    it, opening the file takes in what a stopped server left in its move file.
    """

    blocks = True

    def __init__(self, path: str, synchronous: str = "NORMAL", move_file: bool = False,
                 server_writes: bool = False) -> None:
        self._file = SQLiteFile(path, synchronous)
        self.path = self._file.path
        self.archive = SQLiteArchive(self._file)
        self.reads = SQLiteReads(self._file)
        self.writes = SQLiteWrites(self._file, self.archive)
        if self.path != ":memory:":
            if move_file:
                self._file.moves = MoveLog(self, synchronous, server_writes)
            else:
                restore_moves(self)

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        """The requests in one transaction, so one commit (one write to the log) for all
        of them; a single statement that fails undoes only itself, a command of several
        statements runs in a savepoint.  Consecutive actions go in as one statement
        (each SQLite statement hands the interpreter lock to the event loop and waits to
        get it back: a batch of moves is a few statements, not one per move).  If the
        commit fails, every request fails."""
        if self._file.moves is not None:
            return self._run_with_moves(requests, self._file.moves)
        return self._run_in_one(requests)

    def _run_in_one(self, requests: Sequence[Request]) -> list[Any]:
        with self._file.lock:
            # Moves only (the usual batch) make one statement: a transaction by itself
            # (autocommit), with no BEGIN and COMMIT around it.
            one_statement = 1 < len(requests) <= ROWS_PER_INSERT and not self._file.db.in_transaction \
                and all(type(r) is AppendAction for r in requests)
            try:
                with nullcontext() if one_statement else self._file.transaction():
                    out: list[Any] = []
                    start = 0
                    while start < len(requests):
                        end = start
                        while end < len(requests) and end - start < ROWS_PER_INSERT \
                                and type(requests[end]) is AppendAction:
                            end += 1
                        if end - start > 1:
                            out += self.writes.append_actions(requests[start:end])  # type: ignore[arg-type]
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
        with self._file.lock:
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
                        if isinstance(request, ENDS) and result is None:
                            moves.forget(request.table_id)  # committed: its moves are in its record
                    out += done
                start = end
        return out

    @property
    def move_log(self) -> MoveLog | None:
        """The move file, while this journal keeps one (``move_file``)."""
        return self._file.moves

    def insert_actions(self, rows: Sequence[tuple[str, int, str]], restoring: bool = False) -> None:
        """Encoded actions (``(table_id, index, text)``) in one transaction: all or none
        (StorageError).  ``restoring``: rows from a move file, of which those already
        stored or of a table that is gone or has ended are left out."""
        with self._file.lock:
            try:
                with self._file.transaction():
                    if restoring:
                        self._file.db.executemany(
                            "INSERT OR IGNORE INTO actions (table_id, idx, action) SELECT ?, ?, ? WHERE EXISTS "
                            "(SELECT 1 FROM tables WHERE id=? AND status NOT IN ('finished', 'closed', 'damaged'))",
                            [(t, i, a, t) for t, i, a in rows])
                        return
                    for start in range(0, len(rows), ROWS_PER_INSERT):
                        self._file.insert_rows(rows[start:start + ROWS_PER_INSERT])
            except sqlite3.Error as exc:
                raise JournalUnavailable(f"the journal could not commit: {exc}") from exc

    def moves_lost(self, damage: Sequence[Damage]) -> None:
        """:meth:`~.movefile.ActionStore.moves_lost`: a :class:`~.journal.MarkDamaged` for each
        running table with a move legible in the damaged bytes that is not stored."""
        lost: dict[str, str] = {}
        with self._file.lock:
            for d in damage:
                for table_id, index in d.rows:
                    if table_id not in lost and self._file.db.execute(
                            "SELECT 1 FROM tables WHERE id=? AND status IN ('waiting', 'playing') AND NOT EXISTS "
                            "(SELECT 1 FROM actions WHERE table_id=? AND idx=?)", (table_id, table_id, index)).fetchone():
                        lost[table_id] = d.reason
            for table_id, reason in lost.items():
                log.error("table %s: %s", table_id, reason)
            failed = [r for r in self._run_in_one([MarkDamaged(t, why) for t, why in lost.items()]) if r is not None]
        if failed:
            raise StorageError(f"the damage in the move file could not be recorded: {failed[0]}")

    def action_indices(self, table_id: str) -> set[int]:
        """The indices of the actions stored for ``table_id``; StorageError if there is no such
        table, or it has ended (it takes no more actions)."""
        with self._file.lock:
            self._file.check_open(table_id)
            return {idx for (idx,) in self._file.db.execute("SELECT idx FROM actions WHERE table_id=?", (table_id,))}

    def stored_action(self, table_id: str, index: int) -> str | None:
        return self.writes.stored_action(table_id, index)

    def take_in_moves(self, when_full: bool = False) -> None:
        """:meth:`~.file.SQLiteFile.take_in_moves`."""
        self._file.take_in_moves(when_full)

    def integrity_check(self) -> str:
        return self._file.integrity_check()

    def close(self) -> None:
        self._file.close()
