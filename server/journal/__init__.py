"""The journal: what the server keeps so that games outlive the process, as commands
(frozen dataclasses: :class:`CreateTable`, :class:`SetSeat`, :class:`ClearSeat`,
:class:`StartTable`, :class:`AppendAction`, :class:`RecordRefusal`, :class:`FinishTable`,
:class:`CloseTable`, :class:`ClaimTable`, :class:`MarkDamaged`, :class:`SaveAccount`,
:class:`RatingUpdate`, :class:`AppendTournamentEvent`, any :class:`Command`) written through a :class:`Journal`
(:class:`QueuedStorage` batches them on the event loop) to a :class:`JournalBackend`; the
values read back (:class:`StoredTable`, :class:`FinishedTable`, :class:`FinishedGame`,
:class:`GamePlayer`, :class:`TableResult`, :class:`Rating`, :class:`Account`,
:func:`preset_key`, :func:`table_number`) and its errors (:class:`StorageError`,
:class:`Fenced`, :class:`TableTaken`); :func:`open_storage` chooses the backend.

The backends (``memory/``, ``sqlite/``, ``postgres/``, the same module names in each) never
import one another: the choice of one is made here.  The journal must never import a
table, a session or the lobby: it keeps values, not live objects."""

from __future__ import annotations

from .backends import open_storage
from .commands import (
    AppendAction, AppendTournamentEvent, ClaimTable, ClearSeat, CloseTable, Command, CreateTable, FinishTable, Journal, JournalBackend,
    MarkDamaged, RatingUpdate, RecordRefusal, SaveAccount, SetSeat, StartTable
)
from .values import (
    Account, Fenced, FinishedGame, FinishedTable, GamePlayer, Rating, StorageError, StoredTable, TableResult,
    TableTaken, preset_key, table_number
)
from .writer import QueuedStorage

__all__ = [
    "Account", "AppendAction", "AppendTournamentEvent", "ClaimTable", "ClearSeat", "CloseTable", "Command", "CreateTable", "Fenced",
    "FinishTable", "FinishedGame", "FinishedTable", "GamePlayer", "Journal", "JournalBackend", "MarkDamaged",
    "QueuedStorage", "Rating", "RatingUpdate", "RecordRefusal", "SaveAccount", "SetSeat", "StartTable",
    "StorageError", "StoredTable", "TableResult", "TableTaken", "open_storage", "preset_key", "table_number",
]
