"""What a server with storage keeps beyond the journal: who played each finished game,
the ratings of each name per preset, and the accounts that claim names.

It is an addition to :mod:`.storage` on the same database: three more relations
(:data:`ARCHIVE_SCHEMA`, created beside the journal's) and the methods of
:class:`Archive`, which both storage backends have (:class:`SQLiteArchive` and
:class:`MemoryArchive` are their mixins).

    save_players(table_id, players)                  who sat where, at the game's end
    finished_games(player, preset, limit)            finished games, newest first
    finished_game(table_id)                          one finished game (None if none)
    ratings(preset, names) -> {name: Rating}         stored ratings of some names
    save_ratings(preset, ratings)                    after a rated game
    leaderboard(preset, limit)                       the best ratings (by mu - 3 sigma)
    account(name) / save_account(account)            a claimed name's password hash
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, runtime_checkable

from scopa.engine import RuleSet

FINISHED = "finished"

ARCHIVE_SCHEMA = """
CREATE TABLE IF NOT EXISTS game_players (
    table_id     TEXT NOT NULL REFERENCES tables(id),
    seat         INTEGER NOT NULL,
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL,            -- person | bot
    strategy     TEXT,                     -- a built-in bot's strategy
    taken_over   INTEGER NOT NULL DEFAULT 0, -- a bot played this person's seat from some point on
    token_digest TEXT,                     -- sha256 hex of the person's seat token
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS game_players_name ON game_players(name);
CREATE TABLE IF NOT EXISTS ratings (
    preset TEXT NOT NULL,
    name   TEXT NOT NULL,
    mu     REAL NOT NULL,
    sigma  REAL NOT NULL,
    games  INTEGER NOT NULL DEFAULT 0,
    wins   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (preset, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS accounts (
    name       TEXT PRIMARY KEY,
    salt       BLOB NOT NULL,
    hash       BLOB NOT NULL,              -- scrypt(password, salt, n, r, p)
    n          INTEGER NOT NULL,
    r          INTEGER NOT NULL,
    p          INTEGER NOT NULL,
    created_at REAL NOT NULL
) WITHOUT ROWID;
"""



class StorageError(RuntimeError):
    """The storage refused or failed a write (e.g. an action index already journaled)."""

@dataclass(frozen=True)
class GamePlayer:
    seat: int
    name: str
    kind: str  # "person" or "bot"
    strategy: str | None = None
    taken_over: bool = False
    token_digest: str | None = None


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


@runtime_checkable
class Archive(Protocol):
    def save_players(self, table_id: str, players: Sequence[GamePlayer]) -> None: ...

    def finished_games(self, player: str | None = None, preset: str | None = None,
                       limit: int = 1000) -> list[FinishedGame]: ...

    def finished_game(self, table_id: str) -> FinishedGame | None: ...

    def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]: ...

    def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None: ...

    def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]: ...

    def account(self, name: str) -> Account | None: ...

    def save_account(self, account: Account) -> None: ...


def _ranked(ratings: Sequence[Rating], limit: int) -> list[Rating]:
    return sorted(ratings, key=lambda r: (-r.ordinal, -r.wins, r.name))[:limit]


# ---------------------------------------------------------------------- SQLite


class SQLiteArchive:
    """The archive methods of :class:`~scopa.server.storage.SQLiteStorage` (same file,
    same connection and lock; one statement or short transaction each)."""

    _db: sqlite3.Connection
    _lock: threading.RLock

    def _exec(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:  # pragma: no cover - the storage's
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[None]:  # pragma: no cover - the storage's
        raise NotImplementedError

    def save_players(self, table_id: str, players: Sequence[GamePlayer]) -> None:
        with self._transaction():
            for p in players:
                self._db.execute(
                    "INSERT OR REPLACE INTO game_players (table_id, seat, name, kind, strategy, taken_over, "
                    "token_digest) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_id, p.seat, p.name, p.kind, p.strategy, int(p.taken_over), p.token_digest),
                )

    def _players_of(self, table_id: str) -> tuple[GamePlayer, ...]:
        rows = self._db.execute(
            "SELECT seat, name, kind, strategy, taken_over, token_digest FROM game_players WHERE table_id=? "
            "ORDER BY seat", (table_id,)
        ).fetchall()
        return tuple(GamePlayer(seat, name, kind, strategy, bool(taken), digest)
                     for seat, name, kind, strategy, taken, digest in rows)

    _GAME_COLUMNS = "id, rules, seed, private, finished_at, winner, totals, reason"

    def _game(self, row: tuple[Any, ...]) -> FinishedGame:
        tid, rules, seed, private, finished_at, winner, totals, reason = row
        return FinishedGame(tid, RuleSet.model_validate_json(rules), seed, bool(private), finished_at or 0.0,
                            winner, tuple(json.loads(totals or "[]")), reason or "", self._players_of(tid))

    def finished_games(self, player: str | None = None, preset: str | None = None,
                       limit: int = 1000) -> list[FinishedGame]:
        where = ["t.status='finished'", "EXISTS (SELECT 1 FROM game_players g WHERE g.table_id=t.id)"]
        args: list[Any] = []
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM game_players g WHERE g.table_id=t.id AND g.name=?)")
            args.append(player)
        if preset is not None:
            where.append("COALESCE(json_extract(t.rules, '$.preset'), 'custom')=?")
            args.append(preset)
        args.append(limit)
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._GAME_COLUMNS} FROM tables t WHERE {' AND '.join(where)} "
                "ORDER BY t.finished_at DESC, t.num DESC LIMIT ?", args
            ).fetchall()
            return [self._game(row) for row in rows]

    def finished_game(self, table_id: str) -> FinishedGame | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {self._GAME_COLUMNS} FROM tables WHERE id=? AND status='finished'", (table_id,)
            ).fetchone()
            if row is None:
                return None
            game = self._game(row)
        return game if game.players else None

    def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]:
        out: dict[str, Rating] = {}
        with self._lock:
            for name in names:
                row = self._db.execute("SELECT mu, sigma, games, wins FROM ratings WHERE preset=? AND name=?",
                                       (preset, name)).fetchone()
                if row is not None:
                    out[name] = Rating(name, *row)
        return out

    def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None:
        with self._transaction():
            for r in ratings:
                self._db.execute(
                    "INSERT OR REPLACE INTO ratings (preset, name, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, ?)",
                    (preset, r.name, r.mu, r.sigma, r.games, r.wins),
                )

    def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]:
        with self._lock:
            rows = self._db.execute(
                "SELECT name, mu, sigma, games, wins FROM ratings WHERE preset=? "
                "ORDER BY mu - 3 * sigma DESC, wins DESC, name LIMIT ?", (preset, limit)
            ).fetchall()
        return [Rating(*row) for row in rows]

    def account(self, name: str) -> Account | None:
        with self._lock:
            # A claimed name is claimed in every case (names are unique regardless of case).
            row = self._db.execute("SELECT name, salt, hash, n, r, p, created_at FROM accounts "
                                   "WHERE name=? COLLATE NOCASE", (name,)).fetchone()
        return Account(*row) if row is not None else None

    def all_accounts(self) -> list[Account]:
        with self._lock:
            rows = self._db.execute("SELECT name, salt, hash, n, r, p, created_at FROM accounts ORDER BY name").fetchall()
        return [Account(*row) for row in rows]

    def save_account(self, account: Account) -> None:
        a = account
        if self.account(a.name) is not None:  # claimed in another case
            raise StorageError(f"the name {a.name!r} is claimed already")
        self._exec("INSERT INTO accounts (name, salt, hash, n, r, p, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (a.name, a.salt, a.hash, a.n, a.r, a.p, a.created_at or time.time()))


# ---------------------------------------------------------------------- memory


@dataclass
class _MemArchive:
    players: dict[str, tuple[GamePlayer, ...]] = field(default_factory=dict)
    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)
    accounts: dict[str, Account] = field(default_factory=dict)


class MemoryArchive:
    """The archive methods of :class:`~scopa.server.memory_journal.MemoryStorage`."""

    _tables: dict[str, Any]

    @property
    def _archive(self) -> _MemArchive:
        found: _MemArchive | None = self.__dict__.get("_archive_state")
        if found is None:
            found = self.__dict__["_archive_state"] = _MemArchive()
        return found

    def save_players(self, table_id: str, players: Sequence[GamePlayer]) -> None:
        if table_id not in self._tables:
            raise StorageError(f"no table {table_id!r} in storage")
        self._archive.players[table_id] = tuple(sorted(players, key=lambda p: p.seat))

    def finished_game(self, table_id: str) -> FinishedGame | None:
        t = self._tables.get(table_id)
        players = self._archive.players.get(table_id)
        if t is None or t.result is None or t.status != FINISHED or not players:
            return None
        r = t.result
        return FinishedGame(table_id, t.rules, t.seed, t.private, r.finished_at, r.winner, tuple(r.totals),
                            r.reason, players)

    def finished_games(self, player: str | None = None, preset: str | None = None,
                       limit: int = 1000) -> list[FinishedGame]:
        games = [g for g in (self.finished_game(tid) for tid in self._tables) if g is not None]
        if player is not None:
            games = [g for g in games if any(p.name == player for p in g.players)]
        if preset is not None:
            games = [g for g in games if preset_key(g.rules) == preset]
        games.sort(key=lambda g: (g.finished_at, int(g.id) if g.id.isdigit() else 0), reverse=True)
        return games[:limit]

    def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]:
        kept = self._archive.ratings
        return {n: kept[(preset, n)] for n in names if (preset, n) in kept}

    def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None:
        for r in ratings:
            self._archive.ratings[(preset, r.name)] = r

    def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]:
        return _ranked([r for (p, _), r in self._archive.ratings.items() if p == preset], limit)

    def account(self, name: str) -> Account | None:
        key = name.casefold()  # claimed in every case, as in SQLite
        return next((a for n, a in self._archive.accounts.items() if n.casefold() == key), None)

    def all_accounts(self) -> list[Account]:
        return sorted(self._archive.accounts.values(), key=lambda a: a.name)

    def save_account(self, account: Account) -> None:
        if self.account(account.name) is not None:  # claimed in any case
            raise StorageError(f"the name {account.name!r} is claimed already")
        self._archive.accounts[account.name] = account
