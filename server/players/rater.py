"""Ratings: OpenSkill (the ``openskill`` package, Plackett-Luce model) per preset, the one
place where a finished game's new ratings are computed, whichever backend keeps them.

The winning side ranks first and the other sides follow by their totals (equal totals
share a rank); a team game rates each teammate.  Which games count, and the result of
one that a player left, is :mod:`.fairness`'s business.

:class:`Rater` journals each finished table's end: the new ratings of a rated game travel
inside its :class:`~.journal.FinishTable`, so a crash keeps the end and its ratings or
neither (then the restored game ends again and is rated then): no rating is lost or
counted twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

from scopa.protocol.commands import UnratedReason

from ..core import metrics
from ..journal import FinishTable, Journal, RatingUpdate, Rating, preset_key
from .fairness import UNRATED_TEXT, FairRatings, Outcome, RatingNames, one_row_per_name, side_ranks

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger("scopa.server")

MODEL = PlackettLuce()


def fresh(name: str) -> Rating:
    """A name never rated before: the model's starting mu and sigma."""
    return Rating(name, MODEL.mu, MODEL.sigma)


def rate_game(sides: Sequence[Sequence[str]], winner: int, totals: Sequence[int],
              known: Mapping[str, Rating]) -> list[Rating]:
    """The new rating of every name in ``sides`` (names per side) after a game that
    ``winner`` won with these ``totals``; ``known``: the ratings before it."""
    return rate_ranked(sides, side_ranks(winner, totals), known)


def rate_ranked(sides: Sequence[Sequence[str]], ranks: Sequence[int], known: Mapping[str, Rating]) -> list[Rating]:
    """The new rating of every name in ``sides`` after a game where each side finished
    at its rank (0 best: a win for every side ranked 0); ``known``: the ratings before it."""
    if len(sides) < 2 or any(not side for side in sides) or len(ranks) != len(sides):
        raise ValueError("a rated game needs at least two sides with a rated seat each, and a rank for each")
    before = [[known.get(name) or fresh(name) for name in side] for side in sides]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma, name=r.name) for r in side] for side in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    out = []
    for rank, old_side, new_side in zip(ranks, before, after):
        for old, new in zip(old_side, new_side):
            out.append(Rating(old.name, float(new.mu), float(new.sigma), old.games + 1,
                              old.wins + (1 if rank == 0 else 0)))
    return out


class Rater:
    """Rates finished games over the journal (None: a server without a database rates
    nothing), one game at a time, so two games of one name never rate from the same
    old rating; and reads the leaderboard once the games that ended before are rated."""

    def __init__(self, journal: Journal | None, shared_addresses: Iterable[str] = ()) -> None:
        self.journal = journal
        self.fair = FairRatings(shared_addresses)
        """Where each seat was played from; which games are rated (server/players/fairness.py)."""
        self._names = RatingNames()
        self._one = asyncio.Lock()  # one game rated at a time
        self._rating: set[asyncio.Task[None]] = set()  # games being rated (a leaderboard waits for them)
        self.unrated: dict[str, Counter[UnratedReason]] = {}
        """Per preset, the games finished since this server started that were not rated, by why."""

    def finish(self, table: Table, end: FinishTable) -> Awaitable[None]:
        """Journal a table's end; ``end`` names who played (its ``players``) when the game
        may be rated, and then carries the new ratings too, in one command: done once
        stored (or refused)."""
        assert table.journal.storage is not None
        if self.journal is None or not end.players:
            self.fair.forget(table.id)
            return metrics.count_record(table.journal.storage.write(end), _new_ratings(end))
        outcome = self.fair.outcome(table, end.players)
        if outcome is None:
            why = self.fair.unrated_because(table, end.players) or UnratedReason.NOT_BY_THE_RULES
            log.info("table %s: not rated (%s)", table.id, UNRATED_TEXT[why])
            self.unrated.setdefault(preset_key(table.rules), Counter())[why] += 1
        self.fair.forget(table.id)
        rating = asyncio.create_task(self._finish_rated(table, end, outcome))
        self._rating.add(rating)
        rating.add_done_callback(self._rating.discard)
        return rating

    async def _finish_rated(self, table: Table, end: FinishTable, outcome: Outcome | None) -> None:
        assert table.journal.storage is not None
        async with self._one:
            try:
                update = await self.update(table, outcome) if outcome is not None else None
            except Exception:  # noqa: BLE001 - the game is over either way
                log.exception("table %s: could not rate the game", table.id)
                update = None
            try:
                rated = replace(end, rating=update)
                await metrics.count_record(table.journal.storage.write(rated), _new_ratings(rated))
            except Exception:  # noqa: BLE001 - logged by the journal; the game is over either way
                pass

    async def update(self, table: Table, outcome: Outcome) -> RatingUpdate:
        """The new ratings a rated game gives, under the names they are stored as."""
        assert self.journal is not None
        preset = preset_key(table.rules)
        stored = iter(await self._names.stored(self.journal, preset, [n for side in outcome.sides for n in side]))
        sides = [[next(stored) for _ in side] for side in outcome.sides]
        known = await self.journal.ratings(preset, [n for side in sides for n in side])
        return RatingUpdate(preset, tuple(rate_ranked(sides, outcome.ranks, known)))

    async def leaderboard(self, preset: str, limit: int) -> list[Rating]:
        """The best ``limit`` names of ``preset``, one row each, counting every game that
        ended before this was asked."""
        assert self.journal is not None
        await self.settled()
        return one_row_per_name(await self.journal.leaderboard(preset, 2 * limit), limit)

    async def settled(self) -> None:
        """Wait until every game that has finished is rated (and its end journaled)."""
        await asyncio.gather(*self._rating, return_exceptions=True)

    async def close(self) -> None:
        await self.settled()  # finished games are rated before the end


def _new_ratings(end: FinishTable) -> int:
    """How many new ratings a table's end carries."""
    return len(end.rating.ratings) if end.rating is not None else 0
