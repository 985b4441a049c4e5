"""The journal's values: what a table looks like when it is read back, the finished
games, ratings and accounts it keeps, and how actions and rules are written into the
journal (the same text in every backend).

An action is compact JSON: a Play ``["p",card,mask]``, a Declare ``["d",kind,wild]``, a
Deal ``["s",order]``; rules are the RuleSet's JSON; a finished table's actions are kept
as one zlib-compressed JSON list (its *record*).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from scopa.engine import Action, Deal, DeclarationKind, Declare, Play, RuleSet

WAITING, PLAYING, FINISHED, CLOSED, DAMAGED = "waiting", "playing", "finished", "closed", "damaged"


class StorageError(RuntimeError):
    """The storage refused or failed a write (e.g. an action index already journaled)."""


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


@dataclass(frozen=True)
class GamePlayer:
    """Who sat at a seat of a finished game."""

    seat: int
    name: str
    kind: str  # "person" or "bot"
    strategy: str | None = None
    taken_over: bool = False  # a bot played this person's seat from some point on
    token_digest: str | None = None  # sha256 hex of the person's seat token


@dataclass(frozen=True)
class FinishedGame:
    id: str
    rules: RuleSet
    seed: int
    private: bool
    finished_at: float
    winner: int | None
    totals: tuple[int, ...]
    reason: str
    players: tuple[GamePlayer, ...]


@dataclass(frozen=True)
class Rating:
    """A name's OpenSkill rating under one preset."""

    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """The leaderboard's rating: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Account:
    """A claimed name: its salted scrypt hash and the hash's parameters."""

    name: str
    salt: bytes
    hash: bytes
    n: int
    r: int
    p: int
    created_at: float = 0.0


def preset_key(rules: RuleSet) -> str:
    """The preset ratings are kept under: the rules' preset, or ``custom``."""
    return rules.preset.value if rules.preset is not None else "custom"


def ranked(ratings: Sequence[Rating], limit: int) -> list[Rating]:
    """The best ``limit`` ratings, as a leaderboard orders them (mu - 3 sigma, wins, name)."""
    return sorted(ratings, key=lambda r: (-r.ordinal, -r.wins, r.name))[:limit]


class JournalTooNew(StorageError):
    """The journal was written by a newer server: this one does not know its format."""


class Fenced(StorageError):
    """A write of a table that another journal took over since this one last claimed or
    created it (:class:`~.journal.ClaimTable`): refused, nothing of it stored."""


class TableTaken(StorageError):
    """A :class:`~.journal.CreateTable` of an id the journal holds already (in any state):
    refused, the table that has it left as it is."""


def ended(table_id: str, status: str) -> str:
    """Why a write of a table that has ended is refused."""
    return f"table {table_id!r} is {status}: it takes no more writes"


def taken(table_id: str) -> str:
    """Why a CreateTable of an id the journal holds is refused."""
    return f"table {table_id!r} already exists"


class JournalUnavailable(StorageError):
    """The journal could not store a write for now (a full disk, a lost connection, its
    process gone): the write is not stored, and may be tried again."""


def compact(actions: Sequence[str]) -> bytes:
    """A table's encoded actions as one compressed record."""
    return zlib.compress(("[" + ",".join(actions) + "]").encode(), 9)


def uncompact(record: bytes) -> list[str]:
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


def rules_json(rules: RuleSet) -> str:
    return rules.model_dump_json()


def rules_from(text: str) -> RuleSet:
    return RuleSet.model_validate_json(text)  # JSON mode: enums come back from their values


def table_number(table_id: str) -> int:
    return int(table_id) if table_id.isdigit() else 0



def first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]



Rows = Callable[[], Sequence[Sequence[Any]]]


def read_unfinished(row: Sequence[Any], seats: Rows, actions: Rows) -> StoredTable:
    """An unfinished table from its row (id, rules, seed, private, options, status), its
    seats' rows (seat, name, token_digest, bot) and its actions' rows (idx, action),
    read only when they are needed; what cannot be read makes it damaged (``damage``
    says why, and it has no actions)."""
    tid, rules_text, seed, private, options, status = row
    try:
        rules = rules_from(rules_text)
    except Exception as exc:  # noqa: BLE001 - garbage in the journal, of any kind
        return StoredTable(tid, RuleSet(), 0, False, {}, status, [], damage=f"its rules cannot be read: {first_line(exc)}")
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
        table.damage = f"its seed or options cannot be read: {first_line(exc)}"
        return table
    for seat, name, digest, bot in seats():
        if isinstance(seat, int) and 0 <= seat < rules.players:
            table.seats[seat] = StoredSeat(seat, str(name), digest, bot)
    for i, (idx, text) in enumerate(actions()):
        if idx != i:
            table.damage = f"action {i} is missing from the journal"
            break
        try:
            table.actions.append(decode_action(text))
        except (ValueError, TypeError) as exc:
            table.damage = f"action {i} cannot be read: {first_line(exc)}"
            break
    if table.damage is not None:
        table.actions = []
    return table


def stored_tournament_event(stored: tuple[str, str], command: Any) -> None:
    """A tournament event's ``seq`` is written once: the same event again changes nothing,
    another one for that ``seq`` is refused (``stored``: its ``(kind, data)`` as kept)."""
    if tuple(stored) != (command.kind, command.data):
        raise StorageError(f"tournament {command.tournament_id}: event {command.seq} is stored already")
