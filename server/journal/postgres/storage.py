"""The journal in PostgreSQL (``scopa serve --db postgresql://...``): one database that
several servers, or a club's service, can trust.

An :class:`~scopa.server.journal.commands.AsyncJournalBackend` over psycopg 3's asynchronous API, run on the
server's event loop by its :class:`~scopa.server.journal.writer.StorageWriter`, with its connections from an
:class:`~psycopg_pool.AsyncConnectionPool`.  A batch of requests is one transaction (each
command in a savepoint, so one refused write fails alone; the actions of a batch checked
against the next index of their tables, known from the batches before, and stored by one
statement), so a busy server commits many moves at once and the loop never waits on the
network.  A lost connection fails the batch it was in (nothing of it is acknowledged:
:class:`~scopa.server.journal.values.JournalUnavailable`, and the writer tries it again) and the pool
connects again; a batch retried after an answer was lost stores nothing twice (an action
index is journaled once, see :mod:`scopa.server.journal.commands`).  Each write of a table is fenced
(:mod:`.writes`): once another journal claimed the table, it stores nothing.

The schema is the SQL files of ``sql/postgres`` (:mod:`.schema`), applied when the
journal is opened; a database of a newer schema is refused.  The relations are those of
the SQLite journal (``tables``, ``seats``, ``actions``, ``meta``, ``game_players``,
``ratings``, ``accounts``, ``refusals``), with the same values in them.

:class:`BlockingPostgres` is the same backend for the tools that run without an event
loop (``scopa admin export``, ``import``): each batch run to its end on a loop of its own.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from typing import Any, Sequence, get_args

import psycopg
from psycopg_pool import AsyncConnectionPool

from ..commands import (
    ENDS, AppendAction, ClaimTable, ClearSeat, CloseTable, CreateTable, FinishTable, MarkDamaged, Query,
    RecordRefusal, Request, SaveAccount, SetSeat, StartTable
)
from ..ops import execute
from ..values import JournalUnavailable, StorageError, first_line
from .archive import PgArchive
from .link import Conn, PgLink
from .reads import PgReads
from .schema import migrate
from .writes import PgWrites

CONNECT_TIMEOUT = 10  # seconds: to connect, and for a batch to get its connection from the pool
_FORGETS = (*ENDS, ClaimTable)  # ... and after which its next action index is read again
_BY_ITSELF = frozenset((CreateTable, ClaimTable, SetSeat, ClearSeat, StartTable, RecordRefusal, FinishTable, CloseTable, MarkDamaged,
                        SaveAccount, *get_args(Query)))
"""The requests that are atomic outside a transaction: one statement each, or (finishing and
closing a table) a transaction of their own."""
_IDLE = psycopg.pq.TransactionStatus.IDLE
_NAMES = itertools.count(1)


class PostgresStorage:
    """The PostgreSQL backend; ``url`` a libpq connection URL (its ``options`` may set a
    ``search_path``, e.g. ``?options=-csearch_path%3Dscopa``).  Its connections carry the
    ``application_name`` :attr:`name` (one per journal and process).  It keeps the pool
    and runs the batches; the statements are its parts': :attr:`writes` (the commands),
    :attr:`reads` (the tables read back) and :attr:`archive` (finished games, ratings,
    accounts), all on the batch's connection (:class:`~.link.PgLink`)."""

    def __init__(self, url: str, connections: int = 1) -> None:
        self.url = url
        self.name = f"scopa-journal-{os.getpid()}-{next(_NAMES)}"
        self._size = connections
        self._pool: AsyncConnectionPool[Conn] | None = None
        self._link = PgLink()  # the connection the batches run on, taken from the pool
        self.archive = PgArchive(self._link)
        self.reads = PgReads(self._link)
        self.writes = PgWrites(self._link, self.archive)
        self._next = self.writes.committed  # the next action index of tables, as committed

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
            if self._link.conn is None:
                self._link.conn = await self._pool.getconn()
            conn = self._link.db
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
                out += await self.writes.append_actions(requests[start:end], following)  # type: ignore[arg-type]
            else:
                request = requests[start]
                if isinstance(request, _FORGETS):
                    self._next.pop(request.table_id, None)
                    following.pop(request.table_id, None)
                out.append(await self._alone(conn, request) if alone else await execute(self, request))
                end = start + 1
            start = end
        return out

    async def _release(self) -> None:
        """The connection back to the pool (which replaces it if it is broken)."""
        conn, self._link.conn = self._link.conn, None
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
