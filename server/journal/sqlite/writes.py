"""The journal commands in the SQLite file (:mod:`.storage`): a table's creation, seats,
actions (each index checked against the next one of its table; in the move file when
the journal has one), refusals, and its end, when its actions are compacted into one
record on its row."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any, Sequence

from scopa.engine import Action, RuleSet

from ..commands import AppendAction, AppendTournamentEvent, FinishTable, RecordRefusal
from ..values import StorageError, TableTaken, compact, encode_action, rules_json, stored_tournament_event
from ..values import table_number, taken
from .archive import SQLiteArchive
from .file import OPEN, SQLiteFile


class SQLiteWrites:
    """The commands' statements on the journal's file; finishing a game saves its players
    and ratings through ``archive`` in the same transaction."""

    def __init__(self, file: SQLiteFile, archive: SQLiteArchive) -> None:
        self._file = file
        self._archive = archive

    def append_actions(self, commands: Sequence[AppendAction]) -> list[Any]:
        """Several actions in one INSERT: each index checked first (the next one is stored;
        the same action again is accepted as it is; another action for a stored index,
        or a gap, is refused); if the INSERT is refused, one by one."""
        out: list[Any] = []
        rows: list[tuple[str, int, str]] = []
        following: dict[str, int] = {}
        for c in commands:
            nxt = following.get(c.table_id)
            try:
                if nxt is None:
                    self._file.check_open(c.table_id)
                    nxt = self.next_index(c.table_id)
                if c.index == nxt:
                    rows.append((c.table_id, c.index, c.action))
                    nxt += 1
                    out.append(None)
                else:
                    self._check_stored(c, nxt)
                    out.append(None)
            except StorageError as exc:
                out.append(exc)
                if nxt is None:
                    continue
            following[c.table_id] = nxt
        if not rows:
            return out
        try:
            # One statement: if it fails, SQLite undoes it alone (no savepoint needed).
            self._file.insert_rows(rows)
        except sqlite3.IntegrityError:
            return [self._one_by_one(c) for c in commands]
        return out

    def _one_by_one(self, command: AppendAction) -> Exception | None:
        try:
            self.append_encoded(command.table_id, command.index, command.action)
        except Exception as exc:  # noqa: BLE001 - handed to whoever waits for this request
            return exc
        return None

    def next_index(self, table_id: str) -> int:
        """The index of the next action of ``table_id`` (0 for a table with none stored)."""
        row = self._file.db.execute("SELECT MAX(idx) FROM actions WHERE table_id=?", (table_id,)).fetchone()
        return 0 if row is None or row[0] is None else int(row[0]) + 1

    def stored_action(self, table_id: str, index: int) -> str | None:
        row = self._file.db.execute("SELECT action FROM actions WHERE table_id=? AND idx=?", (table_id, index)).fetchone()
        return None if row is None else str(row[0])

    def _check_stored(self, command: AppendAction, following: int) -> None:
        """An action that is not the next one: accepted if it is stored as it is, else refused."""
        if command.index > following or command.index < 0:
            raise StorageError(f"table {command.table_id}: action {command.index} given, {following} expected")
        if self.stored_action(command.table_id, command.index) != command.action:
            raise StorageError(f"table {command.table_id}: action {command.index} is journaled already, "
                               "as another action")

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> None:
        with self._file.lock:
            if self._file.db.execute("SELECT 1 FROM tables WHERE id=?", (table_id,)).fetchone() is not None:
                raise TableTaken(taken(table_id))
        self._file.exec(
            "INSERT INTO tables (id, num, rules, seed, private, options, status, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 'waiting', ?)",
            (table_id, table_number(table_id), rules_json(rules), seed, int(private),
             json.dumps(options or {}, separators=(",", ":")), time.time()),
        )

    def claim_table(self, table_id: str) -> None:
        """An SQLite file has one writer (its server's journal process): there is nothing
        to fence; the table must be there, unfinished."""
        if self._file.exec("SELECT 1 FROM tables WHERE id=? AND status IN ('waiting', 'playing')",
                           (table_id,)).fetchone() is None:
            raise StorageError(f"no unfinished table {table_id!r} in storage")

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> None:
        self._file.changed(self._file.exec(
            f"INSERT OR REPLACE INTO seats (table_id, seat, name, token_digest, bot) SELECT ?, ?, ?, ?, ? "
            f"WHERE EXISTS (SELECT 1 FROM tables WHERE id=? AND {OPEN})",
            (table_id, seat, name, token_digest, bot, table_id)), table_id)

    def clear_seat(self, table_id: str, seat: int) -> None:
        with self._file.lock:
            self._file.check_open(table_id)
            self._file.exec("DELETE FROM seats WHERE table_id=? AND seat=?", (table_id, seat))

    def start_table(self, table_id: str) -> None:
        self._file.changed(self._file.exec(f"UPDATE tables SET status='playing' WHERE id=? AND {OPEN}", (table_id,)),
                           table_id)

    def take_table_ids(self, count: int) -> int:
        """A block of ids: the last one handed out (``meta.table_ids``) or the highest one
        stored, whichever is higher, raised by ``count`` and kept."""
        with self._file.transaction():
            row = self._file.db.execute("SELECT value FROM meta WHERE key='table_ids'").fetchone()
            stored = self._file.db.execute("SELECT MAX(num) FROM tables").fetchone()
            top = max(int(row[0]) if row is not None else 0, int(stored[0] or 0)) + count
            self._file.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('table_ids', ?)", (str(top),))
        return top

    def append_tournament_event(self, command: AppendTournamentEvent) -> None:
        c = command
        with self._file.transaction():
            self._file.db.execute("INSERT OR IGNORE INTO tournament_events VALUES (?, ?, ?, ?)",
                                  (c.tournament_id, c.seq, c.kind, c.data))
            row = self._file.db.execute("SELECT kind, data FROM tournament_events WHERE tournament_id=? AND seq=?",
                                        (c.tournament_id, c.seq)).fetchone()
        stored_tournament_event(row, c)

    def append_action(self, table_id: str, index: int, action: Action) -> None:
        self.append_encoded(table_id, index, encode_action(action))

    def append_encoded(self, table_id: str, index: int, encoded: str) -> None:
        """:meth:`append_action` with the action as :func:`encode_action` wrote it."""
        if self._file.moves is not None:
            [refused] = self._file.moves.append([AppendAction(table_id, index, encoded)])
            if refused is not None:
                raise refused
            return
        with self._file.lock:
            self._file.check_open(table_id)
            following = self.next_index(table_id)
            if index != following:
                self._check_stored(AppendAction(table_id, index, encoded), following)
                return
            # The primary key (table_id, idx) refuses an index journaled before: never twice.
            self._file.exec("INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)", (table_id, index, encoded))

    def record_refusal(self, command: RecordRefusal) -> None:
        c = command
        self._file.changed(self._file.exec(
            "INSERT OR IGNORE INTO refusals (table_id, idx, seat, nth, code) SELECT ?, ?, ?, ?, ? "
            f"WHERE EXISTS (SELECT 1 FROM tables WHERE id=? AND {OPEN})",
            (c.table_id, c.index, c.seat, c.nth, c.code, c.table_id)), c.table_id)  # else: journaled once already

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int], reason: str,
                     at: float | None = None, leaver: int | None = None) -> None:
        self._end(table_id, "UPDATE tables SET status='finished', finished_at=?, winner=?, totals=?, reason=?, "
                            f"leaver=?, record=? WHERE id=? AND {OPEN}",
                  (at or time.time(), winner, json.dumps(list(totals)), reason, leaver))

    def finish(self, command: FinishTable) -> None:
        """The game's end, who played it and its ratings, in one transaction."""
        with self._file.transaction():
            self.finish_table(command.table_id, command.winner, command.totals, command.reason, command.finished_at,
                              command.leaver)
            if command.players:
                self._archive.save_players(command.table_id, command.players)
            if command.rating is not None:
                self._archive.save_ratings(command.rating.preset, command.rating.ratings)
        self._ended(command.table_id)

    def close_table(self, table_id: str, reason: str) -> None:
        self._end(table_id, f"UPDATE tables SET status='closed', finished_at=?, reason=?, record=? WHERE id=? AND {OPEN}",
                  (time.time(), reason))

    def _end(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        """Finish or close a table and compact its actions into its row, in one transaction."""
        with self._file.transaction():
            rows = dict(self._file.db.execute("SELECT idx, action FROM actions WHERE table_id=?", (table_id,)).fetchall())
            if self._file.moves is not None:
                rows.update(self._file.moves.pending_of(table_id))
            record = compact([rows[i] for i in sorted(rows)]) if rows else None
            self._file.changed(self._file.db.execute(sql, (*args, record, table_id)), table_id)
            self._file.db.execute("DELETE FROM actions WHERE table_id=?", (table_id,))
        self._ended(table_id)

    def mark_damaged(self, table_id: str, reason: str) -> None:
        self._file.changed(self._file.exec(f"UPDATE tables SET status='damaged', reason=? WHERE id=? AND {OPEN}",
                                 (reason[:500], table_id)), table_id)
        self._ended(table_id)

    def _ended(self, table_id: str) -> None:
        """``table_id`` has ended: once that is committed (outside a batch; a batch says it
        after its commit), the move file forgets its moves."""
        if self._file.moves is not None and not self._file.db.in_transaction:
            self._file.moves.forget(table_id)
