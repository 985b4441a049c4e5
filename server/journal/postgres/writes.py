"""The journal commands in PostgreSQL (:mod:`.storage`): a table's creation, seats,
actions (checked against the next index of their table), refusals and end, each write of
a table fenced.

The fence (``tables.fence``): a claim (:class:`~.journal.ClaimTable`) raises it by one and
this journal keeps the value it got; every later write of the table is one statement that
stores only if the table's fence is still that value (0 for a table this journal created
and nobody claimed), reading it with a share lock on the table's row, so a claim waits for
a write under way and a write after a claim sees its fence.  A write refused so is
:class:`~scopa.server.journal.values.Fenced`."""

from __future__ import annotations

import json
import time
from typing import Any, Sequence

import psycopg

from scopa.engine import RuleSet

from ..commands import AppendAction, AppendTournamentEvent, FinishTable, RecordRefusal
from ..values import PLAYING, WAITING, Fenced, StorageError, TableTaken, compact, ended, rules_json
from ..values import stored_tournament_event, table_number, taken
from .archive import PgArchive
from .link import PgLink

INSERT_ACTIONS = (b"WITH r AS (SELECT r->>0 AS t, (r->>1)::int AS i, r->>2 AS a, (r->>3)::bigint AS f "
                  b"FROM jsonb_array_elements($1::text::jsonb) r), "
                  b"held AS (SELECT id, fence FROM tables WHERE id IN (SELECT t FROM r) AND status IN ('waiting', 'playing') "
                  b"FOR SHARE), "
                  b"ins AS (INSERT INTO actions (table_id, idx, action) "
                  b"SELECT r.t, r.i, r.a FROM r JOIN held ON held.id = r.t AND held.fence = r.f) "
                  b"SELECT DISTINCT r.t FROM r LEFT JOIN held ON held.id = r.t AND held.fence = r.f "
                  b"WHERE held.id IS NULL")
"""The rows ``[table, index, action, fence]`` of a batch, stored where the table's fence is
theirs and it has not ended: the tables whose rows were not."""
OPEN = "status IN ('waiting', 'playing')"
"""The tables that take writes: a table that has ended is never written again."""


class PgWrites:
    """The commands' statements, on the batch's connection (:class:`~.link.PgLink`).
    ``committed``: the next action index of tables as committed (this journal is their one
    writer while the fence is its own), kept up to date by the storage after each batch;
    ``fences``: the fence of each table this journal claimed (0 if absent)."""

    def __init__(self, link: PgLink, archive: PgArchive) -> None:
        self._link = link
        self._archive = archive
        self.committed: dict[str, int] = {}
        self.fences: dict[str, int] = {}

    def fence(self, table_id: str) -> int:
        return self.fences.get(table_id, 0)

    async def claim_table(self, table_id: str) -> None:
        row = await self._link.one("UPDATE tables SET fence = fence + 1 WHERE id=%s AND status IN ('waiting', 'playing') "
                                   "RETURNING fence", (table_id,))
        if row is None:
            raise StorageError(f"no unfinished table {table_id!r} in storage")
        self.fences[table_id] = int(row[0])
        self.committed.pop(table_id, None)  # another journal may have written it since

    async def _refused(self, table_id: str) -> None:
        """A fenced write of ``table_id`` stored nothing: Fenced if the table is there and
        its fence is another journal's, StorageError if it has ended or is not there."""
        row = await self._link.one("SELECT fence, status FROM tables WHERE id=%s", (table_id,))
        if row is None:
            raise StorageError(f"no table {table_id!r} in storage")
        if int(str(row[0])) != self.fence(table_id):
            self.fences.pop(table_id, None)
            self.committed.pop(table_id, None)
            raise Fenced(f"table {table_id}: another server took it over; this write is not stored")
        if row[1] not in (WAITING, PLAYING):
            self.committed.pop(table_id, None)
            raise StorageError(ended(table_id, str(row[1])))

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
        rows: list[tuple[str, int, str, int]] = []
        for c in commands:
            nxt = following.get(c.table_id)
            if nxt is None:
                out.append(StorageError(f"no table {c.table_id!r} in storage"))
            elif c.index == nxt:
                rows.append((c.table_id, c.index, c.action, self.fence(c.table_id)))
                following[c.table_id] = nxt + 1
                out.append(None)
            elif not 0 <= c.index < nxt:
                out.append(StorageError(f"table {c.table_id}: action {c.index} given, {nxt} expected"))
            elif await self._stored_action(c.table_id, c.index) != c.action:
                out.append(StorageError(f"table {c.table_id}: action {c.index} is journaled already, as another action"))
            else:
                out.append(None)  # the same action again: journaled once
        if rows:  # one text parameter (a JSON list of rows): far less to convert than four arrays
            fenced = await self._link.run_plain(INSERT_ACTIONS, json.dumps(rows, separators=(",", ":")).encode())
            for table_id in fenced:
                following.pop(table_id, None)
                try:
                    await self._refused(table_id)
                    refusal: StorageError = StorageError(f"table {table_id}: its actions are not stored")
                except StorageError as exc:
                    refusal = exc
                self.committed.pop(table_id, None)
                self.fences.pop(table_id, None)
                out = [refusal if c.table_id == table_id else r for c, r in zip(commands, out)]
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
            raise TableTaken(taken(table_id)) from None

    async def take_table_ids(self, count: int) -> int:
        """A block of ids: the counter (``table_ids``, one row, locked while it is raised,
        so two journals never get the same block) or the highest id stored, whichever
        is higher, raised by ``count``."""
        row = await self._link.one("UPDATE table_ids SET top = GREATEST(top, (SELECT COALESCE(MAX(num), 0) FROM tables)) "
                                   "+ %s RETURNING top", (count,))
        if row is None:
            raise StorageError("the journal has no table id counter")
        return int(str(row[0]))

    async def append_tournament_event(self, command: AppendTournamentEvent) -> None:
        c = command
        await self._link.one("INSERT INTO tournament_events VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING "
                             "RETURNING seq", (c.tournament_id, c.seq, c.kind, c.data))
        row = await self._link.one("SELECT kind, data FROM tournament_events WHERE tournament_id=%s AND seq=%s",
                                   (c.tournament_id, c.seq))
        stored_tournament_event((str(row[0]), str(row[1])) if row is not None else ("", ""), c)

    async def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                       bot: str | None = None) -> None:
        cur = await self._link.db.execute(
            "INSERT INTO seats (table_id, seat, name, token_digest, bot) SELECT id, %s, %s, %s, %s FROM tables "
            f"WHERE id=%s AND {OPEN} AND fence=%s FOR SHARE ON CONFLICT (table_id, seat) DO UPDATE SET name=EXCLUDED.name, "
            "token_digest=EXCLUDED.token_digest, bot=EXCLUDED.bot",
            (seat, name, token_digest, bot, table_id, self.fence(table_id)))
        if cur.rowcount == 0:
            await self._refused(table_id)

    async def clear_seat(self, table_id: str, seat: int) -> None:
        cur = await self._link.db.execute(
            "DELETE FROM seats WHERE table_id=%s AND seat=%s AND EXISTS "
            f"(SELECT 1 FROM tables WHERE id=%s AND {OPEN} AND fence=%s FOR SHARE)", (table_id, seat, table_id, self.fence(table_id)))
        if cur.rowcount == 0:
            await self._refused(table_id)  # else: the seat was free already

    async def start_table(self, table_id: str) -> None:
        await self._fenced_change(table_id, f"UPDATE tables SET status='playing' WHERE id=%s AND {OPEN} AND fence=%s", (table_id,))

    async def _fenced_change(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        """An UPDATE of ``table_id``'s row, its last two parameters the id and this journal's
        fence: Fenced, or StorageError if there is no such table."""
        if (await self._link.db.execute(sql, (*args, self.fence(table_id)))).rowcount == 0:
            await self._refused(table_id)

    async def append_encoded(self, table_id: str, index: int, encoded: str) -> None:
        following: dict[str, int] = {}
        [result] = await self.append_actions([AppendAction(table_id, index, encoded)], following)
        if result is not None:
            raise result

    async def record_refusal(self, command: RecordRefusal) -> None:
        c = command
        cur = await self._link.db.execute(
            "INSERT INTO refusals (table_id, idx, seat, nth, code) SELECT id, %s, %s, %s, %s FROM tables "
            f"WHERE id=%s AND {OPEN} AND fence=%s FOR SHARE ON CONFLICT DO NOTHING",
            (c.index, c.seat, c.nth, c.code, c.table_id, self.fence(c.table_id)))
        if cur.rowcount == 0:
            await self._refused(c.table_id)  # else: journaled once already

    async def finish(self, command: FinishTable) -> None:
        async with self._link.db.transaction():
            await self._end(command.table_id, "UPDATE tables SET status='finished', finished_at=%s, winner=%s, "
                                              f"totals=%s, reason=%s, leaver=%s, record=%s WHERE id=%s AND {OPEN} "
                                              "AND fence=%s",
                            (command.finished_at or time.time(), command.winner, json.dumps(list(command.totals)),
                             command.reason, command.leaver))
            if command.players:
                await self._archive.save_players(command.table_id, command.players)
            if command.rating is not None:
                await self._archive.save_ratings(command.rating.preset, command.rating.ratings)

    async def close_table(self, table_id: str, reason: str) -> None:
        async with self._link.db.transaction():
            await self._end(table_id, "UPDATE tables SET status='closed', finished_at=%s, reason=%s, record=%s "
                                      f"WHERE id=%s AND {OPEN} AND fence=%s", (time.time(), reason))

    async def _end(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        """In the transaction of finishing or closing ``table_id``: its actions taken out and
        compacted into its row (undone with the transaction if there is no such table)."""
        rows = await self._link.all("DELETE FROM actions WHERE table_id=%s RETURNING idx, action", (table_id,))
        record = compact([action for _, action in sorted(rows)]) if rows else None
        await self._fenced_change(table_id, sql, (*args, record, table_id))
        self.fences.pop(table_id, None)  # the table takes no more writes

    async def mark_damaged(self, table_id: str, reason: str) -> None:
        await self._fenced_change(table_id, f"UPDATE tables SET status='damaged', reason=%s WHERE id=%s AND {OPEN} AND fence=%s",
                                  (reason[:500], table_id))
        self.fences.pop(table_id, None)
