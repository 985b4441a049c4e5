"""The journal in PostgreSQL (``scopa serve --db postgresql://...``): one database that
several servers, or a club's service, can trust.

A :class:`~.journal.JournalBackend` over psycopg 3, driven by the server's writer thread
(:class:`~.writer.StorageWriter`): a batch of requests is one transaction (each command
in a savepoint, so one refused write fails alone; the actions of a batch checked with
one query and stored with one statement), so a busy server commits many moves at once
and the event loop never waits on the network.  A lost connection fails the batch it
was in (nothing of it is acknowledged) and the next batch connects again; a batch
retried after an answer was lost stores nothing twice (an action index is journaled
once, see :mod:`.journal`).

The schema is the SQL files of ``sql/postgres`` (:mod:`.pg_schema`), applied when the
database is opened; a database of a newer schema is refused.  The relations are those
of the SQLite journal (``tables``, ``seats``, ``actions``, ``meta``, ``game_players``,
``ratings``, ``accounts``), with the same values in them.
"""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from functools import partial
from typing import Any, Sequence

import psycopg

from scopa.engine import Action, RuleSet

from .journal_values import Account, FinishedGame, GamePlayer, Rating, StorageError
from .journal import AppendAction, CloseTable, FinishTable, MarkDamaged, Request, execute
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

CONNECT_TIMEOUT = 10  # seconds
_ENDS = (FinishTable, CloseTable, MarkDamaged)  # the commands after which a table takes no more actions


class PostgresStorage:
    """The PostgreSQL backend; ``url`` a libpq connection URL (its ``options`` may set a
    ``search_path``, e.g. ``?options=-csearch_path%3Dscopa``)."""

    blocks = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._next: dict[str, int] = {}  # the next action index of tables, as committed (this is their one writer)
        self._connection()

    # ------------------------------------------------------------------ connection

    def _connection(self) -> psycopg.Connection[tuple[Any, ...]]:
        """The open connection, or a new one (the schema brought up to date)."""
        conn = self._conn
        if conn is not None and not conn.closed and not conn.broken:
            return conn
        self._conn = None
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        except psycopg.Error as exc:
            raise JournalUnavailable(f"cannot connect to the database: {first_line(exc)}") from exc
        try:
            migrate(conn)
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn

    @property
    def _db(self) -> psycopg.Connection[tuple[Any, ...]]:
        return self._connection()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # ------------------------------------------------------------------ batches

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        """The batch in one transaction; a batch of moves only (the usual one) is one
        statement, a transaction by itself."""
        following: dict[str, int] = {}
        try:
            conn = self._connection()
            moves_only = all(type(r) is AppendAction for r in requests)
            with nullcontext() if moves_only else conn.transaction():
                out: list[Any] = []
                start = 0
                while start < len(requests):
                    end = start
                    while end < len(requests) and type(requests[end]) is AppendAction:
                        end += 1
                    if end > start:
                        out += self._append_actions(conn, requests[start:end], following)  # type: ignore[arg-type]
                    else:
                        request = requests[start]
                        if isinstance(request, _ENDS):
                            self._next.pop(request.table_id, None)
                            following.pop(request.table_id, None)
                        out.append(self._alone(conn, request))
                        end = start + 1
                    start = end
        except (psycopg.Error, StorageError) as exc:
            self._next.clear()
            if isinstance(exc, StorageError):
                failed: StorageError = exc
            elif isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):  # the connection: for now
                failed = JournalUnavailable(f"the journal could not commit: {first_line(exc)}")
            else:
                failed = StorageError(f"the journal refused the batch: {first_line(exc)}")
            return [failed] * len(requests)
        self._next.update(following)  # committed
        return out

    def _alone(self, conn: psycopg.Connection[tuple[Any, ...]], request: Request) -> Any:
        """One request in a savepoint: its result, or its exception (undone alone)."""
        try:
            with conn.transaction():
                return execute(self, request)
        except psycopg.OperationalError:
            raise  # the connection is lost: the whole batch fails
        except psycopg.Error as exc:
            return StorageError(first_line(exc))
        except Exception as exc:  # noqa: BLE001 - handed to whoever waits for it
            return exc

    def _append_actions(self, conn: psycopg.Connection[tuple[Any, ...]], commands: Sequence[AppendAction],
                        following: dict[str, int]) -> list[Any]:
        """Actions: each index checked against the next one of its table (known from the
        batches committed before, else one query), the new ones stored by one statement;
        ``following``: the next index of each table once this batch is committed."""
        unknown = sorted({c.table_id for c in commands} - following.keys() - self._next.keys())
        if unknown:
            following.update({tid: (-1 if top is None else top) + 1 for tid, top in conn.execute(
                "SELECT t.id, (SELECT MAX(idx) FROM actions a WHERE a.table_id = t.id) FROM tables t WHERE t.id = ANY(%s)",
                (unknown,))})
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
            elif self._stored_action(c.table_id, c.index) != c.action:
                out.append(StorageError(f"table {c.table_id}: action {c.index} is journaled already, as another action"))
            else:
                out.append(None)  # the same action again: journaled once
        if rows:
            conn.execute("INSERT INTO actions (table_id, idx, action) SELECT * FROM unnest(%s::text[], %s::int[], %s::text[])",
                         ([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]))
        return out

    def _stored_action(self, table_id: str, index: int) -> str | None:
        row = self._db.execute("SELECT action FROM actions WHERE table_id=%s AND idx=%s", (table_id, index)).fetchone()
        return None if row is None else str(row[0])

    def _changed(self, cur: psycopg.Cursor[tuple[Any, ...]], table_id: str) -> None:
        if cur.rowcount == 0:
            raise StorageError(f"no table {table_id!r} in storage")

    # ------------------------------------------------------------------ writes

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> None:
        try:
            self._db.execute(
                "INSERT INTO tables (id, num, rules, seed, private, options, status, created_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, 'waiting', %s)",
                (table_id, table_number(table_id), rules_json(rules), seed, private,
                 json.dumps(options or {}, separators=(",", ":")), time.time()))
        except psycopg.errors.UniqueViolation:
            raise StorageError(f"table {table_id!r} already exists") from None

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> None:
        try:
            self._db.execute(
                "INSERT INTO seats (table_id, seat, name, token_digest, bot) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (table_id, seat) DO UPDATE SET name=EXCLUDED.name, token_digest=EXCLUDED.token_digest, "
                "bot=EXCLUDED.bot", (table_id, seat, name, token_digest, bot))
        except psycopg.errors.ForeignKeyViolation:
            raise StorageError(f"no table {table_id!r} in storage") from None

    def clear_seat(self, table_id: str, seat: int) -> None:
        self._db.execute("DELETE FROM seats WHERE table_id=%s AND seat=%s", (table_id, seat))

    def start_table(self, table_id: str) -> None:
        self._changed(self._db.execute("UPDATE tables SET status='playing' WHERE id=%s", (table_id,)), table_id)

    def append_action(self, table_id: str, index: int, action: Action) -> None:
        [result] = self.run_batch([AppendAction.of(table_id, index, action)])
        if result is not None:
            raise result

    def append_encoded(self, table_id: str, index: int, encoded: str) -> None:
        following: dict[str, int] = {}
        [result] = self._append_actions(self._db, [AppendAction(table_id, index, encoded)], following)
        if result is not None:
            raise result
        if not self._db.info.transaction_status:  # committed already (not inside a batch)
            self._next.update(following)

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int], reason: str) -> None:
        self.finish(FinishTable(table_id, winner, tuple(totals), reason))

    def finish(self, command: FinishTable) -> None:
        with self._db.transaction():
            self._end(command.table_id, "UPDATE tables SET status='finished', finished_at=%s, winner=%s, totals=%s, "
                                        "reason=%s, record=%s WHERE id=%s",
                      (command.finished_at or time.time(), command.winner, json.dumps(list(command.totals)),
                       command.reason))
            if command.players:
                self.save_players(command.table_id, command.players)
            if command.rating is not None:
                self.save_ratings(command.rating.preset, command.rating.ratings)

    def close_table(self, table_id: str, reason: str) -> None:
        with self._db.transaction():
            self._end(table_id, "UPDATE tables SET status='closed', finished_at=%s, reason=%s, record=%s WHERE id=%s",
                      (time.time(), reason))

    def _end(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        rows = self._db.execute("SELECT action FROM actions WHERE table_id=%s ORDER BY idx", (table_id,)).fetchall()
        record = compact([r[0] for r in rows]) if rows else None
        self._changed(self._db.execute(sql, (*args, record, table_id)), table_id)
        self._db.execute("DELETE FROM actions WHERE table_id=%s", (table_id,))

    def mark_damaged(self, table_id: str, reason: str) -> None:
        self._changed(self._db.execute("UPDATE tables SET status='damaged', reason=%s WHERE id=%s",
                                       (reason[:500], table_id)), table_id)

    # ------------------------------------------------------------------ reads

    def load_damaged(self) -> list[tuple[str, str]]:
        rows = self._db.execute("SELECT id, reason FROM tables WHERE status='damaged' ORDER BY num, id").fetchall()
        return [(str(tid), str(reason or "")) for tid, reason in rows]

    def load_unfinished(self) -> list[StoredTable]:
        rows = self._db.execute("SELECT id, rules, seed, private, options, status FROM tables "
                                "WHERE status IN ('waiting', 'playing') ORDER BY num, id").fetchall()
        return [read_unfinished(row, partial(self._rows, "SELECT seat, name, token_digest, bot FROM seats "
                                                         "WHERE table_id=%s ORDER BY seat", row[0]),
                                partial(self._rows, "SELECT idx, action FROM actions WHERE table_id=%s ORDER BY idx",
                                        row[0]))
                for row in rows]

    def _rows(self, sql: str, table_id: str) -> list[tuple[Any, ...]]:
        return self._db.execute(sql, (table_id,)).fetchall()

    def _seats(self, table_id: str, players: int) -> list[StoredSeat | None]:
        seats: list[StoredSeat | None] = [None] * players
        for seat, name, digest, bot in self._db.execute(
                "SELECT seat, name, token_digest, bot FROM seats WHERE table_id=%s ORDER BY seat", (table_id,)):
            if 0 <= seat < players:
                seats[seat] = StoredSeat(seat, name, digest, bot)
        return seats

    def load_results(self, limit: int = 100) -> list[TableResult]:
        rows = self._db.execute(
            "SELECT id, rules, winner, totals, reason, finished_at FROM tables WHERE status='finished' "
            "ORDER BY finished_at DESC, num DESC LIMIT %s", (limit,)).fetchall()
        out = []
        for tid, rules_text, winner, totals, reason, finished_at in rows:
            rules = rules_from(rules_text)
            names = tuple(s.name if s else None for s in self._seats(tid, rules.players))
            out.append(TableResult(tid, rules, names, winner, tuple(json.loads(totals or "[]")), reason or "",
                                   finished_at or 0.0))
        return out

    def load_finished_since(self, since: float) -> list[FinishedTable]:
        rows = self._db.execute(
            "SELECT id, rules, seed, private, options, winner, totals, reason, finished_at FROM tables "
            "WHERE status='finished' AND finished_at >= %s ORDER BY num, id", (since,)).fetchall()
        out = []
        for tid, rules_text, seed, private, options, winner, totals, reason, finished_at in rows:
            rules = rules_from(rules_text)
            seats = self._seats(tid, rules.players)
            result = TableResult(tid, rules, tuple(s.name if s else None for s in seats), winner,
                                 tuple(json.loads(totals or "[]")), reason or "", finished_at or 0.0)
            out.append(FinishedTable(StoredTable(tid, rules, seed, bool(private), json.loads(options), FINISHED, seats),
                                     result))
        return out

    def load_actions(self, table_id: str) -> list[Action]:
        rows = self._db.execute("SELECT idx, action FROM actions WHERE table_id=%s ORDER BY idx", (table_id,)).fetchall()
        record = self._db.execute("SELECT record FROM tables WHERE id=%s", (table_id,)).fetchone()
        if not rows and record is not None and record[0] is not None:
            return [decode_action(text) for text in uncompact(bytes(record[0]))]
        for i, (idx, _) in enumerate(rows):
            if idx != i:
                raise StorageError(f"table {table_id}: action {i} is missing from the journal")
        return [decode_action(text) for _, text in rows]

    def last_table_id(self) -> int:
        row = self._db.execute("SELECT MAX(num) FROM tables").fetchone()
        return int(row[0] or 0) if row is not None else 0

    # ------------------------------------------------------------------ the archive

    def save_players(self, table_id: str, players: Sequence[GamePlayer]) -> None:
        with self._db.transaction():
            for p in players:
                self._db.execute(
                    "INSERT INTO game_players (table_id, seat, name, kind, strategy, taken_over, token_digest) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, seat) DO UPDATE SET "
                    "name=EXCLUDED.name, kind=EXCLUDED.kind, strategy=EXCLUDED.strategy, "
                    "taken_over=EXCLUDED.taken_over, token_digest=EXCLUDED.token_digest",
                    (table_id, p.seat, p.name, p.kind, p.strategy, p.taken_over, p.token_digest))

    def _players_of(self, table_id: str) -> tuple[GamePlayer, ...]:
        rows = self._db.execute("SELECT seat, name, kind, strategy, taken_over, token_digest FROM game_players "
                                "WHERE table_id=%s ORDER BY seat", (table_id,)).fetchall()
        return tuple(GamePlayer(*row) for row in rows)

    _GAME_COLUMNS = "t.id, t.rules, t.seed, t.private, t.finished_at, t.winner, t.totals, t.reason"

    def _game(self, row: Sequence[Any]) -> FinishedGame:
        tid, rules, seed, private, finished_at, winner, totals, reason = row
        return FinishedGame(tid, rules_from(rules), seed, bool(private), finished_at or 0.0, winner,
                            tuple(json.loads(totals or "[]")), reason or "", self._players_of(tid))

    def finished_games(self, player: str | None = None, preset: str | None = None,
                       limit: int = 1000) -> list[FinishedGame]:
        where = ["t.status='finished'", "EXISTS (SELECT 1 FROM game_players g WHERE g.table_id=t.id)"]
        args: list[Any] = []
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM game_players g WHERE g.table_id=t.id AND g.name=%s)")
            args.append(player)
        if preset is not None:
            where.append("COALESCE(t.rules::jsonb->>'preset', 'custom')=%s")
            args.append(preset)
        rows = self._db.execute(f"SELECT {self._GAME_COLUMNS} FROM tables t WHERE {' AND '.join(where)} "
                                "ORDER BY t.finished_at DESC, t.num DESC LIMIT %s", (*args, limit)).fetchall()
        return [self._game(row) for row in rows]

    def finished_game(self, table_id: str) -> FinishedGame | None:
        row = self._db.execute(f"SELECT {self._GAME_COLUMNS} FROM tables t WHERE t.id=%s AND t.status='finished'",
                               (table_id,)).fetchone()
        if row is None:
            return None
        game = self._game(row)
        return game if game.players else None

    def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]:
        rows = self._db.execute("SELECT name, mu, sigma, games, wins FROM ratings WHERE preset=%s AND name = ANY(%s)",
                                (preset, list(names))).fetchall()
        return {row[0]: Rating(*row) for row in rows}

    def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None:
        with self._db.transaction():
            for r in ratings:
                self._db.execute(
                    "INSERT INTO ratings (preset, name, mu, sigma, games, wins) VALUES (%s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (preset, name) DO UPDATE SET mu=EXCLUDED.mu, sigma=EXCLUDED.sigma, "
                    "games=EXCLUDED.games, wins=EXCLUDED.wins", (preset, r.name, r.mu, r.sigma, r.games, r.wins))

    def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]:
        rows = self._db.execute("SELECT name, mu, sigma, games, wins FROM ratings WHERE preset=%s "
                                "ORDER BY mu - 3 * sigma DESC, wins DESC, name LIMIT %s", (preset, limit)).fetchall()
        return [Rating(*row) for row in rows]

    def account(self, name: str) -> Account | None:
        row = self._db.execute("SELECT name, salt, hash, n, r, p, created_at FROM accounts WHERE lower(name)=lower(%s)",
                               (name,)).fetchone()
        if row is None:
            return None
        return Account(row[0], bytes(row[1]), bytes(row[2]), row[3], row[4], row[5], row[6])

    def all_accounts(self) -> list[Account]:
        rows = self._db.execute("SELECT name, salt, hash, n, r, p, created_at FROM accounts ORDER BY name").fetchall()
        return [Account(r[0], bytes(r[1]), bytes(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

    def save_account(self, account: Account) -> None:
        a = account
        try:
            self._db.execute("INSERT INTO accounts (name, salt, hash, n, r, p, created_at) "
                             "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                             (a.name, a.salt, a.hash, a.n, a.r, a.p, a.created_at or time.time()))
        except psycopg.errors.UniqueViolation:
            raise StorageError(f"the name {a.name!r} is claimed already") from None

