"""The operations a journal backend implements, one per request type (:mod:`.commands`):
synchronously (:class:`Operations`: SQLite, memory) or on the event loop
(:class:`AsyncOperations`: PostgreSQL); :func:`execute` is the one place where a request
meets them, chosen by the request's type."""

from __future__ import annotations

from typing import Any, Protocol, Sequence

from scopa.engine import Action, RuleSet

from .values import Account, FinishedGame, Rating
from .values import Actions, FinishedTable, StoredTable, TableResult
from .commands import (
    AccountOf, AllAccounts, AppendAction, AppendTournamentEvent, ClaimTable, ClearSeat, CloseTable, CreateTable,
    FinishedGameOf, FinishedGames, FinishTable, LastTableId, Leaderboard, LoadActions, LoadDamaged,
    LoadFinishedSince, LoadRefusals, LoadResults, LoadTournamentEvents, LoadUnfinished, MarkDamaged, Ratings,
    RecordRefusal, Request, SaveAccount, SaveRatings, SetSeat, StartTable, TakeTableIds
)
from .values import StorageError


class Writes(Protocol):
    """The journal commands of a table: its creation, seats, actions, refusals and end."""

    def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                     options: dict[str, Any] | None = None) -> None: ...

    def claim_table(self, table_id: str) -> None: ...

    def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                 bot: str | None = None) -> None: ...

    def clear_seat(self, table_id: str, seat: int) -> None: ...

    def start_table(self, table_id: str) -> None: ...

    def append_encoded(self, table_id: str, index: int, encoded: str) -> None: ...

    def record_refusal(self, command: RecordRefusal) -> None: ...

    def finish(self, command: FinishTable) -> None: ...

    def close_table(self, table_id: str, reason: str) -> None: ...

    def mark_damaged(self, table_id: str, reason: str) -> None: ...

    def take_table_ids(self, count: int) -> int: ...

    def append_tournament_event(self, command: AppendTournamentEvent) -> None: ...


class Reads(Protocol):
    """What the server reads back of its tables: to restore them, and their results."""

    def load_unfinished(self) -> list[StoredTable]: ...

    def load_results(self, limit: int = 100) -> list[TableResult]: ...

    def load_actions(self, table_id: str) -> Actions: ...

    def load_refusals(self, table_id: str) -> list[RecordRefusal]: ...

    def load_finished_since(self, since: float) -> list[FinishedTable]: ...

    def last_table_id(self) -> int: ...

    def load_damaged(self) -> list[tuple[str, str]]: ...

    def load_tournament_events(self) -> list[tuple[str, int, str, str]]: ...


class Archive(Protocol):
    """The finished games with who played them, the ratings and the claimed names."""

    def finished_games(self, player: str | None = None, preset: str | None = None,
                       limit: int = 1000) -> list[FinishedGame]: ...

    def finished_game(self, table_id: str) -> FinishedGame | None: ...

    def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]: ...

    def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None: ...

    def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]: ...

    def account(self, name: str) -> Account | None: ...

    def all_accounts(self) -> list[Account]: ...

    def save_account(self, account: Account) -> None: ...


class AsyncWrites(Protocol):
    """The journal commands of a table: its creation, seats, actions, refusals and end. Awaited."""

    async def create_table(self, table_id: str, rules: RuleSet, seed: int, private: bool = False,
                           options: dict[str, Any] | None = None) -> None: ...

    async def claim_table(self, table_id: str) -> None: ...

    async def set_seat(self, table_id: str, seat: int, name: str, token_digest: str | None = None,
                       bot: str | None = None) -> None: ...

    async def clear_seat(self, table_id: str, seat: int) -> None: ...

    async def start_table(self, table_id: str) -> None: ...

    async def append_encoded(self, table_id: str, index: int, encoded: str) -> None: ...

    async def record_refusal(self, command: RecordRefusal) -> None: ...

    async def finish(self, command: FinishTable) -> None: ...

    async def close_table(self, table_id: str, reason: str) -> None: ...

    async def mark_damaged(self, table_id: str, reason: str) -> None: ...

    async def take_table_ids(self, count: int) -> int: ...

    async def append_tournament_event(self, command: AppendTournamentEvent) -> None: ...


class AsyncReads(Protocol):
    """What the server reads back of its tables: to restore them, and their results. Awaited."""

    async def load_unfinished(self) -> list[StoredTable]: ...

    async def load_results(self, limit: int = 100) -> list[TableResult]: ...

    async def load_actions(self, table_id: str) -> Actions: ...

    async def load_refusals(self, table_id: str) -> list[RecordRefusal]: ...

    async def load_finished_since(self, since: float) -> list[FinishedTable]: ...

    async def last_table_id(self) -> int: ...

    async def load_damaged(self) -> list[tuple[str, str]]: ...

    async def load_tournament_events(self) -> list[tuple[str, int, str, str]]: ...


class AsyncArchive(Protocol):
    """The finished games with who played them, the ratings and the claimed names. Awaited."""

    async def finished_games(self, player: str | None = None, preset: str | None = None,
                             limit: int = 1000) -> list[FinishedGame]: ...

    async def finished_game(self, table_id: str) -> FinishedGame | None: ...

    async def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]: ...

    async def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None: ...

    async def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]: ...

    async def account(self, name: str) -> Account | None: ...

    async def all_accounts(self) -> list[Account]: ...

    async def save_account(self, account: Account) -> None: ...


class Operations(Protocol):
    """A backend called synchronously (SQLite, memory): its operations in three parts."""

    @property
    def writes(self) -> Writes: ...

    @property
    def reads(self) -> Reads: ...

    @property
    def archive(self) -> Archive: ...


class AsyncOperations(Protocol):
    """A backend called on the event loop (PostgreSQL): the same parts, awaited."""

    @property
    def writes(self) -> AsyncWrites: ...

    @property
    def reads(self) -> AsyncReads: ...

    @property
    def archive(self) -> AsyncArchive: ...


def execute(backend: Operations | AsyncOperations, request: Request) -> Any:
    """Run one request on ``backend``: its result (an exception is raised), or, for an
    :class:`AsyncOperations` backend, the awaitable of it."""
    match request:
        case AppendAction(table_id, index, action):
            return backend.writes.append_encoded(table_id, index, action)
        case CreateTable(table_id, rules, seed, private, options):
            return backend.writes.create_table(table_id, rules, seed, private, options)
        case ClaimTable(table_id):
            return backend.writes.claim_table(table_id)
        case SetSeat(table_id, seat, name, token_digest, bot):
            return backend.writes.set_seat(table_id, seat, name, token_digest, bot)
        case ClearSeat(table_id, seat):
            return backend.writes.clear_seat(table_id, seat)
        case StartTable(table_id):
            return backend.writes.start_table(table_id)
        case RecordRefusal():
            return backend.writes.record_refusal(request)
        case FinishTable():
            return backend.writes.finish(request)
        case CloseTable(table_id, reason):
            return backend.writes.close_table(table_id, reason)
        case MarkDamaged(table_id, reason):
            return backend.writes.mark_damaged(table_id, reason)
        case TakeTableIds(count):
            return backend.writes.take_table_ids(count)
        case AppendTournamentEvent():
            return backend.writes.append_tournament_event(request)
        case SaveRatings(preset, ratings):
            return backend.archive.save_ratings(preset, ratings)
        case SaveAccount(account):
            return backend.archive.save_account(account)
        case LoadUnfinished():
            return backend.reads.load_unfinished()
        case LoadResults(limit):
            return backend.reads.load_results(limit)
        case LoadActions(table_id):
            return backend.reads.load_actions(table_id)
        case LoadRefusals(table_id):
            return backend.reads.load_refusals(table_id)
        case LoadFinishedSince(since):
            return backend.reads.load_finished_since(since)
        case LastTableId():
            return backend.reads.last_table_id()
        case LoadDamaged():
            return backend.reads.load_damaged()
        case LoadTournamentEvents():
            return backend.reads.load_tournament_events()
        case FinishedGames(player, preset, limit):
            return backend.archive.finished_games(player, preset, limit)
        case FinishedGameOf(table_id):
            return backend.archive.finished_game(table_id)
        case Ratings(preset, names):
            return backend.archive.ratings(preset, names)
        case Leaderboard(preset, limit):
            return backend.archive.leaderboard(preset, limit)
        case AccountOf(name):
            return backend.archive.account(name)
        case AllAccounts():
            return backend.archive.all_accounts()
    raise StorageError(f"not a journal request: {request!r}")


def run_requests(backend: Operations, requests: Sequence[Request]) -> list[Any]:
    """Each request on ``backend`` in turn: its result or the exception it raised."""
    out: list[Any] = []
    for request in requests:
        try:
            out.append(execute(backend, request))
        except Exception as exc:  # noqa: BLE001 - handed to whoever waits for this request
            out.append(exc)
    return out
