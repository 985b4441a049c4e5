"""The in-memory backend's archive: who played each finished game, the ratings and the
claimed names of a :class:`~.storage.MemoryStorage` (:class:`MemoryArchive`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..values import FINISHED, Account, FinishedGame, GamePlayer, Rating, StorageError, preset_key, ranked


@dataclass
class _MemArchive:
    players: dict[str, tuple[GamePlayer, ...]] = field(default_factory=dict)
    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)
    accounts: dict[str, Account] = field(default_factory=dict)


class MemoryArchive:
    """The archive methods of :class:`~scopa.server.journal.memory.storage.MemoryStorage`."""

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
                            r.reason, players, r.leaver)

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
        return ranked([r for (p, _), r in self._archive.ratings.items() if p == preset], limit)

    def account(self, name: str) -> Account | None:
        key = name.casefold()  # claimed in every case, as in SQLite
        return next((a for n, a in self._archive.accounts.items() if n.casefold() == key), None)

    def all_accounts(self) -> list[Account]:
        return sorted(self._archive.accounts.values(), key=lambda a: a.name)

    def save_account(self, account: Account) -> None:
        if self.account(account.name) is not None:  # claimed in any case
            raise StorageError(f"the name {account.name!r} is claimed already")
        self._archive.accounts[account.name] = account
