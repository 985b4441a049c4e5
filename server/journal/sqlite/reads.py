"""What the SQLite journal (:mod:`.storage`) reads back of its tables: the unfinished ones
to restore (a table that cannot be read back comes with its ``damage`` said), the
finished ones' results, a table's actions and refusals."""

from __future__ import annotations

import json
from typing import Any

from scopa.engine import Action

from ..commands import RecordRefusal
from ..values import (
    Actions,
    FINISHED, FinishedTable, StorageError, StoredSeat, StoredTable, TableResult, decode_actions, read_unfinished,
    rules_from, uncompact
)
from .file import SQLiteFile


class SQLiteReads:
    """The queries of the tables on the journal's file (the move file's moves taken in
    first where actions are read)."""

    def __init__(self, file: SQLiteFile) -> None:
        self._file = file

    def load_refusals(self, table_id: str) -> list[RecordRefusal]:
        with self._file.lock:
            rows = self._file.db.execute("SELECT seat, idx, code, nth FROM refusals WHERE table_id=? ORDER BY idx, seat, nth",
                                    (table_id,)).fetchall()
        return [RecordRefusal(table_id, seat, idx, code, nth) for seat, idx, code, nth in rows]

    def load_tournament_events(self) -> list[tuple[str, int, str, str]]:
        with self._file.lock:
            rows = self._file.db.execute("SELECT tournament_id, seq, kind, data FROM tournament_events "
                                         "ORDER BY tournament_id, seq").fetchall()
        return [(str(t), int(seq), str(kind), str(data)) for t, seq, kind, data in rows]

    def load_damaged(self) -> list[tuple[str, str]]:
        with self._file.lock:
            rows = self._file.db.execute("SELECT id, reason FROM tables WHERE status='damaged' ORDER BY num, id").fetchall()
        return [(str(tid), str(reason or "")) for tid, reason in rows]

    def load_unfinished(self) -> list[StoredTable]:
        with self._file.lock:
            self._file.take_in_moves()
            rows = self._file.db.execute(
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
            lambda: self._file.db.execute("SELECT seat, name, token_digest, bot FROM seats WHERE table_id=? ORDER BY seat",
                                     (tid,)).fetchall(),
            lambda: self._file.db.execute("SELECT idx, action FROM actions WHERE table_id=? ORDER BY idx",
                                     (tid,)).fetchall())

    def load_results(self, limit: int = 100) -> list[TableResult]:
        with self._file.lock:
            rows = self._file.db.execute(
                "SELECT id, rules, winner, totals, reason, finished_at FROM tables WHERE status='finished' "
                "ORDER BY finished_at DESC, num DESC LIMIT ?", (limit,)
            ).fetchall()
            out = []
            for tid, rules_text, winner, totals, reason, finished_at in rows:
                rules = rules_from(rules_text)
                names: list[str | None] = [None] * rules.players
                for seat, name in self._file.db.execute("SELECT seat, name FROM seats WHERE table_id=?", (tid,)):
                    if 0 <= seat < rules.players:
                        names[seat] = name
                out.append(TableResult(tid, rules, tuple(names), winner, tuple(json.loads(totals or "[]")),
                                       reason or "", finished_at or 0.0))
            return out

    def load_finished_since(self, since: float) -> list[FinishedTable]:
        with self._file.lock:
            rows = self._file.db.execute(
                "SELECT id, rules, seed, private, options, winner, totals, reason, finished_at, leaver FROM tables "
                "WHERE status='finished' AND finished_at >= ? ORDER BY num, id", (since,)
            ).fetchall()
            out = []
            for tid, rules_text, seed, private, options, winner, totals, reason, finished_at, leaver in rows:
                rules = rules_from(rules_text)
                seats: list[StoredSeat | None] = [None] * rules.players
                for seat, name, digest, bot in self._file.db.execute(
                    "SELECT seat, name, token_digest, bot FROM seats WHERE table_id=? ORDER BY seat", (tid,)
                ):
                    if 0 <= seat < rules.players:
                        seats[seat] = StoredSeat(seat, name, digest, bot)
                result = TableResult(tid, rules, tuple(s.name if s else None for s in seats), winner,
                                     tuple(json.loads(totals or "[]")), reason or "", finished_at or 0.0, leaver)
                stored = StoredTable(tid, rules, seed, bool(private), json.loads(options), FINISHED, seats)
                out.append(FinishedTable(stored, result))
            return out

    def load_actions(self, table_id: str) -> Actions:
        with self._file.lock:
            self._file.take_in_moves()
            rows = self._file.db.execute("SELECT idx, action FROM actions WHERE table_id=? ORDER BY idx",
                                    (table_id,)).fetchall()
            record = self._file.db.execute("SELECT record FROM tables WHERE id=?", (table_id,)).fetchone()
        if not rows and record is not None and record[0] is not None:
            return decode_actions(uncompact(record[0]))
        for i, (idx, _) in enumerate(rows):
            if idx != i:
                raise StorageError(f"table {table_id}: action {i} is missing from the journal")
        return decode_actions(text for _, text in rows)

    def last_table_id(self) -> int:
        with self._file.lock:
            row = self._file.db.execute("SELECT MAX(num) FROM tables").fetchone()
        return int(row[0] or 0)
