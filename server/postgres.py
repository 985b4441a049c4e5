"""The journal in PostgreSQL (``scopa serve --db postgresql://...``): one database that
several servers, or a club's service, can trust.

An :class:`~.journal.AsyncJournalBackend` over psycopg 3's asynchronous API, run on the
server's event loop by its :class:`~.writer.StorageWriter`, with its connections from an
:class:`~psycopg_pool.AsyncConnectionPool`.  A batch of requests is one transaction (each
command in a savepoint, so one refused write fails alone; the actions of a batch checked
against the next index of their tables, known from the batches before, and stored by one
statement), so a busy server commits many moves at once and the loop never waits on the
network.  A lost connection fails the batch it was in (nothing of it is acknowledged:
:class:`~.journal_values.JournalUnavailable`, and the writer tries it again) and the pool
connects again; a batch retried after an answer was lost stores nothing twice (an action
index is journaled once, see :mod:`.journal`).

The schema is the SQL files of ``sql/postgres`` (:mod:`.pg_schema`), applied when the
journal is opened; a database of a newer schema is refused.  The relations are those of
the SQLite journal (``tables``, ``seats``, ``actions``, ``meta``, ``game_players``,
``ratings``, ``accounts``, ``refusals``), with the same values in them.

:class:`BlockingPostgres` is the same backend for the tools that run without an event
loop (``scopa admin export``, ``import``): each batch run to its end on a loop of its own.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import time
from collections import defaultdict
from functools import partial
from typing import Any, Sequence, get_args

import psycopg
from psycopg_pool import AsyncConnectionPool

from scopa.engine import Action, RuleSet

from .journal_values import Account, FinishedGame, GamePlayer, Rating, StorageError
from .journal import (
    AppendAction,
    ClearSeat,
    CloseTable,
    CreateTable,
    FinishTable,
    MarkDamaged,
    Query,
    RecordRefusal,
    Request,
    SaveAccount,
    SetSeat,
    StartTable,
)
from .journal_ops import execute
from .journal_values import (
    FINISHED,
    FinishedTable,
    JournalUnavailable,
    StoredSeat,
    StoredTable,
    TableResult,
    compact,
    decode_action,
    first_line,
    read_unfinished,
    rules_from,
    rules_json,
    table_number,
    uncompact,
)
from .pg_schema import migrate

CONNECT_TIMEOUT = 10  # seconds: to connect, and for a batch to get its connection from the pool
_ENDS = (FinishTable, CloseTable, MarkDamaged)  # the commands after which a table takes no more actions
_BY_ITSELF = frozenset((CreateTable, SetSeat, ClearSeat, StartTable, RecordRefusal, FinishTable, CloseTable, MarkDamaged,
                        SaveAccount, *get_args(Query)))
"""The requests that are atomic outside a transaction: one statement each, or (finishing and
closing a table) a transaction of their own."""
_IDLE = psycopg.pq.TransactionStatus.IDLE
_INSERT_ACTIONS = ("INSERT INTO actions (table_id, idx, action) SELECT r->>0, (r->>1)::int, r->>2 "
                   "FROM jsonb_array_elements(%s::jsonb) r")
_NAMES = itertools.count(1)

Conn = psycopg.AsyncConnection[tuple[Any, ...]]


class PostgresStorage:
    """The PostgreSQL backend; ``url`` a libpq connection URL (its ``options`` may set a
    ``search_path``, e.g. ``?options=-csearch_path%3Dscopa``).  Its connections carry the
    ``application_name`` :attr:`name` (one per journal and process)."""

    def __init__(self, url: str, connections: int = 1) -> None:
        self.url = url
        self.name = f"scopa-journal-{os.getpid()}-{next(_NAMES)}"
        self._size = connections
        self._pool: AsyncConnectionPool[Conn] | None = None
        self._conn: Conn | None = None  # the connection the batches run on, taken from the pool
        self._inserts: psycopg.AsyncCursor[tuple[Any, ...]] | None = None  # _conn's cursor for the moves
        self._next: dict[str, int] = {}  # the next action index of tables, as committed (this is their one writer)

    # ------------------------------------------------------------------ connection

    async def open(self) -> None:
        """Connect once to check the schema (brought up to date; a newer one refused:
        JournalTooNew), then open the pool.  JournalUnavailable if the database is out of reach."""
        if self._pool is not None:
            return
        try:
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.Error as exc:
            raise JournalUnavailable(f"cannot connect to the database: {first_line(exc)}") from exc
        try:
            async with conn:
                await migrate(conn)
        except psycopg.Error as exc:
            raise StorageError(f"cannot use the database: {first_line(exc)}") from exc
        # The pool would log each attempt to connect again; the journal says once which tables wait.
        logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
        pool: AsyncConnectionPool[Conn] = AsyncConnectionPool(
            self.url, min_size=self._size, max_size=self._size, open=False, name=self.name, timeout=CONNECT_TIMEOUT,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT, "application_name": self.name})
        await pool.open()
        self._pool = pool

    async def close(self) -> None:
        await self._release()
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @property
    def _db(self) -> Conn:
        assert self._conn is not None, "a request runs inside a batch"
        return self._conn

    # ------------------------------------------------------------------ batches

    async def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        """The batch in one transaction; a batch of moves only (the usual one) is one
        statement, a transaction by itself, and so is a request alone.  A batch of several
        kinds is first run as it is; if one of its requests fails, the transaction is
        undone and the batch run again with each request in a savepoint of its own, so
        that only that request fails.  The connection is kept from one batch to the next
        (taken from the pool once), and given back to the pool when it fails."""
        await self.open()
        assert self._pool is not None
        following: dict[str, int] = {}
        try:
            if self._conn is None:
                self._conn = await self._pool.getconn()
                self._inserts = self._conn.cursor()
            conn = self._conn
            if len(requests) == 1 or set(map(type, requests)) == {AppendAction}:
                out = await self._run(conn, requests, following, alone=True)
            else:
                try:
                    async with conn.transaction():
                        out = await self._run(conn, requests, following, alone=False)
                except (psycopg.OperationalError, psycopg.InterfaceError):
                    raise  # the connection is lost: the whole batch fails
                except Exception:  # noqa: BLE001 - undone: each request again, alone
                    following = {}
                    async with conn.transaction():
                        out = await self._run(conn, requests, following, alone=True)
        except (psycopg.Error, StorageError) as exc:
            self._next.clear()
            if isinstance(exc, StorageError):
                failed: StorageError = exc
            elif isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):  # the connection: for now
                failed = JournalUnavailable(f"the journal could not commit: {first_line(exc)}")
                await self._release()
            else:
                failed = StorageError(f"the journal refused the batch: {first_line(exc)}")
            return [failed] * len(requests)
        self._next.update(following)  # committed
        return out

    async def _run(self, conn: Conn, requests: Sequence[Request], following: dict[str, int], alone: bool) -> list[Any]:
        """Each request's result; runs of moves as one statement each.  ``alone``: every
        other request in a savepoint of its own, its failure its result; else a failure
        is raised."""
        out: list[Any] = []
        start = 0
        while start < len(requests):
            end = start
            while end < len(requests) and type(requests[end]) is AppendAction:
                end += 1
            if end > start:
                out += await self._append_actions(requests[start:end], following)  # type: ignore[arg-type]
            else:
                request = requests[start]
                if isinstance(request, _ENDS):
                    self._next.pop(request.table_id, None)
                    following.pop(request.table_id, None)
                out.append(await self._alone(conn, request) if alone else await execute(self, request))
                end = start + 1
            start = end
        return out

    async def _release(self) -> None:
        """The connection back to the pool (which replaces it if it is broken)."""
        conn, self._conn, self._inserts = self._conn, None, None
        if conn is not None and self._pool is not None:
            await self._pool.putconn(conn)

    async def _alone(self, conn: Conn, request: Request) -> Any:
        """One request undone alone if it fails: its result, or its exception.  Inside a
        transaction it runs in a savepoint; outside one, a request of one statement (or
        one that makes its own transaction) runs as it is, with no BEGIN and COMMIT."""
        try:
            if type(request) not in _BY_ITSELF or conn.info.transaction_status != _IDLE:
                async with conn.transaction():
                    return await execute(self, request)
            return await execute(self, request)
        except psycopg.OperationalError:
            raise  # the connection is lost: the whole batch fails
        except psycopg.Error as exc:
            return StorageError(first_line(exc))
        except Exception as exc:  # noqa: BLE001 - handed to whoever waits for it
            return exc

    async def _append_actions(self, commands: Sequence[AppendAction], following: dict[str, int]) -> list[Any]:
        """Actions: each index checked against the next one of its table (known from the
        batches committed before, else one query), the new ones stored by one statement;
        ``following``: the next index of each table once this batch is committed."""
        unknown = sorted({c.table_id for c in commands} - following.keys() - self._next.keys())
        if unknown:
            cur = await self._db.execute(
                "SELECT t.id, (SELECT MAX(idx) FROM actions a WHERE a.table_id = t.id) FROM tables t WHERE t.id = ANY(%s)",
                (unknown,))
            following.update({tid: (-1 if top is None else top) + 1 for tid, top in await cur.fetchall()})
        for tid in {c.table_id for c in commands} - following.keys():
            if tid in self._next:
                following[tid] = self._next[tid]
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
            cursor = self._inserts or self._db.cursor()
            await cursor.execute(_INSERT_ACTIONS, (json.dumps(rows, separators=(",", ":")),), prepare=True)
        return out

    async def _stored_action(self, table_id: str, index: int) -> str | None:
        row = await self._one("SELECT action FROM actions WHERE table_id=%s AND idx=%s", (table_id, index))
        return None if row is None else str(row[0])

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        return await (await self._db.execute(sql, args)).fetchone()

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return await (await self._db.execute(sql, args)).fetchall()

    async def _change(self, table_id: str, sql: str, args: Sequence[Any]) -> None:
        """An UPDATE of ``table_id``'s row: StorageError if there is no such table."""
        if (await self._db.execute(sql, args)).rowcount == 0:
            raise StorageError(f"no table {table_id!r} in storage")

    # ------------------------------------------------------------------ writes

    async def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                           options: dict[str, Any] | None = None) -> None:
        try:
            await self._db.execute(
                "INSERT INTO tables (id, num, rules, seed, private, options, status, created_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, 'waiting', %s)",
                (table_id, table_number(table_id), rules_json(rules), seed, private,
                 json.dumps(options or {}, separators=(",", ":")), time.time()))
        except psycopg.errors.UniqueViolation:
            raise StorageError(f"table {table_id!r} already exists") from None

    async def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                       bot: str | None = None) -> None:
        try:
            await self._db.execute(
                "INSERT INTO seats (table_id, seat, name, token_digest, bot) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (table_id, seat) DO UPDATE SET name=EXCLUDED.name, token_digest=EXCLUDED.token_digest, "
                "bot=EXCLUDED.bot", (table_id, seat, name, token_digest, bot))
        except psycopg.errors.ForeignKeyViolation:
            raise StorageError(f"no table {table_id!r} in storage") from None

    async def clear_seat(self, table_id: str, seat: int) -> None:
        await self._db.execute("DELETE FROM seats WHERE table_id=%s AND seat=%s", (table_id, seat))

    async def start_table(self, table_id: str) -> None:
        await self._change(table_id, "UPDATE tables SET status='playing' WHERE id=%s", (table_id,))

    async def append_encoded(self, table_id: str, index: int, encoded: str) -> None:
        following: dict[str, int] = {}
        [result] = await self._append_actions([AppendAction(table_id, index, encoded)], following)
        if result is not None:
            raise result

    async def record_refusal(self, command: RecordRefusal) -> None:
        c = command
        try:
            await self._db.execute("INSERT INTO refusals (table_id, idx, seat, nth, code) VALUES (%s, %s, %s, %s, %s) "
                                   "ON CONFLICT DO NOTHING", (c.table_id, c.index, c.seat, c.nth, c.code))
        except psycopg.errors.ForeignKeyViolation:
            raise StorageError(f"no table {c.table_id!r} in storage") from None

    async def finish(self, command: FinishTable) -> None:
        async with self._db.transaction():
            await self._end(command.table_id, "UPDATE tables SET status='finished', finished_at=%s, winner=%s, "
                                              "totals=%s, reason=%s, record=%s WHERE id=%s",
                            (command.finished_at or time.time(), command.winner, json.dumps(list(command.totals)),
                             command.reason))
            if command.players:
                await self._save_players(command.table_id, command.players)
            if command.rating is not None:
                await self.save_ratings(command.rating.preset, command.rating.ratings)

    async def close_table(self, table_id: str, reason: str) -> None:
        async with self._db.transaction():
            await self._end(table_id, "UPDATE tables SET status='closed', finished_at=%s, reason=%s, record=%s "
                                      "WHERE id=%s", (time.time(), reason))

    async def _end(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        """In the transaction of finishing or closing ``table_id``: its actions taken out and
        compacted into its row (undone with the transaction if there is no such table)."""
        rows = await self._all("DELETE FROM actions WHERE table_id=%s RETURNING idx, action", (table_id,))
        record = compact([action for _, action in sorted(rows)]) if rows else None
        await self._change(table_id, sql, (*args, record, table_id))

    async def mark_damaged(self, table_id: str, reason: str) -> None:
        await self._change(table_id, "UPDATE tables SET status='damaged', reason=%s WHERE id=%s",
                           (reason[:500], table_id))

    # ------------------------------------------------------------------ reads

    async def load_damaged(self) -> list[tuple[str, str]]:
        rows = await self._all("SELECT id, reason FROM tables WHERE status='damaged' ORDER BY num, id")
        return [(str(tid), str(reason or "")) for tid, reason in rows]

    async def load_unfinished(self) -> list[StoredTable]:
        rows = await self._all("SELECT id, rules, seed, private, options, status FROM tables "
                               "WHERE status IN ('waiting', 'playing') ORDER BY num, id")
        ids = [row[0] for row in rows]
        seats: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        for tid, *seat in await self._all("SELECT table_id, seat, name, token_digest, bot FROM seats "
                                          "WHERE table_id = ANY(%s) ORDER BY table_id, seat", (ids,)):
            seats[tid].append(tuple(seat))
        actions: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        for tid, *action in await self._all("SELECT table_id, idx, action FROM actions WHERE table_id = ANY(%s) "
                                            "ORDER BY table_id, idx", (ids,)):
            actions[tid].append(tuple(action))
        return [read_unfinished(row, partial(seats.__getitem__, row[0]), partial(actions.__getitem__, row[0]))
                for row in rows]

    async def _seats(self, table_id: str, players: int) -> list[StoredSeat | None]:
        seats: list[StoredSeat | None] = [None] * players
        for seat, name, digest, bot in await self._all(
                "SELECT seat, name, token_digest, bot FROM seats WHERE table_id=%s ORDER BY seat", (table_id,)):
            if 0 <= seat < players:
                seats[seat] = StoredSeat(seat, name, digest, bot)
        return seats

    async def load_results(self, limit: int = 100) -> list[TableResult]:
        rows = await self._all("SELECT id, rules, winner, totals, reason, finished_at FROM tables "
                               "WHERE status='finished' ORDER BY finished_at DESC, num DESC LIMIT %s", (limit,))
        out = []
        for tid, rules_text, winner, totals, reason, finished_at in rows:
            rules = rules_from(rules_text)
            names = tuple(s.name if s else None for s in await self._seats(tid, rules.players))
            out.append(TableResult(tid, rules, names, winner, tuple(json.loads(totals or "[]")), reason or "",
                                   finished_at or 0.0))
        return out

    async def load_finished_since(self, since: float) -> list[FinishedTable]:
        rows = await self._all(
            "SELECT id, rules, seed, private, options, winner, totals, reason, finished_at FROM tables "
            "WHERE status='finished' AND finished_at >= %s ORDER BY num, id", (since,))
        out = []
        for tid, rules_text, seed, private, options, winner, totals, reason, finished_at in rows:
            rules = rules_from(rules_text)
            seats = await self._seats(tid, rules.players)
            result = TableResult(tid, rules, tuple(s.name if s else None for s in seats), winner,
                                 tuple(json.loads(totals or "[]")), reason or "", finished_at or 0.0)
            out.append(FinishedTable(StoredTable(tid, rules, seed, bool(private), json.loads(options), FINISHED, seats),
                                     result))
        return out

    async def load_actions(self, table_id: str) -> list[Action]:
        rows = await self._all("SELECT idx, action FROM actions WHERE table_id=%s ORDER BY idx", (table_id,))
        record = await self._one("SELECT record FROM tables WHERE id=%s", (table_id,))
        if not rows and record is not None and record[0] is not None:
            return [decode_action(text) for text in uncompact(bytes(record[0]))]
        for i, (idx, _) in enumerate(rows):
            if idx != i:
                raise StorageError(f"table {table_id}: action {i} is missing from the journal")
        return [decode_action(text) for _, text in rows]

    async def load_refusals(self, table_id: str) -> list[RecordRefusal]:
        rows = await self._all("SELECT seat, idx, code, nth FROM refusals WHERE table_id=%s ORDER BY idx, seat, nth",
                               (table_id,))
        return [RecordRefusal(table_id, seat, idx, code, nth) for seat, idx, code, nth in rows]

    async def last_table_id(self) -> int:
        row = await self._one("SELECT MAX(num) FROM tables")
        return int(row[0] or 0) if row is not None else 0

    # ------------------------------------------------------------------ the archive

    async def _save_players(self, table_id: str, players: Sequence[GamePlayer]) -> None:
        await self._db.cursor().executemany(
            "INSERT INTO game_players (table_id, seat, name, kind, strategy, taken_over, token_digest) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, seat) DO UPDATE SET "
            "name=EXCLUDED.name, kind=EXCLUDED.kind, strategy=EXCLUDED.strategy, "
            "taken_over=EXCLUDED.taken_over, token_digest=EXCLUDED.token_digest",
            [(table_id, p.seat, p.name, p.kind, p.strategy, p.taken_over, p.token_digest) for p in players])

    async def _players_of(self, table_id: str) -> tuple[GamePlayer, ...]:
        rows = await self._all("SELECT seat, name, kind, strategy, taken_over, token_digest FROM game_players "
                               "WHERE table_id=%s ORDER BY seat", (table_id,))
        return tuple(GamePlayer(*row) for row in rows)

    _GAME_COLUMNS = "t.id, t.rules, t.seed, t.private, t.finished_at, t.winner, t.totals, t.reason"

    async def _game(self, row: Sequence[Any]) -> FinishedGame:
        tid, rules, seed, private, finished_at, winner, totals, reason = row
        return FinishedGame(tid, rules_from(rules), seed, bool(private), finished_at or 0.0, winner,
                            tuple(json.loads(totals or "[]")), reason or "", await self._players_of(tid))

    async def finished_games(self, player: str | None = None, preset: str | None = None,
                             limit: int = 1000) -> list[FinishedGame]:
        where = ["t.status='finished'", "EXISTS (SELECT 1 FROM game_players g WHERE g.table_id=t.id)"]
        args: list[Any] = []
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM game_players g WHERE g.table_id=t.id AND g.name=%s)")
            args.append(player)
        if preset is not None:
            where.append("COALESCE(t.rules::jsonb->>'preset', 'custom')=%s")
            args.append(preset)
        rows = await self._all(f"SELECT {self._GAME_COLUMNS} FROM tables t WHERE {' AND '.join(where)} "
                               "ORDER BY t.finished_at DESC, t.num DESC LIMIT %s", (*args, limit))
        return [await self._game(row) for row in rows]

    async def finished_game(self, table_id: str) -> FinishedGame | None:
        row = await self._one(f"SELECT {self._GAME_COLUMNS} FROM tables t WHERE t.id=%s AND t.status='finished'",
                              (table_id,))
        if row is None:
            return None
        game = await self._game(row)
        return game if game.players else None

    async def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]:
        rows = await self._all("SELECT name, mu, sigma, games, wins FROM ratings WHERE preset=%s AND name = ANY(%s)",
                               (preset, list(names)))
        return {row[0]: Rating(*row) for row in rows}

    async def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None:
        await self._db.cursor().executemany(
            "INSERT INTO ratings (preset, name, mu, sigma, games, wins) VALUES (%s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (preset, name) DO UPDATE SET mu=EXCLUDED.mu, sigma=EXCLUDED.sigma, "
            "games=EXCLUDED.games, wins=EXCLUDED.wins", [(preset, r.name, r.mu, r.sigma, r.games, r.wins) for r in ratings])

    async def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]:
        rows = await self._all("SELECT name, mu, sigma, games, wins FROM ratings WHERE preset=%s "
                               "ORDER BY mu - 3 * sigma DESC, wins DESC, name LIMIT %s", (preset, limit))
        return [Rating(*row) for row in rows]

    async def account(self, name: str) -> Account | None:
        row = await self._one("SELECT name, salt, hash, n, r, p, created_at FROM accounts WHERE lower(name)=lower(%s)",
                              (name,))
        if row is None:
            return None
        return Account(row[0], bytes(row[1]), bytes(row[2]), row[3], row[4], row[5], row[6])

    async def all_accounts(self) -> list[Account]:
        rows = await self._all("SELECT name, salt, hash, n, r, p, created_at FROM accounts ORDER BY name")
        return [Account(r[0], bytes(r[1]), bytes(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

    async def save_account(self, account: Account) -> None:
        a = account
        try:
            await self._db.execute("INSERT INTO accounts (name, salt, hash, n, r, p, created_at) "
                                   "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                                   (a.name, a.salt, a.hash, a.n, a.r, a.p, a.created_at or time.time()))
        except psycopg.errors.UniqueViolation:
            raise StorageError(f"the name {a.name!r} is claimed already") from None


class BlockingPostgres:
    """A :class:`~.journal.JournalBackend` over :class:`PostgresStorage` for a caller with no
    event loop (``scopa admin``): each call runs on a loop of its own until it is done."""

    blocks = True

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self.backend = PostgresStorage(url)
        try:
            self._loop.run_until_complete(self.backend.open())
        except BaseException:
            self._loop.close()
            raise

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        return self._loop.run_until_complete(self.backend.run_batch(requests))

    def close(self) -> None:
        if not self._loop.is_closed():
            self._loop.run_until_complete(self.backend.close())
            self._loop.close()
