"""What one table writes to the journal: its seats, its start, each action, each refused
answer and its result; and what its players are told only once the journal holds what
they hear of (a seat's token, the game's start)."""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from scopa.engine import Action, GameState, PlayMark

from ..journal import AppendAction, ClearSeat, Command, FinishTable, Journal, RecordRefusal, SetSeat, StartTable

log = logging.getLogger("scopa.server")


class TableJournal:
    """The journal of one table (``storage`` None: no persistence, every write a no-op)."""

    __slots__ = ("table_id", "storage", "on_unstored", "_last", "_held", "_teller", "_end")

    def __init__(self, table_id: str, storage: Journal | None = None) -> None:
        self.table_id = table_id
        self.storage = storage
        self.on_unstored: Callable[[BaseException], None] | None = None
        """Told when a write that held tells back was refused (those tells are dropped)."""
        self._last: asyncio.Future[None] | None = None  # the last seat or start write queued
        self._held: list[Callable[[], object]] = []
        self._teller: asyncio.Task[None] | None = None
        self._end: asyncio.Future[None] | None = None  # the write of the game's end, once the game ended

    def _write(self, command: Command) -> None:
        if self.storage is not None:
            self._last = asyncio.ensure_future(self.storage.write(command))
            self._last.add_done_callback(_retrieved)  # a refusal is the writer's to log

    def set_seat(self, seat: int, name: str, token_digest: str | None = None, bot: str | None = None) -> None:
        """A seat taken: a person (the digest of its token) or a built-in bot (its strategy)."""
        self._write(SetSeat(self.table_id, seat, name, token_digest=token_digest, bot=bot))

    def clear_seat(self, seat: int) -> None:
        self._write(ClearSeat(self.table_id, seat))

    def start(self) -> None:
        self._write(StartTable(self.table_id))

    def tell_when_stored(self, tell: Callable[[], object]) -> None:
        """Call ``tell`` once the journal stored every seat and start of this table queued
        so far (at once without a journal, or once it stored them), in call order: what a
        player hears of (a seat's token, the game's start) is then in the journal, and
        any server that takes the table over restores it."""
        last = self._last
        if last is None or last.done() and not last.cancelled() and last.exception() is None and not self._held:
            tell()
            return
        self._held.append(tell)
        if self._teller is None or self._teller.done():
            self._teller = asyncio.create_task(self._tell(), name=f"told-{self.table_id}")

    async def stored(self) -> None:
        """Wait until the tells held back by :meth:`tell_when_stored` were told (or dropped)."""
        while self._teller is not None and not self._teller.done():
            await asyncio.shield(self._teller)

    async def _tell(self) -> None:
        while self._held:
            last = self._last
            assert last is not None
            try:
                await asyncio.shield(last)
            except Exception as exc:  # noqa: BLE001 - refused or lost: nobody hears of it
                self._held.clear()
                log.error("table %s: its seats or start were not journaled (%s); nobody is told of them",
                          self.table_id, exc)
                if self.on_unstored is not None:
                    self.on_unstored(exc)
                return
            if last is self._last:
                held, self._held = self._held, []
                for tell in held:
                    tell()

    def append(self, index: int, action: Action, mark: PlayMark | None = None) -> Awaitable[None] | None:
        """Action number ``index`` of the game (``mark``: how a play came about): the write
        to await before anyone hears of it (None: nothing to wait for)."""
        if self.storage is None:
            return None
        return self.storage.write(AppendAction.of(self.table_id, index, action, mark))

    def refusal(self, seat: int, index: int, code: str, nth: int) -> None:
        """An answer of ``seat`` refused at action ``index`` (the ``nth`` of that turn)."""
        if self.storage is not None:
            self.storage.write(RecordRefusal(self.table_id, seat, index, code, nth))

    @property
    def end_pending(self) -> bool:
        """Whether the game's end is on its way to the journal (not yet stored, nor
        refused): until it is stored, the journal still holds the game as unfinished."""
        return self._end is not None and not self._end.done()

    async def end_settled(self) -> None:
        """Wait until the game's end is stored or refused (at once if none is on its way)."""
        if self._end is not None:
            await asyncio.gather(asyncio.shield(self._end), return_exceptions=True)

    def finish(self, state: GameState | None, reason: str,
               on_result: Callable[[FinishTable], Awaitable[None] | None] | None = None,
               leaver: int | None = None) -> None:
        """How the game ended (``state``: the game master's, None if it never began;
        ``leaver``: an abandoned game's seat whose person left or did not come back),
        written as it is or handed to ``on_result`` (which journals it with who played and
        the ratings, and gives the write to await).  A failed write is logged: the game is
        over either way."""
        if self.storage is None:
            return
        if reason == "game_over" and state is not None and state.end_reason is not None:
            reason = state.end_reason.value  # target, trentino, all_denari
        try:
            end = FinishTable(self.table_id, state.winner if state is not None and reason != "abandoned" else None,
                              tuple(state.totals) if state is not None else (), reason, leaver=leaver)
            written = on_result(end) if on_result is not None else self.storage.write(end)
            if written is not None:
                self._end = asyncio.ensure_future(written)
                self._end.add_done_callback(_retrieved)
        except Exception:  # the game is over either way; a failed write is logged, not fatal
            log.exception("table %s: could not record the result", self.table_id)



def _retrieved(write: asyncio.Future[None]) -> None:
    if not write.cancelled():
        write.exception()
