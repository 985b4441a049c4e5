"""The PostgreSQL journal's archive (:mod:`.storage`): who played each finished game,
the ratings of each name per preset and the claimed names."""

from __future__ import annotations

import json
import time
from typing import Any, Sequence

import psycopg

from ..values import Account, FinishedGame, GamePlayer, Rating, StorageError, rules_from
from .link import PgLink


class PgArchive:
    """The archive's statements, on the batch's connection (:class:`~.link.PgLink`)."""

    def __init__(self, link: PgLink) -> None:
        self._link = link

    async def save_players(self, table_id: str, players: Sequence[GamePlayer]) -> None:
        await self._link.db.cursor().executemany(
            "INSERT INTO game_players (table_id, seat, name, kind, strategy, taken_over, token_digest) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, seat) DO UPDATE SET "
            "name=EXCLUDED.name, kind=EXCLUDED.kind, strategy=EXCLUDED.strategy, "
            "taken_over=EXCLUDED.taken_over, token_digest=EXCLUDED.token_digest",
            [(table_id, p.seat, p.name, p.kind, p.strategy, p.taken_over, p.token_digest) for p in players])

    async def _players_of(self, table_id: str) -> tuple[GamePlayer, ...]:
        rows = await self._link.all("SELECT seat, name, kind, strategy, taken_over, token_digest FROM game_players "
                               "WHERE table_id=%s ORDER BY seat", (table_id,))
        return tuple(GamePlayer(*row) for row in rows)

    _GAME_COLUMNS = "t.id, t.rules, t.seed, t.private, t.finished_at, t.winner, t.totals, t.reason, t.leaver"

    async def _game(self, row: Sequence[Any]) -> FinishedGame:
        tid, rules, seed, private, finished_at, winner, totals, reason, leaver = row
        return FinishedGame(tid, rules_from(rules), seed, bool(private), finished_at or 0.0, winner,
                            tuple(json.loads(totals or "[]")), reason or "", await self._players_of(tid), leaver)

    async def finished_games(self, player: str | None = None, preset: str | None = None,
                             limit: int = 1000) -> list[FinishedGame]:
        where = ["t.status='finished'", "EXISTS (SELECT 1 FROM game_players g WHERE g.table_id=t.id)"]
        args: list[Any] = []
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM game_players g WHERE g.table_id=t.id AND g.name=%s)")
            args.append(player)
        if preset is not None:
            where.append("COALESCE(t.rules::jsonb->>'preset', 'custom')=%s")
            args.append(preset)
        rows = await self._link.all(f"SELECT {self._GAME_COLUMNS} FROM tables t WHERE {' AND '.join(where)} "
                               "ORDER BY t.finished_at DESC, t.num DESC LIMIT %s", (*args, limit))
        return [await self._game(row) for row in rows]

    async def finished_game(self, table_id: str) -> FinishedGame | None:
        row = await self._link.one(f"SELECT {self._GAME_COLUMNS} FROM tables t WHERE t.id=%s AND t.status='finished'",
                              (table_id,))
        if row is None:
            return None
        game = await self._game(row)
        return game if game.players else None

    async def ratings(self, preset: str, names: Sequence[str]) -> dict[str, Rating]:
        rows = await self._link.all("SELECT name, mu, sigma, games, wins FROM ratings WHERE preset=%s AND name = ANY(%s)",
                               (preset, list(names)))
        return {row[0]: Rating(*row) for row in rows}

    async def save_ratings(self, preset: str, ratings: Sequence[Rating]) -> None:
        await self._link.db.cursor().executemany(
            "INSERT INTO ratings (preset, name, mu, sigma, games, wins) VALUES (%s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (preset, name) DO UPDATE SET mu=EXCLUDED.mu, sigma=EXCLUDED.sigma, "
            "games=EXCLUDED.games, wins=EXCLUDED.wins", [(preset, r.name, r.mu, r.sigma, r.games, r.wins) for r in ratings])

    async def leaderboard(self, preset: str, limit: int = 20) -> list[Rating]:
        rows = await self._link.all("SELECT name, mu, sigma, games, wins FROM ratings WHERE preset=%s "
                               "ORDER BY mu - 3 * sigma DESC, wins DESC, name LIMIT %s", (preset, limit))
        return [Rating(*row) for row in rows]

    async def account(self, name: str) -> Account | None:
        row = await self._link.one("SELECT name, salt, hash, n, r, p, created_at FROM accounts WHERE lower(name)=lower(%s)",
                              (name,))
        if row is None:
            return None
        return Account(row[0], bytes(row[1]), bytes(row[2]), row[3], row[4], row[5], row[6])

    async def all_accounts(self) -> list[Account]:
        rows = await self._link.all("SELECT name, salt, hash, n, r, p, created_at FROM accounts ORDER BY name")
        return [Account(r[0], bytes(r[1]), bytes(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

    async def save_account(self, account: Account) -> None:
        a = account
        try:
            await self._link.db.execute("INSERT INTO accounts (name, salt, hash, n, r, p, created_at) "
                                   "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                                   (a.name, a.salt, a.hash, a.n, a.r, a.p, a.created_at or time.time()))
        except psycopg.errors.UniqueViolation:
            raise StorageError(f"the name {a.name!r} is claimed already") from None
