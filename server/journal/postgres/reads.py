"""What the PostgreSQL journal (:mod:`.storage`) reads back of its tables: the unfinished
ones to restore, the finished ones' results, a table's actions and refusals."""

from __future__ import annotations

import json
from collections import defaultdict
from functools import partial
from typing import Any

from scopa.engine import Action

from ..commands import RecordRefusal
from ..values import (
    Actions,
    FINISHED, FinishedTable, StorageError, StoredSeat, StoredTable, TableResult, decode_actions, read_unfinished,
    rules_from, uncompact
)
from .link import PgLink


class PgReads:
    """The queries of the tables, on the batch's connection (:class:`~.link.PgLink`)."""

    def __init__(self, link: PgLink) -> None:
        self._link = link

    async def load_tournament_events(self) -> list[tuple[str, int, str, str]]:
        rows = await self._link.all("SELECT tournament_id, seq, kind, data FROM tournament_events "
                                    "ORDER BY tournament_id, seq")
        return [(str(t), int(seq), str(kind), str(data)) for t, seq, kind, data in rows]

    async def load_damaged(self) -> list[tuple[str, str]]:
        rows = await self._link.all("SELECT id, reason FROM tables WHERE status='damaged' ORDER BY num, id")
        return [(str(tid), str(reason or "")) for tid, reason in rows]

    async def load_unfinished(self) -> list[StoredTable]:
        rows = await self._link.all("SELECT id, rules, seed, private, options, status FROM tables "
                               "WHERE status IN ('waiting', 'playing') ORDER BY num, id")
        ids = [row[0] for row in rows]
        seats: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        for tid, *seat in await self._link.all("SELECT table_id, seat, name, token_digest, bot FROM seats "
                                          "WHERE table_id = ANY(%s) ORDER BY table_id, seat", (ids,)):
            seats[tid].append(tuple(seat))
        actions: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        for tid, *action in await self._link.all("SELECT table_id, idx, action FROM actions WHERE table_id = ANY(%s) "
                                            "ORDER BY table_id, idx", (ids,)):
            actions[tid].append(tuple(action))
        return [read_unfinished(row, partial(seats.__getitem__, row[0]), partial(actions.__getitem__, row[0]))
                for row in rows]

    async def _seats(self, table_id: str, players: int) -> list[StoredSeat | None]:
        seats: list[StoredSeat | None] = [None] * players
        for seat, name, digest, bot in await self._link.all(
                "SELECT seat, name, token_digest, bot FROM seats WHERE table_id=%s ORDER BY seat", (table_id,)):
            if 0 <= seat < players:
                seats[seat] = StoredSeat(seat, name, digest, bot)
        return seats

    async def load_results(self, limit: int = 100) -> list[TableResult]:
        rows = await self._link.all("SELECT id, rules, winner, totals, reason, finished_at FROM tables "
                               "WHERE status='finished' ORDER BY finished_at DESC, num DESC LIMIT %s", (limit,))
        out = []
        for tid, rules_text, winner, totals, reason, finished_at in rows:
            rules = rules_from(rules_text)
            names = tuple(s.name if s else None for s in await self._seats(tid, rules.players))
            out.append(TableResult(tid, rules, names, winner, tuple(json.loads(totals or "[]")), reason or "",
                                   finished_at or 0.0))
        return out

    async def load_finished_since(self, since: float) -> list[FinishedTable]:
        rows = await self._link.all(
            "SELECT id, rules, seed, private, options, winner, totals, reason, finished_at, leaver FROM tables "
            "WHERE status='finished' AND finished_at >= %s ORDER BY num, id", (since,))
        out = []
        for tid, rules_text, seed, private, options, winner, totals, reason, finished_at, leaver in rows:
            rules = rules_from(rules_text)
            seats = await self._seats(tid, rules.players)
            result = TableResult(tid, rules, tuple(s.name if s else None for s in seats), winner,
                                 tuple(json.loads(totals or "[]")), reason or "", finished_at or 0.0, leaver)
            out.append(FinishedTable(StoredTable(tid, rules, seed, bool(private), json.loads(options), FINISHED, seats),
                                     result))
        return out

    async def load_actions(self, table_id: str) -> Actions:
        rows = await self._link.all("SELECT idx, action FROM actions WHERE table_id=%s ORDER BY idx", (table_id,))
        record = await self._link.one("SELECT record FROM tables WHERE id=%s", (table_id,))
        if not rows and record is not None and record[0] is not None:
            return decode_actions(uncompact(bytes(record[0])))
        for i, (idx, _) in enumerate(rows):
            if idx != i:
                raise StorageError(f"table {table_id}: action {i} is missing from the journal")
        return decode_actions(text for _, text in rows)

    async def load_refusals(self, table_id: str) -> list[RecordRefusal]:
        rows = await self._link.all("SELECT seat, idx, code, nth FROM refusals WHERE table_id=%s ORDER BY idx, seat, nth",
                               (table_id,))
        return [RecordRefusal(table_id, seat, idx, code, nth) for seat, idx, code, nth in rows]

    async def last_table_id(self) -> int:
        row = await self._link.one("SELECT MAX(num) FROM tables")
        return int(row[0] or 0) if row is not None else 0
