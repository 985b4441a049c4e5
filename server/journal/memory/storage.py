"""The journal in a dict (:class:`MemoryStorage`): nothing survives the process.  The
reference of the semantics every backend has (the conformance suite runs on it too)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from scopa.engine import Action, RuleSet

from ..commands import AppendTournamentEvent, FinishTable, RecordRefusal, Request
from ..ops import run_requests
from ..values import (
    Actions,
    CLOSED, DAMAGED, FINISHED, PLAYING, WAITING, FinishedTable, StorageError, StoredSeat, StoredTable, TableResult,
    TableTaken, decode_actions, encode_action, ended, taken, read_unfinished, rules_json, stored_tournament_event,
    table_number
)
from .archive import MemoryArchive


@dataclass
class _MemTable:
    rules: RuleSet
    seed: int
    private: bool
    options: dict[str, Any]
    status: str = WAITING
    seats: dict[int, StoredSeat] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    result: TableResult | None = None
    damage: str = ""
    refusals: dict[tuple[int, int, int], RecordRefusal] = field(default_factory=dict)  # by (index, seat, nth)


class MemoryTournaments:
    """The tournaments' events (:class:`~scopa.server.journal.commands.AppendTournamentEvent`) in a dict."""

    _tournament_events: dict[tuple[str, int], tuple[str, str]]  # (tournament, seq) -> (kind, data)

    def append_tournament_event(self, command: AppendTournamentEvent) -> None:
        key, value = (command.tournament_id, command.seq), (command.kind, command.data)
        stored_tournament_event(self._tournament_events.setdefault(key, value), command)

    def load_tournament_events(self) -> list[tuple[str, int, str, str]]:
        return [(t, seq, kind, data) for (t, seq), (kind, data) in sorted(self._tournament_events.items())]


class MemoryStorage(MemoryArchive, MemoryTournaments):
    """A storage backend in a dict: nothing survives the process.  Same checks as SQLite."""

    blocks = False

    def __init__(self) -> None:
        self._tables: dict[str, _MemTable] = {}
        self._top_id = 0  # the last table id handed out (TakeTableIds)
        self._tournament_events = {}
        self.writes = self.reads = self.archive = self  # one object holds the three parts of its operations

    def _get(self, table_id: str) -> _MemTable:
        try:
            return self._tables[table_id]
        except KeyError:
            raise StorageError(f"no table {table_id!r} in storage") from None

    def _open(self, table_id: str) -> _MemTable:
        """A table that takes writes: StorageError if there is none, or it has ended."""
        t = self._get(table_id)
        if t.status not in (WAITING, PLAYING):
            raise StorageError(ended(table_id, t.status))
        return t

    def take_table_ids(self, count: int) -> int:
        self._top_id = max(self._top_id, self.last_table_id()) + count
        return self._top_id

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> None:
        if table_id in self._tables:
            raise TableTaken(taken(table_id))
        self._tables[table_id] = _MemTable(rules, seed, private, json.loads(json.dumps(options or {})))

    def claim_table(self, table_id: str) -> None:
        """One process, one writer: nothing to fence; the table must be there, unfinished."""
        if self._get(table_id).status not in (WAITING, PLAYING):
            raise StorageError(f"table {table_id!r} has ended")

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> None:
        self._open(table_id).seats[seat] = StoredSeat(seat, name, token_digest, bot)

    def clear_seat(self, table_id: str, seat: int) -> None:
        self._open(table_id).seats.pop(seat, None)

    def start_table(self, table_id: str) -> None:
        self._open(table_id).status = PLAYING

    def append_action(self, table_id: str, index: int, action: Action) -> None:
        self.append_encoded(table_id, index, encode_action(action))

    def append_encoded(self, table_id: str, index: int, encoded: str) -> None:
        t = self._open(table_id)
        if 0 <= index < len(t.actions):
            if t.actions[index] == encoded:
                return  # the same action again: journaled once
            raise StorageError(f"table {table_id}: action {index} is journaled already, as another action")
        if index != len(t.actions):
            raise StorageError(f"table {table_id}: action {index} given, {len(t.actions)} expected")
        t.actions.append(encoded)

    def record_refusal(self, command: RecordRefusal) -> None:
        self._open(command.table_id).refusals.setdefault((command.index, command.seat, command.nth), command)

    def load_refusals(self, table_id: str) -> list[RecordRefusal]:
        refusals = self._get(table_id).refusals
        return [refusals[key] for key in sorted(refusals)]

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int], reason: str) -> None:
        self.finish(FinishTable(table_id, winner, tuple(totals), reason))

    def finish(self, command: FinishTable) -> None:
        t = self._open(command.table_id)
        t.status = FINISHED
        names = tuple(t.seats[i].name if i in t.seats else None for i in range(t.rules.players))
        t.result = TableResult(command.table_id, t.rules, names, command.winner, tuple(command.totals),
                               command.reason, command.finished_at or time.time(), command.leaver)
        if command.players:
            self.save_players(command.table_id, command.players)
        if command.rating is not None:
            self.save_ratings(command.rating.preset, command.rating.ratings)

    def close_table(self, table_id: str, reason: str) -> None:
        self._open(table_id).status = CLOSED

    def mark_damaged(self, table_id: str, reason: str) -> None:
        t = self._open(table_id)
        t.status, t.damage = DAMAGED, reason

    def load_damaged(self) -> list[tuple[str, str]]:
        return [(tid, t.damage) for tid, t in sorted(self._tables.items(), key=lambda kv: table_number(kv[0]))
                if t.status == DAMAGED]

    def load_unfinished(self) -> list[StoredTable]:
        out = []
        for tid, t in sorted(self._tables.items(), key=lambda kv: table_number(kv[0])):
            if t.status in (WAITING, PLAYING):
                row = (tid, rules_json(t.rules), t.seed, t.private, json.dumps(t.options), t.status)
                seats = [(s.seat, s.name, s.token_digest, s.bot) for s in t.seats.values()]
                actions = list(enumerate(t.actions))
                out.append(read_unfinished(row, lambda: seats, lambda: actions))
        return out

    def load_results(self, limit: int = 100) -> list[TableResult]:
        done = [t.result for t in self._tables.values() if t.result is not None]
        done.sort(key=lambda r: (r.finished_at, table_number(r.id)), reverse=True)
        return done[:limit]

    def load_actions(self, table_id: str) -> Actions:
        return decode_actions(self._get(table_id).actions)

    def load_finished_since(self, since: float) -> list[FinishedTable]:
        out = []
        for tid, t in sorted(self._tables.items(), key=lambda kv: table_number(kv[0])):
            if t.status == FINISHED and t.result is not None and t.result.finished_at >= since:
                seats = [t.seats.get(i) for i in range(t.rules.players)]
                out.append(FinishedTable(StoredTable(tid, t.rules, t.seed, t.private, dict(t.options), FINISHED,
                                                     seats), t.result))
        return out

    def last_table_id(self) -> int:
        return max((table_number(t) for t in self._tables), default=0)

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        return run_requests(self, requests)

    def close(self) -> None:
        pass
