"""The server's :class:`~.storage.Storage`: a backend's calls made off the event loop,
committed in batches by one writer thread.

Every call is queued at once, in call order, with a future for its result.  At the end
of the event-loop turn the turn's calls (of every table) are handed to the writer
thread, which runs all it has been handed since its last commit in one transaction
(:meth:`~.storage.StorageBackend.run_batch`) and then settles each call's future on the
loop.  So a busy server commits many moves at once, the loop never waits on the disk,
and while a commit is slow only what waits for that commit waits: a table's next
announcement (its game master awaits the journaling of the action), not the lobby or
a ping.  A backend whose calls are instant (``blocks`` False: the in-memory one) is
called at once and its futures are settled before the call returns.

A write's failure is logged here (one line); whoever awaits the write also gets it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, Sequence

from scopa.engine import Action, RuleSet

from .archive import Account, FinishedGame, GamePlayer, Rating, StorageError
from .storage import (
    Call,
    FinishedTable,
    Storage,
    StorageBackend,
    StoredTable,
    TableResult,
    WRITES,
)

log = logging.getLogger("scopa.server")

Pending = tuple[str | None, tuple[Any, ...], "asyncio.Future[Any]"]
"""A queued call: name (None: a barrier that only waits for what is before it), args, future."""


class QueuedStorage:
    """The :class:`~.storage.Storage` calls, each queued by :meth:`_call` (name and
    arguments; a name of None is a barrier) with a future for its result.  The calls of
    one event-loop turn go on together at its end (:meth:`_end_turn`)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._turn: list[Pending] = []  # queued in this loop turn (loop thread only)
        self._closed = False

    def _refusal(self) -> StorageError | None:
        """Why a call fails at once (None: it is queued)."""
        return StorageError("the storage is closed") if self._closed else None

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The first call: the event loop the calls come from is ``loop``."""

    def _end_turn(self) -> None:
        """End of the loop turn: take ``_turn`` and send it on."""
        raise NotImplementedError

    def _call(self, name: str | None, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
            self._attach(loop)
        future: asyncio.Future[Any] = loop.create_future()
        refused = self._refusal()
        if refused is not None:
            future.set_exception(refused)
            future.exception()  # the caller may not wait for it: nothing to report twice
            return future
        if not self._turn:
            loop.call_soon(self._end_turn)
        self._turn.append((name, args, future))
        return future

    # ------------------------------------------------------------------ writes

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> asyncio.Future[None]:
        return self._call("create_table", (table_id, rules, seed, private, options))

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> asyncio.Future[None]:
        return self._call("set_seat", (table_id, seat, name, token_digest, bot))

    def clear_seat(self, table_id: str, seat: int) -> asyncio.Future[None]:
        return self._call("clear_seat", (table_id, seat))

    def start_table(self, table_id: str) -> asyncio.Future[None]:
        return self._call("start_table", (table_id,))

    def append_action(self, table_id: str, index: int, action: Action) -> asyncio.Future[None]:
        return self._call("append_action", (table_id, index, action))

    def finish_table(self, table_id: str, winner: int | None, totals: Sequence[int],
                     reason: str) -> asyncio.Future[None]:
        return self._call("finish_table", (table_id, winner, list(totals), reason))

    def close_table(self, table_id: str, reason: str) -> asyncio.Future[None]:
        return self._call("close_table", (table_id, reason))

    def mark_damaged(self, table_id: str, reason: str) -> asyncio.Future[None]:
        return self._call("mark_damaged", (table_id, reason))

    def save_players(self, table_id: str, players: Sequence[GamePlayer]) -> asyncio.Future[None]:
        return self._call("save_players", (table_id, tuple(players)))

    def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> asyncio.Future[None]:
        return self._call("save_ratings", (preset, tuple(ratings)))

    def save_account(self, account: Account) -> asyncio.Future[None]:
        return self._call("save_account", (account,))

    # ------------------------------------------------------------------ reads

    async def load_unfinished(self) -> list[StoredTable]:
        return await self._call("load_unfinished", ())  # type: ignore[no-any-return]

    async def load_results(self, limit: int = 100) -> list[TableResult]:
        return await self._call("load_results", (limit,))  # type: ignore[no-any-return]

    async def load_actions(self, table_id: str) -> list[Action]:
        return await self._call("load_actions", (table_id,))  # type: ignore[no-any-return]

    async def load_finished_since(self, since: float) -> list[FinishedTable]:
        return await self._call("load_finished_since", (since,))  # type: ignore[no-any-return]

    async def last_table_id(self) -> int:
        return await self._call("last_table_id", ())  # type: ignore[no-any-return]

    async def load_damaged(self) -> list[tuple[str, str]]:
        return await self._call("load_damaged", ())  # type: ignore[no-any-return]

    async def finished_games(self, player: str | None = None, preset: str | None = None,
                             limit: int = 1000) -> list[FinishedGame]:
        return await self._call("finished_games", (player, preset, limit))  # type: ignore[no-any-return]

    async def finished_game(self, table_id: str) -> FinishedGame | None:
        return await self._call("finished_game", (table_id,))  # type: ignore[no-any-return]

    async def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]:
        return await self._call("ratings", (preset, tuple(names)))  # type: ignore[no-any-return]

    async def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]:
        return await self._call("leaderboard", (preset, limit))  # type: ignore[no-any-return]

    async def account(self, name: str) -> Account | None:
        return await self._call("account", (name,))  # type: ignore[no-any-return]

    async def flush(self) -> None:
        """Wait until every call queued before this one is done."""
        await self._call(None, ())


class StorageWriter(QueuedStorage):
    """A :class:`~.storage.Storage` over a :class:`~.storage.StorageBackend`."""

    def __init__(self, backend: StorageBackend) -> None:
        super().__init__()
        self.backend = backend
        self._handed: list[Pending] = []  # handed to the writer thread, not yet taken (under _ready)
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False

    # ------------------------------------------------------------------ flow

    async def close(self) -> None:
        if self._closed:
            return
        await self.flush()
        self._closed = True
        thread = self._thread
        if thread is not None:
            with self._ready:
                self._stopping = True
                self._ready.notify()
            await asyncio.to_thread(thread.join)
        self.backend.close()

    def _call(self, name: str | None, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        future = super()._call(name, args)
        if not self.backend.blocks and not future.done():  # instant: run now, settled before returning
            self._end_turn()
        return future

    def _end_turn(self) -> None:
        """The turn's calls go to the writer thread (an instant backend runs them here)."""
        turn, self._turn = self._turn, []
        if not turn:  # run at the call already
            return
        if not self.backend.blocks:
            self._settle_batch(turn, run_batch(self.backend, [(name, args) for name, args, _ in turn]))
            return
        with self._ready:
            self._handed.extend(turn)
            self._ready.notify()
        if self._thread is None:
            self._thread = threading.Thread(target=self._write, name="scopa-storage-writer", daemon=True)
            self._thread.start()

    def _write(self) -> None:
        """The writer thread: one transaction for everything handed over since the last."""
        loop = self._loop
        assert loop is not None
        while True:
            with self._ready:
                while not self._handed and not self._stopping:
                    self._ready.wait()
                if not self._handed:
                    return
                batch, self._handed = self._handed, []
            results = run_batch(self.backend, [(name, args) for name, args, _ in batch])
            try:
                loop.call_soon_threadsafe(self._settle_batch, batch, results)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                return

    def _settle_batch(self, batch: list[Pending], results: list[Any]) -> None:
        for (name, args, future), result in zip(batch, results):
            settle(name, args, future, result)


def settle(name: str | None, args: tuple[Any, ...], future: asyncio.Future[Any], result: Any) -> None:
    """Settle a storage call's future with its result, or with the exception it
    raised (a failed write is logged here, in one line)."""
    if isinstance(result, BaseException):
        if name in WRITES:
            about = f" (table {args[0]})" if name not in ("save_account", "save_ratings") and args else ""
            log.error("storage: %s%s failed: %s", name, about, result)
        if not future.done():
            future.set_exception(result)
            future.exception()  # logged above; an awaiting caller still gets it
    elif not future.done():  # done: its waiter was cancelled
        future.set_result(result)


def run_batch(backend: StorageBackend, calls: Sequence[tuple[str | None, tuple[Any, ...]]]) -> list[Any]:
    """Each call's result (None for a barrier) or the exception it raised, the calls run
    in one transaction (:meth:`~.storage.StorageBackend.run_batch`); a backend that
    raises fails every call of the batch."""
    real: list[Call] = [(name, args) for name, args in calls if name is not None]
    try:
        done = iter(backend.run_batch(real) if real else [])
    except Exception as exc:  # noqa: BLE001 - a backend's bug fails its batch, not its caller
        done = iter([StorageError(f"the storage failed: {type(exc).__name__}: {exc}")] * len(real))
    return [next(done) if name is not None else None for name, _ in calls]
