"""The server's :class:`~.journal.Journal`: a backend's requests queued on the event loop
and committed in batches, one batch at a time.

Every call is queued at once, in call order, with a future for its result.  At the end
of the event-loop turn the turn's calls (of every table) become the next batch, run in
one transaction (:meth:`~.commands.AsyncJournalBackend.run_batch`: PostgreSQL awaited on
the loop; an SQLite file in its own process, :mod:`.sqlite.process`) once the batch
before it is done, and each call's future is settled.  So a busy server commits many
moves at once, the loop never waits on the network or the disk, and while a commit is
slow only what waits for that commit waits: a table's next announcement (its game
master awaits the journaling of the action), not the lobby or a ping.  A backend whose
calls are instant (``blocks`` False: the in-memory one) is called at once and its
futures are settled before the call returns.

A write's failure is logged here (one line); whoever awaits the write also gets it.
A failure that says the journal cannot store anything for now
(:class:`~.values.JournalUnavailable`: a full disk, a lost connection, the
journal's process gone) is not handed on: the request waits and is tried again, after
:data:`RETRY_FIRST` seconds and then up to :data:`RETRY_MOST` apart, until it is stored,
so the tables that need it wait (the game master has not announced the move) and the
others go on.  Each table that starts or stops waiting is said once in the log and to
``on_waiting`` (the server tells its players).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Sequence

from scopa.engine import Action

from ..core import metrics
from .values import Account, FinishedGame, Rating, StorageError
from .commands import (
    COMMANDS, AccountOf, Command, FinishedGameOf, AsyncJournalBackend, FinishedGames, JournalBackend, LastTableId,
    Leaderboard, LoadActions, LoadDamaged, LoadTournamentEvents, LoadFinishedSince, LoadResults, LoadUnfinished,
    Ratings, Request, TakeTableIds, table_of
)
from .values import Actions, FinishedTable, JournalUnavailable, StoredTable, TableResult

log = logging.getLogger("scopa.server")

RETRY_FIRST = 0.5
"""Seconds before a request the journal could not store is tried again (doubled each
time it fails again, up to :data:`RETRY_MOST`)."""
RETRY_MOST = 8.0

Waiting = Callable[[str, "str | None"], None]
"""Told ``(table_id, why)`` when a table's writes start waiting, ``(table_id, None)``
when they are stored again."""
Schedule = Callable[[float, Callable[[], None]], object]

Pending = tuple[Request | None, "asyncio.Future[Any]"]
"""A queued request (None: a barrier that only waits for what is before it) and its future."""


class QueuedStorage:
    """A :class:`~.journal.Journal` whose requests are each queued by :meth:`_submit`
    (None is a barrier) with a future for its result.  The requests of one event-loop
    turn go on together at its end (:meth:`_end_turn`)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._turn: list[Pending] = []  # queued in this loop turn (loop thread only)
        self._closed = False
        self.on_waiting: Waiting | None = None
        self.schedule: Schedule | None = None  # how a retry waits (default: the event loop's timer)
        self._waiting: set[str] = set()  # tables whose writes wait for the journal
        self._retry_in = RETRY_FIRST
        self.unavailable: str | None = None
        """Why the journal cannot store what it is given now (None: it stores)."""

    def _settled(self, pending: Sequence[Pending], results: Sequence[Any]) -> None:
        """Each request's result: its future settled, or, if the journal could not store
        it for now, the request queued again after a while."""
        again: list[Pending] = []
        for (request, future), result in zip(pending, results):
            if result is None:  # the usual case: stored
                if self._waiting and request is not None:
                    self._stored_again(table_of(request))
                if not future.done():  # done: its waiter was cancelled
                    future.set_result(None)
                continue
            if isinstance(result, JournalUnavailable) and request is not None and not self._closed \
                    and not future.done():
                again.append((request, future))
                metrics.JOURNAL_UNAVAILABLE.inc()
                continue
            if isinstance(result, BaseException):
                metrics.JOURNAL_REFUSED.inc()
            settle(request, future, result)
        if again:
            self._retry(again, next(r for (_, _), r in zip(pending, results) if isinstance(r, JournalUnavailable)))
        elif pending:
            self._retry_in, self.unavailable = RETRY_FIRST, None

    def _retry(self, again: list[Pending], why: BaseException) -> None:
        delay, self._retry_in = self._retry_in, min(self._retry_in * 2, RETRY_MOST)
        tables = {t for t in (table_of(request) for request, _ in again if request is not None) if t is not None}
        started = sorted(tables - self._waiting, key=lambda t: (len(t), t))
        self._waiting |= tables
        self.unavailable = str(why)
        if started:
            log.warning("journal: cannot store for now (%s); table(s) %s wait, trying again in %.1f s",
                        why, ", ".join(started), delay)
            for table in started:
                if self.on_waiting is not None:
                    self.on_waiting(table, str(why))
        assert self._loop is not None
        if self.schedule is not None:
            self.schedule(delay, lambda: self._requeue(again))
        else:
            self._loop.call_later(delay, self._requeue, again)

    def _requeue(self, again: list[Pending]) -> None:
        if self._closed:
            for request, future in again:
                settle(request, future, StorageError("the storage is closed"))
            return
        assert self._loop is not None
        if not self._turn:
            self._loop.call_soon(self._end_turn)
        self._turn.extend(again)

    def _stored_again(self, table: str | None) -> None:
        if table is not None and table in self._waiting:
            self._waiting.discard(table)
            log.warning("journal: table %s stored again", table)
            if self.on_waiting is not None:
                self.on_waiting(table, None)

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The first request: the event loop the requests come from is ``loop``."""

    def _end_turn(self) -> None:
        """End of the loop turn: take ``_turn`` and send it on."""
        raise NotImplementedError

    def queued(self) -> int:
        """Requests given and not yet stored (or failed)."""
        return len(self._turn)

    def _submit(self, request: Request | None) -> asyncio.Future[Any]:
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
            self._attach(loop)
        future: asyncio.Future[Any] = loop.create_future()
        if self._closed:  # refused at once
            future.set_exception(StorageError("the storage is closed"))
            future.exception()  # the caller may not wait for it: nothing to report twice
            return future
        if not self._turn:
            loop.call_soon(self._end_turn)
        self._turn.append((request, future))
        return future

    def write(self, command: Command) -> asyncio.Future[None]:
        """Queue ``command``: the future resolves once it is committed."""
        return self._submit(command)

    # ------------------------------------------------------------------ reads

    async def load_unfinished(self) -> list[StoredTable]:
        return await self._submit(LoadUnfinished())  # type: ignore[no-any-return]

    async def load_results(self, limit: int = 100) -> list[TableResult]:
        return await self._submit(LoadResults(limit))  # type: ignore[no-any-return]

    async def load_actions(self, table_id: str) -> Actions:
        return await self._submit(LoadActions(table_id))  # type: ignore[no-any-return]

    async def load_finished_since(self, since: float) -> list[FinishedTable]:
        return await self._submit(LoadFinishedSince(since))  # type: ignore[no-any-return]

    async def last_table_id(self) -> int:
        return await self._submit(LastTableId())  # type: ignore[no-any-return]

    async def load_damaged(self) -> list[tuple[str, str]]:
        return await self._submit(LoadDamaged())  # type: ignore[no-any-return]

    async def tournament_events(self) -> list[tuple[str, int, str, str]]:
        return await self._submit(LoadTournamentEvents())  # type: ignore[no-any-return]

    async def take_table_ids(self, count: int) -> int:
        return await self._submit(TakeTableIds(count))  # type: ignore[no-any-return]

    async def finished_games(self, player: str | None = None, preset: str | None = None,
                             limit: int = 1000) -> list[FinishedGame]:
        return await self._submit(FinishedGames(player, preset, limit))  # type: ignore[no-any-return]

    async def finished_game(self, table_id: str) -> FinishedGame | None:
        return await self._submit(FinishedGameOf(table_id))  # type: ignore[no-any-return]

    async def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]:
        return await self._submit(Ratings(preset, tuple(names)))  # type: ignore[no-any-return]

    async def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]:
        return await self._submit(Leaderboard(preset, limit))  # type: ignore[no-any-return]

    async def account(self, name: str) -> Account | None:
        return await self._submit(AccountOf(name))  # type: ignore[no-any-return]

    async def flush(self) -> None:
        """Wait until every request queued before this one is done."""
        await self._submit(None)


class StorageWriter(QueuedStorage):
    """A :class:`~.journal.Journal` over a backend: an :class:`~.commands.AsyncJournalBackend`
    (PostgreSQL) awaited on the event loop, or a :class:`~.journal.JournalBackend`: an
    instant one (``blocks`` False) called at once, a blocking one in a worker thread.
    One batch runs at a time; what is queued meanwhile is the next batch."""

    def __init__(self, backend: JournalBackend | AsyncJournalBackend) -> None:
        super().__init__()
        self.backend = backend
        # Known once: a runtime protocol check costs more than a small batch's own work.
        self._async: AsyncJournalBackend | None = None
        self._blocking: JournalBackend | None = None
        if isinstance(backend, AsyncJournalBackend):
            self._async = backend
        else:
            self._blocking = backend
        self._instant = self._blocking is not None and not self._blocking.blocks
        self._handed: list[Pending] = []  # queued for the next batch
        self._task: asyncio.Task[None] | None = None  # the batches running
        self._opened = self._async is None
        self._running = 0  # requests of the batch under way

    # ------------------------------------------------------------------ flow

    def queued(self) -> int:
        return len(self._turn) + len(self._handed) + self._running

    async def close(self) -> None:
        if self._closed:
            return
        await self.flush()
        self._closed = True
        if self._task is not None:
            await self._task
        if self._async is not None:
            await self._async.close()
        elif self._blocking is not None:
            self._blocking.close()

    def _submit(self, request: Request | None) -> asyncio.Future[Any]:
        future = super()._submit(request)
        if self._instant and not future.done():  # instant: run now, settled before returning
            self._end_turn()
        return future

    def _end_turn(self) -> None:
        """The turn's calls go to the next batch (an instant backend runs them here)."""
        turn, self._turn = self._turn, []
        if not turn:  # run at the call already
            return
        if self._instant:
            assert self._blocking is not None
            self._settled(turn, run_batch(self._blocking, [request for request, _ in turn]))
            return
        self._handed.extend(turn)
        if self._task is None:
            assert self._loop is not None
            self._task = self._loop.create_task(self._write(), name="scopa-journal-writer")

    async def _write(self) -> None:
        """Batches, one after the other, each of everything queued since the last began."""
        try:
            while self._handed:
                batch, self._handed = self._handed, []
                requests = [request for request, _ in batch]
                if not self._opened:
                    refused = await self._open()
                    if refused is not None:
                        self._settled(batch, [refused if r is not None else None for r in requests])
                        continue
                self._running, started = len(batch), time.perf_counter()
                if self._async is not None:
                    results = await run_async_batch(self._async, requests)
                else:
                    assert self._blocking is not None
                    results = await asyncio.to_thread(run_batch, self._blocking, requests)
                metrics.JOURNAL_WRITE_SECONDS.observe(time.perf_counter() - started)
                self._running = 0
                self._settled(batch, results)
        finally:
            self._task = None

    async def _open(self) -> StorageError | None:
        """The backend opened, or why it could not be: then every request queued so far
        fails (not tried again: a server that cannot open its journal does not start)."""
        assert self._async is not None
        try:
            await self._async.open()
        except StorageError as exc:
            return exc if not isinstance(exc, JournalUnavailable) else StorageError(str(exc))
        except Exception as exc:  # noqa: BLE001 - a backend's bug: its journal cannot be used
            return StorageError(f"the journal could not be opened: {type(exc).__name__}: {exc}")
        self._opened = True
        return None


def settle(request: Request | None, future: asyncio.Future[Any], result: Any) -> None:
    """Settle a request's future with its result, or with the exception it raised (a
    failed write is logged here, in one line)."""
    if isinstance(result, BaseException):
        if isinstance(request, COMMANDS):
            table = table_of(request)
            about = f" (table {table})" if table is not None else ""
            log.error("storage: %s%s failed: %s", type(request).__name__, about, result)
        if not future.done():
            future.set_exception(result)
            future.exception()  # logged above; an awaiting caller still gets it
    elif not future.done():  # done: its waiter was cancelled
        future.set_result(result)


async def run_async_batch(backend: AsyncJournalBackend, requests: Sequence[Request | None]) -> list[Any]:
    """:func:`run_batch` on the event loop."""
    real: list[Request] = [request for request in requests if request is not None]
    try:
        done = iter(await backend.run_batch(real) if real else [])
    except Exception as exc:  # noqa: BLE001 - a backend's bug fails its batch, not its caller
        done = iter([StorageError(f"the storage failed: {type(exc).__name__}: {exc}")] * len(real))
    return [next(done) if request is not None else None for request in requests]


def run_batch(backend: JournalBackend, requests: Sequence[Request | None]) -> list[Any]:
    """Each request's result (None for a barrier) or the exception it raised, the
    requests run in one transaction (:meth:`~.journal.JournalBackend.run_batch`); a
    backend that raises fails every request of the batch."""
    real: list[Request] = [request for request in requests if request is not None]
    try:
        done = iter(backend.run_batch(real) if real else [])
    except Exception as exc:  # noqa: BLE001 - a backend's bug fails its batch, not its caller
        done = iter([StorageError(f"the storage failed: {type(exc).__name__}: {exc}")] * len(real))
    return [next(done) if request is not None else None for request in requests]
