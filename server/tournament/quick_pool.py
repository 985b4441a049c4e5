"""Quick play's waiting pool, sans I/O: who waits for which game, and who plays whom.

A player asks for a preset (``quick_play``) and waits.  Each :meth:`QuickPool.wave`
seats the players of each preset who have waited at least ``gather`` seconds, whole
tables at a time, closest ratings together: the waiting players sorted by rating are cut
into runs of a table's size so that as many tables as possible start and, among those
cuts, the sum of each table's rating spread is smallest.  Those left over wait for the
next wave.  A player who gave ``bot_after`` and is still waiting that many seconds after
asking gets a game against bots instead.  Every change tells each waiting player of that
preset how many others wait."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scopa.engine.rules import Preset

from .values import TournamentError, table_size


@dataclass(frozen=True)
class QuickEntry:
    player: str
    preset: Preset
    rating: float
    since: float
    bot_after: float | None = None  # seconds: then a game against bots


@dataclass(frozen=True)
class QuickWaiting:
    """Tell ``player``: ``others`` more players wait for the same game."""

    player: str
    preset: Preset
    others: int


@dataclass(frozen=True)
class QuickPaired:
    """Open a table of this preset for these players (seat order)."""

    preset: Preset
    players: tuple[str, ...]


@dataclass(frozen=True)
class QuickBotGame:
    """Open a table of this preset for this player and bots in the other seats."""

    preset: Preset
    player: str


QuickEffect = QuickWaiting | QuickPaired | QuickBotGame


def closest_tables(entries: Sequence[QuickEntry], size: int) -> list[tuple[QuickEntry, ...]]:
    """The most tables of ``size`` these entries fill, closest ratings together (the least
    total spread), the entries sorted by rating and cut into runs; ties: the earlier
    askers first."""
    ranked = sorted(entries, key=lambda e: (e.rating, e.since, e.player))
    n = len(ranked)
    # best[i]: (tables, -spread) for ranked[i:], and whether ranked[i] starts a table
    best: list[tuple[int, float]] = [(0, 0.0)] * (n + 1)
    starts = [False] * (n + 1)
    for i in range(n - 1, -1, -1):
        best[i], starts[i] = best[i + 1], False
        if i + size <= n:
            tables, neg = best[i + size]
            take = (tables + 1, neg - (ranked[i + size - 1].rating - ranked[i].rating))
            if take >= best[i]:
                best[i], starts[i] = take, True
    out: list[tuple[QuickEntry, ...]] = []
    i = 0
    while i < n:
        if starts[i]:
            out.append(tuple(sorted(ranked[i : i + size], key=lambda e: (e.since, e.player))))
            i += size
        else:
            i += 1
    return out


class QuickPool:
    """The players waiting for a quick game, every preset at once."""

    def __init__(self, gather: float = 0.5) -> None:
        self.gather = gather  # seconds a new player waits for others to ask at about the same time
        self._waiting: dict[str, QuickEntry] = {}

    def waiting(self, preset: Preset) -> tuple[QuickEntry, ...]:
        return tuple(e for e in self._waiting.values() if e.preset is preset)

    def join(self, entry: QuickEntry) -> list[QuickEffect]:
        if entry.player in self._waiting:
            raise TournamentError("already_waiting", f"{entry.player} is already waiting for a quick game")
        if entry.bot_after is not None and entry.bot_after < 0:
            raise TournamentError("bad_bot_after", "bot_after is a number of seconds, not negative")
        self._waiting[entry.player] = entry
        return self._counts(entry.preset)

    def leave(self, player: str) -> list[QuickEffect]:
        entry = self._waiting.pop(player, None)
        if entry is None:
            raise TournamentError("not_waiting", f"{player} is not waiting for a quick game")
        return self._counts(entry.preset)

    def due(self) -> float | None:
        """When :meth:`wave` has something to do next (None: nobody waits)."""
        times: list[float] = []
        for preset in {e.preset for e in self._waiting.values()}:
            group = sorted(e.since for e in self.waiting(preset))
            if len(group) >= table_size(preset):
                times.append(group[table_size(preset) - 1] + self.gather)
        times += [e.since + e.bot_after for e in self._waiting.values() if e.bot_after is not None]
        return min(times) if times else None

    def wave(self, now: float) -> list[QuickEffect]:
        """Seat whoever can be seated now."""
        effects: list[QuickEffect] = []
        changed: set[Preset] = set()
        for preset in sorted({e.preset for e in self._waiting.values()}):
            ready = [e for e in self.waiting(preset) if now - e.since >= self.gather]
            for table in closest_tables(ready, table_size(preset)):
                effects.append(QuickPaired(preset, tuple(e.player for e in table)))
                for e in table:
                    del self._waiting[e.player]
                changed.add(preset)
        for e in sorted(self._waiting.values(), key=lambda e: (e.since, e.player)):
            if e.bot_after is not None and now - e.since >= e.bot_after:
                effects.append(QuickBotGame(e.preset, e.player))
                del self._waiting[e.player]
                changed.add(e.preset)
        for preset in sorted(changed):
            effects += self._counts(preset)
        return effects

    def _counts(self, preset: Preset) -> list[QuickEffect]:
        group = self.waiting(preset)
        return [QuickWaiting(e.player, preset, len(group) - 1) for e in group]
