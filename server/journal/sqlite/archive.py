"""The SQLite backend's archive: who played each finished game, the ratings of each name
per preset and the claimed names, on the journal's file (:mod:`.storage`).

Three relations (:data:`~.schema.ARCHIVE_SCHEMA`, created beside the journal's) and
:class:`SQLiteArchive`, the part of :class:`~.storage.SQLiteStorage` that reads and writes
them; the services that use them (:mod:`.archive`, :mod:`scopa.server.players.rater`, :mod:`scopa.server.players.accounts`) reach
them through the journal.
"""

from __future__ import annotations

import json
import time
from typing import Any, Sequence

from scopa.engine import RuleSet

from ..values import Account, FinishedGame, GamePlayer, Rating, StorageError
from .file import SQLiteFile


class SQLiteArchive:
    """The archive's statements on the journal's file (same connection and lock; one
    statement or short transaction each)."""

    def __init__(self, file: SQLiteFile) -> None:
        self._file = file

    def save_players(self, table_id: str, players: Sequence[GamePlayer]) -> None:
        with self._file.transaction():
            for p in players:
                self._file.db.execute(
                    "INSERT OR REPLACE INTO game_players (table_id, seat, name, kind, strategy, taken_over, "
                    "token_digest) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_id, p.seat, p.name, p.kind, p.strategy, int(p.taken_over), p.token_digest),
                )

    def _players_of(self, table_id: str) -> tuple[GamePlayer, ...]:
        rows = self._file.db.execute(
            "SELECT seat, name, kind, strategy, taken_over, token_digest FROM game_players WHERE table_id=? "
            "ORDER BY seat", (table_id,)
        ).fetchall()
        return tuple(GamePlayer(seat, name, kind, strategy, bool(taken), digest)
                     for seat, name, kind, strategy, taken, digest in rows)

    _GAME_COLUMNS = "id, rules, seed, private, finished_at, winner, totals, reason, leaver"

    def _game(self, row: tuple[Any, ...]) -> FinishedGame:
        tid, rules, seed, private, finished_at, winner, totals, reason, leaver = row
        return FinishedGame(tid, RuleSet.model_validate_json(rules), seed, bool(private), finished_at or 0.0,
                            winner, tuple(json.loads(totals or "[]")), reason or "", self._players_of(tid), leaver)

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
        with self._file.lock:
            rows = self._file.db.execute(
                f"SELECT {self._GAME_COLUMNS} FROM tables t WHERE {' AND '.join(where)} "
                "ORDER BY t.finished_at DESC, t.num DESC LIMIT ?", args
            ).fetchall()
            return [self._game(row) for row in rows]

    def finished_game(self, table_id: str) -> FinishedGame | None:
        with self._file.lock:
            row = self._file.db.execute(
                f"SELECT {self._GAME_COLUMNS} FROM tables WHERE id=? AND status='finished'", (table_id,)
            ).fetchone()
            if row is None:
                return None
            game = self._game(row)
        return game if game.players else None

    def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]:
        out: dict[str, Rating] = {}
        with self._file.lock:
            for name in names:
                row = self._file.db.execute("SELECT mu, sigma, games, wins FROM ratings WHERE preset=? AND name=?",
                                       (preset, name)).fetchone()
                if row is not None:
                    out[name] = Rating(name, *row)
        return out

    def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None:
        with self._file.transaction():
            for r in ratings:
                self._file.db.execute(
                    "INSERT OR REPLACE INTO ratings (preset, name, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, ?)",
                    (preset, r.name, r.mu, r.sigma, r.games, r.wins),
                )

    def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]:
        with self._file.lock:
            rows = self._file.db.execute(
                "SELECT name, mu, sigma, games, wins FROM ratings WHERE preset=? "
                "ORDER BY mu - 3 * sigma DESC, wins DESC, name LIMIT ?", (preset, limit)
            ).fetchall()
        return [Rating(*row) for row in rows]

    def account(self, name: str) -> Account | None:
        with self._file.lock:
            # A claimed name is claimed in every case (names are unique regardless of case).
            row = self._file.db.execute("SELECT name, salt, hash, n, r, p, created_at FROM accounts "
                                   "WHERE name=? COLLATE NOCASE", (name,)).fetchone()
        return Account(*row) if row is not None else None

    def all_accounts(self) -> list[Account]:
        with self._file.lock:
            rows = self._file.db.execute("SELECT name, salt, hash, n, r, p, created_at FROM accounts ORDER BY name").fetchall()
        return [Account(*row) for row in rows]

    def save_account(self, account: Account) -> None:
        a = account
        if self.account(a.name) is not None:  # claimed in another case
            raise StorageError(f"the name {a.name!r} is claimed already")
        self._file.exec("INSERT INTO accounts (name, salt, hash, n, r, p, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (a.name, a.salt, a.hash, a.n, a.r, a.p, a.created_at or time.time()))
