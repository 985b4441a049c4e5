"""Knockout: a seeded bracket with byes.

The bracket has the next power of two of places; seed 1 meets the last place, seed 2
the one before, and so on, placed so the two best seeds can only meet in the final.
Places past the entrants are empty: the seed drawn against one goes through (a bye),
so byes go to the best seeds.  A round is a list of slots (a name, or None for an empty
place); the slots two by two are its games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .values import GameResult

Slots = tuple[str | None, ...]


def bracket_order(places: int) -> tuple[int, ...]:
    """The seeds (1-based) in bracket order: 8 places give 1, 8, 4, 5, 2, 7, 3, 6."""
    order = [1]
    while len(order) < places:
        size = 2 * len(order)
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return tuple(order)


def first_slots(seeds: Sequence[str]) -> Slots:
    """The first round's slots for these entrants in seed order."""
    places = 1
    while places < len(seeds):
        places *= 2
    return tuple(seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(places))


@dataclass(frozen=True)
class KnockoutRound:
    pairs: tuple[tuple[str, str], ...]  # the games, in bracket order
    byes: tuple[str, ...]  # who goes through without playing

    @property
    def empty(self) -> bool:
        return not self.pairs


def knockout_round(slots: Slots) -> KnockoutRound:
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    for a, b in zip(slots[::2], slots[1::2]):
        if a is not None and b is not None:
            pairs.append((a, b))
        elif a is not None or b is not None:
            byes.append(a if a is not None else b)  # type: ignore[arg-type]
    return KnockoutRound(tuple(pairs), tuple(byes))


def next_slots(slots: Slots, winners: Sequence[str]) -> Slots:
    """The next round's slots: each game's place taken by its winner (``winners``: one
    per game, in bracket order), each bye's by the entrant who had it."""
    out: list[str | None] = []
    won = iter(winners)
    for a, b in zip(slots[::2], slots[1::2]):
        if a is not None and b is not None:
            out.append(next(won))
        else:
            out.append(a if a is not None else b)
    return tuple(out)


def goes_through(result: GameResult, seeds: Sequence[str]) -> str:
    """Who goes through after a decisive game: its winner, or when neither side came,
    the better seed."""
    return result.winner or min(result.first, result.second, key=list(seeds).index)
