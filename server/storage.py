"""Where the server keeps its tables so that games outlive the process.

The server journals, through a :class:`Storage`, everything it needs to rebuild a game
after a crash: each table's rules, seed and options when it is created, each seat when
it is taken (a person's name and the sha256 digest of its seat token — never the token
itself — or a built-in bot's strategy), every action of the game *before* the game
master announces it (``GameMaster.journal`` runs after the action is applied and before
any event is sent, so a play nobody has journaled is a play nobody was told of), and the
result when the game ends.  On start the server asks for the unfinished tables and
replays each one's action log from its seed (``GameMaster.restore``).

Two layers.  A backend (:class:`StorageBackend`: :class:`SQLiteStorage`,
:class:`MemoryStorage`) is synchronous: every call is one short transaction, and once it
has returned its effect survives the server *process* being killed.  The server talks to
:class:`Storage`, the asynchronous interface over a backend (:mod:`.writer`): a write is
queued in call order and returns at once with an awaitable that resolves when the write
is committed; the writes of one event-loop turn (of every table) are committed together
off the event loop (for the SQLite file, by a child process that journals the moves in
a file of their own first: :mod:`.writer_process`, :mod:`.movelog`;
for any other backend, by one writer thread: :mod:`.writer`), so the event loop never
waits on the disk and a slow disk holds up only the tables that wait for their own
writes.  A read is awaited and sees every write queued before it.

    create_table(table_id, rules, seed, private, options)   a new table (state "waiting")
    set_seat(table_id, seat, name, token_digest, bot)       a seat taken (person or bot)
    clear_seat(table_id, seat)                              a seat left before the game
    start_table(table_id)                                   the game began ("playing")
    append_action(table_id, index, action)                  action number ``index`` (0, 1, ...)
    finish_table(table_id, winner, totals, reason)          the game ended ("finished")
    close_table(table_id, reason)                           closed without a game ("closed")
    load_unfinished() -> list[StoredTable]                  "waiting"/"playing" tables, seats, actions
    load_results(limit) -> list[TableResult]                finished games, newest first
    load_finished_since(t) -> list[FinishedTable]           games finished at or after t, with seats
    load_actions(table_id) -> list[Action]                  one table's journal (to replay it)
    last_table_id() -> int                                  highest numeric table id ever used
    mark_damaged(table_id, reason)                          unreadable: never restored ("damaged")
    load_damaged() -> list[tuple[str, str]]                 the damaged tables and why
    close()

A backend also runs a batch of these calls in one transaction (``run_batch``), each call
isolated from the others (a savepoint each in SQLite): one refused write fails alone.

A journaled table that cannot be read back (garbage rules or action row, a gap in the
actions) comes back from ``load_unfinished`` with its ``damage`` said instead of its
actions: the server marks it damaged and restores every other game.

When a table is finished or closed its actions are compacted: the rows are replaced by
one zlib-compressed record on the table's row (``record``), so a finished 2-player game
to 11 keeps its rules, seed, every deal and action, and its result in a few kilobytes.
A journal file is created readable and writable by its owner only (0600): it holds the
card order of every deal.  A journal written by a newer server is refused
(:class:`JournalTooNew`); an older one is migrated when opened, by the steps of
:data:`MIGRATIONS` in order, in the transaction that opens it.

``append_action`` must refuse (raise) an index that is already stored, so a resent play
can never be journaled twice.  Actions travel as the compact lists of
:func:`encode_action` (``["p", card, mask]``, ``["d", kind, wild]``, ``["s", order]``);
rules as the RuleSet's JSON.

Two backends live here: :class:`SQLiteStorage` (the embedded default: one file, WAL,
standard-library ``sqlite3``) and :class:`MemoryStorage` (no file; for tests and as the
reference of the semantics).  A PostgreSQL backend would implement the same methods on
the same four relations (``tables``, ``seats``, ``actions``, ``meta``; see ``_SCHEMA``)
and those of :mod:`.archive` (finished games' players, ratings, accounts),
with ``BIGINT`` for the seed and one autocommitted statement (or short transaction) per
call; an async driver would implement :class:`Storage` itself.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import zlib
from dataclasses import dataclass, field
from contextlib import contextmanager, nullcontext
from typing import Any, Awaitable, Callable, Iterator, Protocol, Sequence, runtime_checkable

from scopa.engine import Action, Deal, DeclarationKind, Declare, Play, RuleSet

from .archive import (
    ARCHIVE_SCHEMA,
    Account,
    FinishedGame,
    GamePlayer,
    MemoryArchive,
    Rating,
    SQLiteArchive,
    StorageError,
)
from .movelog import MoveLog, restore_moves

SCHEMA_VERSION = 2
"""1: actions as rows only; 2: a finished table's actions compacted into ``tables.record``.
A file of an older format is brought up to this one by :data:`MIGRATIONS`."""

_ROWS_PER_INSERT = 256  # actions in one INSERT statement (3 parameters each)

WAL_CHECKPOINT_PAGES = 64
"""Pages in the write-ahead log before SQLite copies them into the database file."""
WAL_SIZE_LIMIT = 1024 * 1024
"""Bytes the write-ahead log file is cut back to after a checkpoint."""

WAITING, PLAYING, FINISHED, CLOSED, DAMAGED = "waiting", "playing", "finished", "closed", "damaged"


# ---------------------------------------------------------------------- values


@dataclass(frozen=True)
class StoredSeat:
    seat: int
    name: str
    token_digest: str | None  # sha256 hex of a person's seat token; None for a bot
    bot: str | None  # the strategy of a built-in bot seat


@dataclass
class StoredTable:
    """An unfinished table as journaled: enough to rebuild it and replay its game."""

    id: str
    rules: RuleSet
    seed: int
    private: bool
    options: dict[str, Any]
    status: str  # WAITING or PLAYING (FINISHED in a FinishedTable)
    seats: list[StoredSeat | None]
    actions: list[Action] = field(default_factory=list)
    damage: str | None = None  # why this table cannot be restored (None: it can)


@dataclass(frozen=True)
class TableResult:
    id: str
    rules: RuleSet
    seats: tuple[str | None, ...]
    winner: int | None
    totals: tuple[int, ...]
    reason: str
    finished_at: float


@dataclass(frozen=True)
class FinishedTable:
    """A recently finished game as journaled: its seats (token digests included, so a
    client that missed the end may still resume to learn it) and its result."""

    table: StoredTable
    result: TableResult


class JournalTooNew(StorageError):
    """The journal was written by a newer server: this one does not know its format."""


def _compact(actions: Sequence[str]) -> bytes:
    """A table's encoded actions as one compressed record."""
    return zlib.compress(("[" + ",".join(actions) + "]").encode(), 9)


def _uncompact(record: bytes) -> list[str]:
    return [json.dumps(a, separators=(",", ":")) for a in json.loads(zlib.decompress(record))]


# ---------------------------------------------------------------------- encoding


def encode_action(action: Action) -> str:
    """An action as compact JSON: Play ``["p",card,mask]``, Declare ``["d",kind,wild]``,
    Deal ``["s",order]``."""
    if isinstance(action, Play):  # every move: written out, as json.dumps writes it
        return f'["p",{int(action.card)},{int(action.capture)}]'
    if isinstance(action, Deal):
        return json.dumps(["s", list(action.order)], separators=(",", ":"))
    if isinstance(action, Declare):
        return json.dumps(["d", action.kind.value, action.wild], separators=(",", ":"))
    raise TypeError(f"not an action: {action!r}")


def decode_action(text: str) -> Action:
    data = json.loads(text)
    match data:
        case ["p", int(card), int(mask)]:
            return Play(card, mask)
        case ["d", str(kind), wild] if wild is None or isinstance(wild, int):
            return Declare(DeclarationKind(kind), wild)
        case ["s", list(order)] if len(order) == 40 and all(isinstance(c, int) for c in order):
            return Deal(tuple(order))
    raise ValueError(f"not an encoded action: {text[:80]!r}")


def _rules_json(rules: RuleSet) -> str:
    return rules.model_dump_json()


def _rules_from(text: str) -> RuleSet:
    return RuleSet.model_validate_json(text)  # JSON mode: enums come back from their values


def _table_number(table_id: str) -> int:
    return int(table_id) if table_id.isdigit() else 0


# ---------------------------------------------------------------------- interface


Call = tuple[str, tuple[Any, ...]]
"""One storage call as a batch holds it: the method's name and its arguments."""

_APPENDS = frozenset({"append_action", "append_encoded"})
"""The calls that add one action: an Action, or its :func:`encode_action` text (what a
process that writes for the server is sent)."""
_ENDS = frozenset({"finish_table", "close_table", "mark_damaged"})
"""The calls that end a table (its actions compacted, or no longer to be restored)."""
WRITES = frozenset({"create_table", "set_seat", "clear_seat", "start_table", "append_action", "append_encoded", "finish_table",
                    "close_table", "mark_damaged", "save_players", "save_ratings", "save_account"})
READS = frozenset({"load_unfinished", "load_results", "load_actions", "load_finished_since", "last_table_id",
                   "load_damaged", "finished_games", "finished_game", "ratings", "leaderboard", "account"})


@runtime_checkable
class StorageBackend(Protocol):
    """A place that keeps tables, called synchronously: each call one short transaction
    (see the module docstring).  The server reaches it through a :class:`Storage`."""

    blocks: bool
    """Whether its calls may wait on a disk or a network (then they run on a writer
    thread); False: they are instant and run where they are called."""

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> None: ...

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> None: ...

    def clear_seat(self, table_id: str, seat: int) -> None: ...

    def start_table(self, table_id: str) -> None: ...

    def append_action(self, table_id: str, index: int, action: Action) -> None: ...

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int], reason: str) -> None: ...

    def close_table(self, table_id: str, reason: str) -> None: ...

    def load_unfinished(self) -> list[StoredTable]: ...

    def load_results(self, limit: int = 100) -> list[TableResult]: ...

    def load_actions(self, table_id: str) -> list[Action]: ...

    def load_finished_since(self, since: float) -> list[FinishedTable]: ...

    def last_table_id(self) -> int: ...

    def mark_damaged(self, table_id: str, reason: str) -> None: ...

    def load_damaged(self) -> list[tuple[str, str]]: ...

    def run_batch(self, calls: Sequence[Call]) -> list[Any]:
        """Run ``calls`` in order in one transaction; each one's result, or the exception
        it raised (that call alone is undone)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class Storage(Protocol):
    """What the server needs from a place that keeps tables: asynchronous.

    A write is queued at once, in call order, and returns an awaitable that resolves
    when the write is durable (or raises :class:`StorageError`); a caller that does not
    wait still has it committed before any write queued after it.  A read sees every
    write queued before it.  The archive's calls (:mod:`.archive`) are here too."""

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> Awaitable[None]: ...

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> Awaitable[None]: ...

    def clear_seat(self, table_id: str, seat: int) -> Awaitable[None]: ...

    def start_table(self, table_id: str) -> Awaitable[None]: ...

    def append_action(self, table_id: str, index: int, action: Action) -> Awaitable[None]: ...

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int],
                     reason: str) -> Awaitable[None]: ...

    def close_table(self, table_id: str, reason: str) -> Awaitable[None]: ...

    def mark_damaged(self, table_id: str, reason: str) -> Awaitable[None]: ...

    def save_players(self, table_id: str, players: Sequence[GamePlayer]) -> Awaitable[None]: ...

    def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> Awaitable[None]: ...

    def save_account(self, account: Account) -> Awaitable[None]: ...

    async def load_unfinished(self) -> list[StoredTable]: ...

    async def load_results(self, limit: int = 100) -> list[TableResult]: ...

    async def load_actions(self, table_id: str) -> list[Action]: ...

    async def load_finished_since(self, since: float) -> list[FinishedTable]: ...

    async def last_table_id(self) -> int: ...

    async def load_damaged(self) -> list[tuple[str, str]]: ...

    async def finished_games(self, player: str | None = None, preset: str | None = None,
                             limit: int = 1000) -> list[FinishedGame]: ...

    async def finished_game(self, table_id: str) -> FinishedGame | None: ...

    async def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]: ...

    async def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]: ...

    async def account(self, name: str) -> Account | None: ...

    async def flush(self) -> None:
        """Wait until every write queued so far is committed."""
        ...

    async def close(self) -> None:
        """Commit what is queued, then close the backend."""
        ...


def run_calls(backend: Any, calls: Sequence[Call]) -> list[Any]:
    """Each call of a batch on ``backend``: its result or the exception it raised."""
    out: list[Any] = []
    for name, args in calls:
        if name not in WRITES and name not in READS:
            out.append(StorageError(f"not a storage call: {name!r}"))
            continue
        try:
            out.append(getattr(backend, name)(*args))
        except Exception as exc:  # noqa: BLE001 - handed to whoever waits for this call
            out.append(exc)
    return out


# ---------------------------------------------------------------------- memory


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


class MemoryStorage(MemoryArchive):
    """A storage backend in a dict: nothing survives the process.  Same checks as SQLite."""

    blocks = False

    def __init__(self) -> None:
        self._tables: dict[str, _MemTable] = {}

    def _get(self, table_id: str) -> _MemTable:
        try:
            return self._tables[table_id]
        except KeyError:
            raise StorageError(f"no table {table_id!r} in storage") from None

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> None:
        if table_id in self._tables:
            raise StorageError(f"table {table_id!r} already exists")
        self._tables[table_id] = _MemTable(rules, seed, private, json.loads(json.dumps(options or {})))

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> None:
        self._get(table_id).seats[seat] = StoredSeat(seat, name, token_digest, bot)

    def clear_seat(self, table_id: str, seat: int) -> None:
        self._get(table_id).seats.pop(seat, None)

    def start_table(self, table_id: str) -> None:
        self._get(table_id).status = PLAYING

    def append_action(self, table_id: str, index: int, action: Action) -> None:
        t = self._get(table_id)
        if index != len(t.actions):
            raise StorageError(f"table {table_id}: action {index} given, {len(t.actions)} expected")
        t.actions.append(encode_action(action))

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int], reason: str) -> None:
        t = self._get(table_id)
        t.status = FINISHED
        names = tuple(t.seats[i].name if i in t.seats else None for i in range(t.rules.players))
        t.result = TableResult(table_id, t.rules, names, winner, tuple(totals), reason, time.time())

    def close_table(self, table_id: str, reason: str) -> None:
        self._get(table_id).status = CLOSED

    def mark_damaged(self, table_id: str, reason: str) -> None:
        t = self._get(table_id)
        t.status, t.damage = DAMAGED, reason

    def load_damaged(self) -> list[tuple[str, str]]:
        return [(tid, t.damage) for tid, t in sorted(self._tables.items(), key=lambda kv: _table_number(kv[0]))
                if t.status == DAMAGED]

    def load_unfinished(self) -> list[StoredTable]:
        out = []
        for tid, t in sorted(self._tables.items(), key=lambda kv: _table_number(kv[0])):
            if t.status in (WAITING, PLAYING):
                seats = [t.seats.get(i) for i in range(t.rules.players)]
                stored = StoredTable(tid, t.rules, t.seed, t.private, dict(t.options), t.status, seats)
                try:
                    stored.actions = [decode_action(a) for a in t.actions]
                except (ValueError, TypeError) as exc:
                    stored.damage = f"an action cannot be read: {exc}"
                out.append(stored)
        return out

    def load_results(self, limit: int = 100) -> list[TableResult]:
        done = [t.result for t in self._tables.values() if t.result is not None]
        done.sort(key=lambda r: (r.finished_at, _table_number(r.id)), reverse=True)
        return done[:limit]

    def load_actions(self, table_id: str) -> list[Action]:
        return [decode_action(a) for a in self._get(table_id).actions]

    def load_finished_since(self, since: float) -> list[FinishedTable]:
        out = []
        for tid, t in sorted(self._tables.items(), key=lambda kv: _table_number(kv[0])):
            if t.status == FINISHED and t.result is not None and t.result.finished_at >= since:
                seats = [t.seats.get(i) for i in range(t.rules.players)]
                out.append(FinishedTable(StoredTable(tid, t.rules, t.seed, t.private, dict(t.options), FINISHED,
                                                     seats), t.result))
        return out

    def last_table_id(self) -> int:
        return max((_table_number(t) for t in self._tables), default=0)

    def run_batch(self, calls: Sequence[Call]) -> list[Any]:
        return run_calls(self, calls)

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------- SQLite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id          TEXT PRIMARY KEY,
    num         INTEGER NOT NULL,          -- the id as a number (0 if not numeric)
    rules       TEXT NOT NULL,             -- RuleSet JSON
    seed        INTEGER NOT NULL,          -- < 2**63
    private     INTEGER NOT NULL DEFAULT 0,
    options     TEXT NOT NULL DEFAULT '{}',
    status      TEXT NOT NULL DEFAULT 'waiting',  -- waiting | playing | finished | closed
    created_at  REAL NOT NULL,
    finished_at REAL,
    winner      INTEGER,
    totals      TEXT,                      -- JSON list
    reason      TEXT,                      -- how it ended (damaged: why it cannot be restored)
    record      BLOB                       -- a finished table's actions, compacted (zlib JSON)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE TABLE IF NOT EXISTS seats (
    table_id     TEXT NOT NULL REFERENCES tables(id),
    seat         INTEGER NOT NULL,
    name         TEXT NOT NULL,
    token_digest TEXT,                     -- sha256 hex of the seat token, never the token
    bot          TEXT,                     -- strategy of a built-in bot
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx      INTEGER NOT NULL,
    action   TEXT NOT NULL,                -- encode_action()
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;
"""


def _compact_record_column(db: sqlite3.Connection) -> None:
    """1 -> 2: the ``record`` column, and the finished or closed tables' action rows
    compacted into it (as format 2 keeps them)."""
    if "record" not in {r[1] for r in db.execute("PRAGMA table_info(tables)")}:
        db.execute("ALTER TABLE tables ADD COLUMN record BLOB")
    done = db.execute("SELECT id FROM tables WHERE status IN ('finished', 'closed') AND record IS NULL").fetchall()
    for (table_id,) in done:
        rows = db.execute("SELECT action FROM actions WHERE table_id=? ORDER BY idx", (table_id,)).fetchall()
        if rows:
            db.execute("UPDATE tables SET record=? WHERE id=?", (_compact([r[0] for r in rows]), table_id))
            db.execute("DELETE FROM actions WHERE table_id=?", (table_id,))


MIGRATIONS: tuple[tuple[int, Callable[[sqlite3.Connection], None]], ...] = (
    (1, _compact_record_column),
)
"""(from format, step): applied in this order to a file of that format or older, all in
one transaction; the steps cover every format from 1 to :data:`SCHEMA_VERSION`."""


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
            self._open_schema()
        self._moves: MoveLog | None = None
        if self.path != ":memory:":
            if move_file:
                self._moves = MoveLog(self, synchronous)
            else:
                restore_moves(self)

    def _open_schema(self) -> None:
        """Create the schema in a new file, or bring an older one up to this server's by
        the steps of :data:`MIGRATIONS`; refuse a newer one (inside the opening transaction)."""
        has_meta = self._db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() if has_meta else None
        if row is not None:
            try:
                version = int(row[0])
            except (TypeError, ValueError):
                raise StorageError(f"{self.path}: its format {row[0]!r} is not one this server knows") from None
            if version > SCHEMA_VERSION:
                raise JournalTooNew(f"it was written by a newer version of the server (format {version}; "
                                    f"this server reads up to {SCHEMA_VERSION}): upgrade the server")
            for since, step in MIGRATIONS:
                if since >= version:
                    step(self._db)
        # executescript() would commit on its own: run the statements one by one.  In a file
        # of an older format this adds only what it lacks (e.g. the archive's relations).
        for stmt in (_SCHEMA + ARCHIVE_SCHEMA).split(";"):
            if stmt.strip():
                self._db.execute(stmt)
        self._db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))

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

    def run_batch(self, calls: Sequence[Call]) -> list[Any]:
        """The calls in one transaction, so one commit (one write to the log) for all of
        them; a single statement that fails undoes only itself, a call of several
        statements runs in a savepoint.  Consecutive actions go in as one statement
        (each SQLite statement hands the interpreter lock to the event loop and waits to
        get it back: a batch of moves is a few statements, not one per move).  If the
        commit fails, every call fails."""
        if self._moves is not None:
            return self._run_with_moves(calls, self._moves)
        return self._run_in_one(calls)

    def _run_in_one(self, calls: Sequence[Call]) -> list[Any]:
        with self._lock:
            # Moves only (the usual batch) make one statement: a transaction by itself
            # (autocommit), with no BEGIN and COMMIT around it.
            one_statement = 1 < len(calls) <= _ROWS_PER_INSERT and not self._db.in_transaction \
                and all(call[0] in _APPENDS for call in calls)
            try:
                with nullcontext() if one_statement else self._transaction():
                    out: list[Any] = []
                    start = 0
                    while start < len(calls):
                        end = start
                        while end < len(calls) and end - start < _ROWS_PER_INSERT and calls[end][0] in _APPENDS:
                            end += 1
                        if end - start > 1:
                            out += self._append_actions(calls[start:end])
                        else:
                            end = start + 1
                            out += run_calls(self, calls[start:end])
                        start = end
                    return out
            except sqlite3.Error as exc:
                failed = StorageError(f"the journal could not commit: {exc}")
                return [failed] * len(calls)

    def _run_with_moves(self, calls: Sequence[Call], moves: MoveLog) -> list[Any]:
        """:meth:`run_batch` with a move file: each run of actions in it as one record, each
        run of other calls in one transaction."""
        out: list[Any] = []
        start = 0
        with self._lock:
            while start < len(calls):
                appends = calls[start][0] in _APPENDS
                end = start + 1
                while end < len(calls) and (calls[end][0] in _APPENDS) == appends:
                    end += 1
                run = calls[start:end]
                if appends:
                    out += moves.append([_encoded(call) for call in run])
                else:
                    done = self._run_in_one(run)
                    for (name, args), result in zip(run, done):
                        if name in _ENDS and result is None:
                            moves.forget(args[0])  # committed: its moves are in its record
                    out += done
                start = end
        return out

    def take_in_moves(self, when_full: bool = False) -> None:
        """With a move file (that holds enough moves, if ``when_full``): its pending moves
        into this file, and the move file emptied (a StorageError leaves them there, to be
        taken in later)."""
        if self._moves is not None and (self._moves.full or not when_full):
            self._moves.take_in()

    def _append_actions(self, calls: Sequence[Call]) -> list[Any]:
        """Several ``append_action`` (or ``append_encoded``) calls in one INSERT; if it is
        refused, one by one (so only the refused ones fail)."""
        try:
            rows = [(args[0], args[1], args[2] if name == "append_encoded" else encode_action(args[2]))
                    for name, args in calls]
            # One statement: if it fails, SQLite undoes it alone (no savepoint needed).
            self._insert_rows(rows)
        except (sqlite3.IntegrityError, TypeError, ValueError):
            return run_calls(self, calls)
        return [None] * len(calls)

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
                raise StorageError(f"the journal could not commit: {exc}") from exc

    def _insert_rows(self, rows: Sequence[tuple[str, int, str]]) -> None:
        """Encoded actions in one INSERT statement (at most :data:`_ROWS_PER_INSERT`)."""
        self._db.execute("INSERT INTO actions (table_id, idx, action) VALUES " + ",".join(["(?, ?, ?)"] * len(rows)),
                         [v for row in rows for v in row])

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
        self._exec(
            "INSERT INTO tables (id, num, rules, seed, private, options, status, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 'waiting', ?)",
            (table_id, _table_number(table_id), _rules_json(rules), seed, int(private),
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
            [refused] = self._moves.append([("append_encoded", (table_id, index, encoded))])
            if refused is not None:
                raise refused
            return
        # The primary key (table_id, idx) refuses an index journaled before: never twice.
        self._exec("INSERT INTO actions (table_id, idx, action) VALUES (?, ?, ?)", (table_id, index, encoded))

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int], reason: str) -> None:
        self._end(table_id, "UPDATE tables SET status='finished', finished_at=?, winner=?, totals=?, reason=?, "
                            "record=? WHERE id=?", (time.time(), winner, json.dumps(list(totals)), reason))

    def close_table(self, table_id: str, reason: str) -> None:
        self._end(table_id, "UPDATE tables SET status='closed', finished_at=?, reason=?, record=? WHERE id=?",
                  (time.time(), reason))

    def _end(self, table_id: str, sql: str, args: tuple[Any, ...]) -> None:
        """Finish or close a table and compact its actions into its row, in one transaction."""
        with self._transaction():
            rows = dict(self._db.execute("SELECT idx, action FROM actions WHERE table_id=?", (table_id,)).fetchall())
            if self._moves is not None:
                rows.update(self._moves.pending_of(table_id))
            record = _compact([rows[i] for i in sorted(rows)]) if rows else None
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
        try:
            rules = _rules_from(rules_text)
        except Exception as exc:  # noqa: BLE001 - garbage in the journal, of any kind
            return StoredTable(tid, RuleSet(), 0, False, {}, status, [], damage=f"its rules cannot be read: {_first_line(exc)}")
        table = StoredTable(tid, rules, 0, bool(private), {}, status, [None] * rules.players)
        try:
            if not isinstance(seed, int) or not 0 <= seed < 2**63:
                raise ValueError(f"seed {seed!r}")
            table.seed = seed
            parsed = json.loads(options)
            if not isinstance(parsed, dict):
                raise ValueError(f"options {options!r}")
            table.options = parsed
        except (ValueError, TypeError) as exc:
            table.damage = f"its seed or options cannot be read: {_first_line(exc)}"
            return table
        for seat, name, digest, bot in self._db.execute(
            "SELECT seat, name, token_digest, bot FROM seats WHERE table_id=? ORDER BY seat", (tid,)
        ):
            if isinstance(seat, int) and 0 <= seat < rules.players:
                table.seats[seat] = StoredSeat(seat, str(name), digest, bot)
        for i, (idx, text) in enumerate(self._db.execute(
            "SELECT idx, action FROM actions WHERE table_id=? ORDER BY idx", (tid,)
        )):
            if idx != i:
                table.damage = f"action {i} is missing from the journal"
                break
            try:
                table.actions.append(decode_action(text))
            except (ValueError, TypeError) as exc:
                table.damage = f"action {i} cannot be read: {_first_line(exc)}"
                break
        if table.damage is not None:
            table.actions = []
        return table

    def load_results(self, limit: int = 100) -> list[TableResult]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, rules, winner, totals, reason, finished_at FROM tables WHERE status='finished' "
                "ORDER BY finished_at DESC, num DESC LIMIT ?", (limit,)
            ).fetchall()
            out = []
            for tid, rules_text, winner, totals, reason, finished_at in rows:
                rules = _rules_from(rules_text)
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
                rules = _rules_from(rules_text)
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
            return [decode_action(text) for text in _uncompact(record[0])]
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


def _encoded(call: Call) -> Call:
    """An ``append_action`` call as the ``append_encoded`` one (a bad action is left for
    the move file to refuse)."""
    name, args = call
    if name != "append_action" or len(args) != 3:
        return call
    try:
        return "append_encoded", (args[0], args[1], encode_action(args[2]))
    except (TypeError, ValueError, AttributeError):
        return call


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
