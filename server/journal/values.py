"""The journal's values: what a table looks like when it is read back, the finished
games, ratings and accounts it keeps, and how actions and rules are written into the
journal (the same text in every backend).

An action is compact JSON: a Play ``["p",card,mask]`` (``["p",card,mask,marks]`` with
how it came about: :func:`encode_action`), a Declare ``["d",kind,wild]``, a
Deal ``["s",order]``; rules are the RuleSet's JSON; a finished table's actions are kept
as one zlib-compressed JSON list (its *record*).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from scopa.engine import Action, Deal, DeclarationKind, Declare, Forced, Play, PlayMark, RuleSet

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
    marks: dict[int, PlayMark] = field(default_factory=dict)  # by action index: the plays marked
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
    leaver: int | None = None  # reason abandoned: the seat whose person left (or did not come back)


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
    leaver: int | None = None  # reason abandoned: the seat whose person left (or did not come back)


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


_MARKS = (("s", "scopa"), ("t", Forced.TIMEOUT), ("r", Forced.REFUSED), ("b", "bot"))
"""A play's marks as journaled, a letter each: ``s`` a scopa, ``t`` played when its seat's
time ran out, ``r`` after its answers were refused too often, ``b`` by a bot for a person."""


class Actions(list[Action]):
    """A table's actions as journaled, with the marks of its plays (by action index)."""

    marks: dict[int, PlayMark]

    def __init__(self, actions: list[Action] | None = None, marks: dict[int, PlayMark] | None = None) -> None:
        super().__init__(actions or [])
        self.marks = marks or {}


def encode_action(action: Action, mark: PlayMark | None = None) -> str:
    """An action as compact JSON: Play ``["p",card,mask]``, with its marks
    ``["p",card,mask,"tb"]`` (:data:`_MARKS`), Declare ``["d",kind,wild]``, Deal ``["s",order]``."""
    if isinstance(action, Play):  # every move: written out, as json.dumps writes it
        letters = "" if mark is None else "".join(
            k for k, m in _MARKS if m == mark.forced or (m == "scopa" and mark.scopa) or (m == "bot" and mark.bot))
        return f'["p",{int(action.card)},{int(action.capture)}' + (f',"{letters}"]' if letters else "]")
    if isinstance(action, Deal):
        return json.dumps(["s", list(action.order)], separators=(",", ":"))
    if isinstance(action, Declare):
        return json.dumps(["d", action.kind.value, action.wild], separators=(",", ":"))
    raise TypeError(f"not an action: {action!r}")


def decode_marked(text: str) -> tuple[Action, PlayMark | None]:
    """An action as :func:`encode_action` wrote it, and its marks (None: none; a letter
    this server does not know is left out)."""
    data = json.loads(text)
    match data:
        case ["p", int(card), int(mask)]:
            return Play(card, mask), None
        case ["p", int(card), int(mask), str(letters)]:
            forced = next((m for k, m in _MARKS if k in letters and isinstance(m, Forced)), None)
            return Play(card, mask), PlayMark(forced, "b" in letters, "s" in letters)
        case ["d", str(kind), wild] if wild is None or isinstance(wild, int):
            return Declare(DeclarationKind(kind), wild), None
        case ["s", list(order)] if len(order) == 40 and all(isinstance(c, int) for c in order):
            return Deal(tuple(order)), None
    raise ValueError(f"not an encoded action: {text[:80]!r}")


def decode_action(text: str) -> Action:
    return decode_marked(text)[0]


def decode_actions(texts: Iterable[str]) -> Actions:
    """Actions as :func:`encode_action` wrote them, in order, with their marks."""
    out = Actions()
    for text in texts:
        action, mark = decode_marked(text)
        if mark is not None:
            out.marks[len(out)] = mark
        out.append(action)
    return out


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
            action, mark = decode_marked(text)
        except (ValueError, TypeError) as exc:
            table.damage = f"action {i} cannot be read: {first_line(exc)}"
            break
        table.actions.append(action)
        if mark is not None:
            table.marks[i] = mark
    if table.damage is not None:
        table.actions, table.marks = [], {}
    return table


def stored_tournament_event(stored: tuple[str, str], command: Any) -> None:
    """A tournament event's ``seq`` is written once: the same event again changes nothing,
    another one for that ``seq`` is refused (``stored``: its ``(kind, data)`` as kept)."""
    if tuple(stored) != (command.kind, command.data):
        raise StorageError(f"tournament {command.tournament_id}: event {command.seq} is stored already")
