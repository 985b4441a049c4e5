"""Rating a finished game with OpenSkill (the ``openskill`` package, Plackett-Luce model).

The winning side ranks first and the other sides follow by their totals (equal totals
share a rank); a team game rates each teammate.  Which games count, and the result of
one that a player left, is :mod:`.rated`'s business.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from openskill.models import PlackettLuce

from .archive import Rating

MODEL = PlackettLuce()


def fresh(name: str) -> Rating:
    """A name never rated before: the model's starting mu and sigma."""
    return Rating(name, MODEL.mu, MODEL.sigma)


def side_ranks(winner: int, totals: Sequence[int]) -> list[int]:
    """OpenSkill ranks (lower is better): the winner 1st, the others by their totals."""
    ranks = []
    for side, total in enumerate(totals):
        if side == winner:
            ranks.append(0)
        else:
            ranks.append(1 + sum(1 for other, t in enumerate(totals) if other not in (side, winner) and t > total))
    return ranks


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
