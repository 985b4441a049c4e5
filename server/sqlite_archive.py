"""The SQLite backend's archive: who played each finished game, the ratings of each name
per preset and the claimed names, on the journal's file (:mod:`.storage`).

Three relations (:data:`ARCHIVE_SCHEMA`, created beside the journal's) and the methods
:class:`SQLiteArchive` gives :class:`~.storage.SQLiteStorage`; the services that use them
(:mod:`.archive`, :mod:`.ratings`, :mod:`.accounts`) reach them through the journal.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import AbstractContextManager
from typing import Any, Sequence

from scopa.engine import RuleSet

from .journal_values import Account, FinishedGame, GamePlayer, Rating, StorageError

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
