"""What one table writes to the journal: its seats, its start, each action, each refused
answer and its result."""

from __future__ import annotations

import logging
from typing import Awaitable, Callable

from scopa.engine import Action, GameState

from .journal import AppendAction, ClearSeat, FinishTable, Journal, RecordRefusal, SetSeat, StartTable

log = logging.getLogger("scopa.server")


class TableJournal:
    """The journal of one table (``storage`` None: no persistence, every write a no-op)."""

    __slots__ = ("table_id", "storage")

    def __init__(self, table_id: str, storage: Journal | None = None) -> None:
        self.table_id = table_id
        self.storage = storage

    def set_seat(self, seat: int, name: str, token_digest: str | None = None, bot: str | None = None) -> None:
        """A seat taken: a person (the digest of its token) or a built-in bot (its strategy)."""
        if self.storage is not None:
            self.storage.write(SetSeat(self.table_id, seat, name, token_digest=token_digest, bot=bot))

    def clear_seat(self, seat: int) -> None:
        if self.storage is not None:
            self.storage.write(ClearSeat(self.table_id, seat))

    def start(self) -> None:
        if self.storage is not None:
            self.storage.write(StartTable(self.table_id))

    def append(self, index: int, action: Action) -> Awaitable[None] | None:
        """Action number ``index`` of the game: the write to await before anyone hears of
        it (None: nothing to wait for)."""
        if self.storage is None:
            return None
        return self.storage.write(AppendAction.of(self.table_id, index, action))

    def refusal(self, seat: int, index: int, code: str, nth: int) -> None:
        """An answer of ``seat`` refused at action ``index`` (the ``nth`` of that turn)."""
        if self.storage is not None:
            self.storage.write(RecordRefusal(self.table_id, seat, index, code, nth))

    def finish(self, state: GameState | None, reason: str,
               on_result: Callable[[FinishTable], None] | None = None) -> None:
        """How the game ended (``state``: the game master's, None if it never began),
        written as it is or handed to ``on_result`` (which journals it with who played and
        the ratings).  A failed write is logged: the game is over either way."""
        if self.storage is None:
            return
        if reason == "game_over" and state is not None and state.end_reason is not None:
            reason = state.end_reason.value  # target, trentino, all_denari
        try:
            end = FinishTable(self.table_id, state.winner if state is not None and reason != "abandoned" else None,
                              tuple(state.totals) if state is not None else (), reason)
            if on_result is not None:
                on_result(end)
            else:
                self.storage.write(end)
        except Exception:  # the game is over either way; a failed write is logged, not fatal
            log.exception("table %s: could not record the result", self.table_id)

