"""The journal commands in PostgreSQL (:mod:`.postgres`): a table's creation, seats,
actions (checked against the next index of their table), refusals and end."""

from __future__ import annotations

import json
import time
from typing import Any, Sequence

import psycopg

from scopa.engine import RuleSet

from .journal import AppendAction, FinishTable, RecordRefusal
from .journal_values import StorageError, compact, rules_json, table_number
from .pg_archive import PgArchive
from .pg_link import PgLink

INSERT_ACTIONS = (b"INSERT INTO actions (table_id, idx, action) SELECT r->>0, (r->>1)::int, r->>2 "
                  b"FROM jsonb_array_elements($1::text::jsonb) r")


class PgWrites:
    """The commands' statements, on the batch's connection (:class:`~.pg_link.PgLink`).
    ``committed``: the next action index of tables as committed (the journal is their one
    writer), kept up to date by the storage after each batch."""

    def __init__(self, link: PgLink, archive: PgArchive) -> None:
        self._link = link
        self._archive = archive
        self.committed: dict[str, int] = {}

    async def append_actions(self, commands: Sequence[AppendAction], following: dict[str, int]) -> list[Any]:
        """Actions: each index checked against the next one of its table (known from the
        batches committed before, else one query), the new ones stored by one statement;
        ``following``: the next index of each table once this batch is committed."""
        unknown = sorted({c.table_id for c in commands} - following.keys() - self.committed.keys())
        if unknown:
            cur = await self._link.db.execute(
                "SELECT t.id, (SELECT MAX(idx) FROM actions a WHERE a.table_id = t.id) FROM tables t WHERE t.id = ANY(%s)",
                (unknown,))
            following.update({tid: (-1 if top is None else top) + 1 for tid, top in await cur.fetchall()})
        for tid in {c.table_id for c in commands} - following.keys():
            if tid in self.committed:
                following[tid] = self.committed[tid]
        out: list[Any] = []
        rows: list[tuple[str, int, str]] = []
        for c in commands:
            nxt = following.get(c.table_id)
            if nxt is None:
                out.append(StorageError(f"no table {c.table_id!r} in storage"))
            elif c.index == nxt:
                rows.append((c.table_id, c.index, c.action))
                following[c.table_id] = nxt + 1
                out.append(None)
            elif not 0 <= c.index < nxt:
                out.append(StorageError(f"table {c.table_id}: action {c.index} given, {nxt} expected"))
            elif await self._stored_action(c.table_id, c.index) != c.action:
                out.append(StorageError(f"table {c.table_id}: action {c.index} is journaled already, as another action"))
            else:
                out.append(None)  # the same action again: journaled once
        if rows:  # one text parameter (a JSON list of rows): far less to convert than three arrays
            await self._link.run_plain(INSERT_ACTIONS, json.dumps(rows, separators=(",", ":")).encode())
        return out

    async def _stored_action(self, table_id: str, index: int) -> str | None:
        row = await self._link.one("SELECT action FROM actions WHERE table_id=%s AND idx=%s", (table_id, index))
        return None if row is None else str(row[0])

    async def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                           options: dict[str, Any] | None = None) -> None:
        try:
            await self._link.db.execute(
                "INSERT INTO tables (id, num, rules, seed, private, options, status, created_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, 'waiting', %s)",
                (table_id, table_number(table_id), rules_json(rules), seed, private,
                 json.dumps(options or {}, separators=(",", ":")), time.time()))
        except psycopg.errors.UniqueViolation:
            raise StorageError(f"table {table_id!r} already exists") from None

    async def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                       bot: str | None = None) -> None:
        try:
            await self._link.db.execute(
                "INSERT INTO seats (table_id, seat, name, token_digest, bot) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (table_id, seat) DO UPDATE SET name=EXCLUDED.name, token_digest=EXCLUDED.token_digest, "
                "bot=EXCLUDED.bot", (table_id, seat, name, token_digest, bot))
        except psycopg.errors.ForeignKeyViolation:
            raise StorageError(f"no table {table_id!r} in storage") from None

    async def clear_seat(self, table_id: str, seat: int) -> None:
        await self._link.db.execute("DELETE FROM seats WHERE table_id=%s AND seat=%s", (table_id, seat))

    async def start_table(self, table_id: str) -> None:
        await self._link.change(table_id, "UPDATE tables SET status='playing' WHERE id=%s", (table_id,))

    async def append_encoded(self, table_id: str, index: int, encoded: str) -> None:
        following: dict[str, int] = {}
        [result] = await self.append_actions([AppendAction(table_id, index, encoded)], following)
        if result is not None:
            raise result

    async def record_refusal(self, command: RecordRefusal) -> None:
        c = command
        try:
            await self._link.db.execute("INSERT INTO refusals (table_id, idx, seat, nth, code) VALUES (%s, %s, %s, %s, %s) "
                                   "ON CONFLICT DO NOTHING", (c.table_id, c.index, c.seat, c.nth, c.code))
        except psycopg.errors.ForeignKeyViolation:
            raise StorageError(f"no table {c.table_id!r} in storage") from None

    async def finish(self, command: FinishTable) -> None:
        async with self._link.db.transaction():
            await self._end(command.table_id, "UPDATE tables SET status='finished', finished_at=%s, winner=%s, "
                                              "totals=%s, reason=%s, record=%s WHERE id=%s",
                            (command.finished_at or time.time(), command.winner, json.dumps(list(command.totals)),
                             command.reason))
            if command.players:
                await self._archive.save_players(command.table_id, command.players)
            if command.rating is not None:
                await self._archive.save_ratings(command.rating.preset, command.rating.ratings)

    async def close_table(self, table_id: str, reason: str) -> None:
        async with self._link.db.transaction():
            await self._end(table_id, "UPDATE tables SET status='closed', finished_at=%s, reason=%s, record=%s "
                                      "WHERE id=%s", (time.time(), reason))

    async def _end(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        """In the transaction of finishing or closing ``table_id``: its actions taken out and
        compacted into its row (undone with the transaction if there is no such table)."""
        rows = await self._link.all("DELETE FROM actions WHERE table_id=%s RETURNING idx, action", (table_id,))
        record = compact([action for _, action in sorted(rows)]) if rows else None
        await self._link.change(table_id, sql, (*args, record, table_id))

    async def mark_damaged(self, table_id: str, reason: str) -> None:
        await self._link.change(table_id, "UPDATE tables SET status='damaged', reason=%s WHERE id=%s",
                           (reason[:500], table_id))
