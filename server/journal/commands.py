"""The journal: what the server keeps so that games outlive the process, as commands.

Every write is a *command*, a frozen dataclass with its own fields (:class:`CreateTable`,
:class:`SetSeat`, :class:`AppendAction`, :class:`FinishTable`, ...); every read is a
*query* of the same kind (:class:`LoadUnfinished`, :class:`Ratings`, ...).  A backend
(:class:`JournalBackend`: SQLite, PostgreSQL, memory) takes a batch of them and returns
one result each (:meth:`JournalBackend.run_batch`), the writes of a batch committed
together; :func:`~.ops.execute` is the one place where a request meets the backend's code,
chosen by the request's type.

The server holds a :class:`Journal`: ``write(command)`` queues a command at once, in call
order, and returns an awaitable that resolves when the command is durable (or raises
:class:`StorageError`); the reads are plain async methods, each seeing every write
queued before it.  An action is journaled before anyone hears of it: the game master
awaits ``write(AppendAction(...))`` before it announces the action.

A backend is a :class:`JournalBackend` (called synchronously: SQLite, memory) or an
:class:`AsyncJournalBackend` (awaited on the event loop: PostgreSQL).

A table is *fenced*: whoever takes a table over that another journal may still be
writing (a cluster's member taking a table whose lease it took, :mod:`.cluster.leases`)
first claims it (:class:`ClaimTable`, before reading it back).  From then on the writes
of that table by any other journal (a member whose lease ran out while its write was on
the way) are refused with :class:`~.values.Fenced` and store nothing; the claim
and each write are checked against each other in the write's own transaction.  A
journal's writes of a table it created or claimed last are stored as usual.

A table that has ended (finished, closed or damaged) is never written again: its row,
its seats, its record and its refusals stay as they were.  Every later write of it is
refused (:class:`~.values.StorageError`, logged by the writer), and so is a
:class:`CreateTable` of an id the journal holds, in whatever state.

An action index is journaled once: the same action sent again for an index already
stored is accepted and changes nothing (a batch retried after a lost answer stores
nothing twice); another action for that index is refused, and so is an index past the
next one (a gap).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Awaitable, Protocol, Sequence, runtime_checkable

from scopa.engine import Action, PlayMark, RuleSet

from .values import Account, FinishedGame, GamePlayer, Rating, StorageError
from .values import Actions, FinishedTable, StoredTable, TableResult, encode_action

# ---------------------------------------------------------------------- commands (writes)


@dataclass(frozen=True, slots=True)
class CreateTable:
    """A new table (state ``waiting``): its rules, seed and options."""

    table_id: str
    rules: RuleSet
    seed: int
    private: bool = False
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ClaimTable:
    """This journal takes an unfinished table over: every later write of it by another
    journal is refused (:class:`~.values.Fenced`); StorageError if there is no such
    unfinished table."""

    table_id: str


@dataclass(frozen=True, slots=True)
class SetSeat:
    """A seat taken: a person (its name and the sha256 digest of its seat token, never
    the token) or a built-in bot (its strategy)."""

    table_id: str
    seat: int
    name: str
    token_digest: str | None = None
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class ClearSeat:
    """A seat left before the game began."""

    table_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class StartTable:
    """The game began (state ``playing``)."""

    table_id: str


@dataclass(frozen=True, slots=True)
class AppendAction:
    """Action number ``index`` (0, 1, ...) of a table's game, as :func:`encode_action` writes it."""

    table_id: str
    index: int
    action: str

    @classmethod
    def of(cls, table_id: str, index: int, action: Action, mark: PlayMark | None = None) -> AppendAction:
        return cls(table_id, index, encode_action(action, mark))


@dataclass(frozen=True, slots=True)
class RecordRefusal:
    """An answer of ``seat`` refused at action ``index`` of a table's game (an illegal move,
    a bad body, ...: the protocol's error ``code``); ``nth``: the how-many-th refusal of that
    turn (1, 2, ...), so the same refusal journaled again is kept once."""

    table_id: str
    seat: int
    index: int
    code: str
    nth: int = 1


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """The ratings a finished game gives, under its preset (journaled with its end)."""

    preset: str
    ratings: tuple[Rating, ...]


@dataclass(frozen=True, slots=True)
class FinishTable:
    """The game ended (state ``finished``); with who played it and, for a rated game,
    the new ratings, all in the same transaction."""

    table_id: str
    winner: int | None
    totals: tuple[int, ...]
    reason: str
    players: tuple[GamePlayer, ...] = ()
    rating: RatingUpdate | None = None
    finished_at: float | None = None  # when (None: now); set when a game is imported
    leaver: int | None = None  # reason abandoned: the seat whose person left (or did not come back)


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Closed without a game (state ``closed``)."""

    table_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class MarkDamaged:
    """A table that cannot be read back: never restored (state ``damaged``)."""

    table_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class TakeTableIds:
    """A block of ``count`` table ids for new tables: its result is the last of them (the
    block is ``last - count + 1 .. last``).  No block is handed out twice, and none
    reaches down to an id the journal holds (imported games included): the journal keeps
    the highest id it handed out with the tables, so nothing kept elsewhere can rewind it."""

    count: int


@dataclass(frozen=True, slots=True)
class SaveRatings:
    preset: str
    ratings: tuple[Rating, ...]


@dataclass(frozen=True, slots=True)
class SaveAccount:
    """A name claimed with a password (refused if it is claimed already, in any case)."""

    account: Account


@dataclass(frozen=True, slots=True)
class AppendTournamentEvent:
    """Event number ``seq`` (0, 1, ...) of a tournament: its ``kind`` and its JSON
    (:mod:`scopa.server.club.codec`).  The same event sent again for a stored ``seq`` is
    accepted and changes nothing."""

    tournament_id: str
    seq: int
    kind: str
    data: str


Command = (CreateTable | ClaimTable | SetSeat | ClearSeat | StartTable | AppendAction | RecordRefusal | FinishTable | CloseTable
           | MarkDamaged | TakeTableIds | SaveRatings | SaveAccount | AppendTournamentEvent)
COMMANDS = (CreateTable, ClaimTable, SetSeat, ClearSeat, StartTable, AppendAction, RecordRefusal, FinishTable, CloseTable,
            MarkDamaged, TakeTableIds, SaveRatings, SaveAccount, AppendTournamentEvent)
ENDS = (FinishTable, CloseTable, MarkDamaged)
"""The commands that end a table: it takes no more actions (they are compacted into its
record, or it is no longer restored)."""

# ---------------------------------------------------------------------- queries (reads)


@dataclass(frozen=True, slots=True)
class LoadUnfinished:
    """The ``waiting`` and ``playing`` tables with their seats and actions (a table that
    cannot be read comes back with its ``damage`` said instead of its actions)."""


@dataclass(frozen=True, slots=True)
class LoadResults:
    """Finished games, newest first."""

    limit: int = 100


@dataclass(frozen=True, slots=True)
class LoadActions:
    """One table's actions (to replay it)."""

    table_id: str


@dataclass(frozen=True, slots=True)
class LoadRefusals:
    """One table's journaled refusals (:class:`RecordRefusal`), in the order of their
    action index, seat and ``nth``."""

    table_id: str


@dataclass(frozen=True, slots=True)
class LoadFinishedSince:
    """The games finished at or after ``since``, with their seats."""

    since: float


@dataclass(frozen=True, slots=True)
class LastTableId:
    """The highest numeric table id ever used (ids are never handed out again)."""


@dataclass(frozen=True, slots=True)
class LoadDamaged:
    """The damaged tables and why, as ``(table_id, reason)``."""


@dataclass(frozen=True, slots=True)
class FinishedGames:
    player: str | None = None
    preset: str | None = None
    limit: int = 1000


@dataclass(frozen=True, slots=True)
class FinishedGameOf:
    table_id: str


@dataclass(frozen=True, slots=True)
class Ratings:
    preset: str
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Leaderboard:
    preset: str
    limit: int = 20


@dataclass(frozen=True, slots=True)
class AccountOf:
    name: str


@dataclass(frozen=True, slots=True)
class AllAccounts:
    """Every claimed name (for an export)."""


@dataclass(frozen=True, slots=True)
class LoadTournamentEvents:
    """Every tournament's events as ``(tournament_id, seq, kind, data)``, by tournament
    and then ``seq``."""


Query = (LoadUnfinished | LoadResults | LoadActions | LoadRefusals | LoadFinishedSince | LastTableId | LoadDamaged
         | FinishedGames | FinishedGameOf | Ratings | Leaderboard | AccountOf | AllAccounts | LoadTournamentEvents)
Request = Command | Query


def is_postgres(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL)
    rather than an SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def table_of(request: Request) -> str | None:
    """The table a request is about, if any (for a log line)."""
    return getattr(request, "table_id", None)


# ---------------------------------------------------------------------- backends


@runtime_checkable
class JournalBackend(Protocol):
    """A place that keeps the journal, called synchronously (by one writer: a child
    process, a thread, or the caller itself when ``blocks`` is False)."""

    blocks: bool
    """Whether its calls may wait on a disk or a network."""

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        """Run ``requests`` in order, their writes committed together; each one's result,
        or the exception it raised (that request alone is undone)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class AsyncJournalBackend(Protocol):
    """A place that keeps the journal, called on the server's event loop (PostgreSQL): the
    same contract as :class:`JournalBackend`, awaited; one batch at a time."""

    async def open(self) -> None:
        """Connect, and check (or bring up to date) the schema: StorageError if it cannot."""
        ...

    async def run_batch(self, requests: Sequence[Request]) -> list[Any]: ...

    async def close(self) -> None: ...


# ---------------------------------------------------------------------- the server's side


@runtime_checkable
class Journal(Protocol):
    """What the server holds: asynchronous (see the module docstring)."""

    def write(self, command: Command) -> Awaitable[None]:
        """Queue ``command``; the awaitable resolves once it is durable."""
        ...

    async def load_unfinished(self) -> list[StoredTable]: ...

    async def load_results(self, limit: int = 100) -> list[TableResult]: ...

    async def load_actions(self, table_id: str) -> Actions: ...

    async def load_finished_since(self, since: float) -> list[FinishedTable]: ...

    async def last_table_id(self) -> int: ...

    async def load_damaged(self) -> list[tuple[str, str]]: ...

    async def take_table_ids(self, count: int) -> int:
        """:class:`TakeTableIds`: the last id of a block of ``count`` new ones."""
        ...

    async def finished_games(self, player: str | None = None, preset: str | None = None,
                             limit: int = 1000) -> list[FinishedGame]: ...

    async def finished_game(self, table_id: str) -> FinishedGame | None: ...

    async def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]: ...

    async def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]: ...

    async def account(self, name: str) -> Account | None: ...

    async def tournament_events(self) -> list[tuple[str, int, str, str]]:
        """:class:`LoadTournamentEvents`."""
        ...

    async def flush(self) -> None:
        """Wait until every write queued so far is committed."""
        ...

    async def close(self) -> None:
        """Commit what is queued, then close the backend."""
        ...
