"""Rating a finished game with OpenSkill (the ``openskill`` package, Plackett-Luce model).

The winning side ranks first and the other sides follow by their totals (equal totals
share a rank); a team game rates each teammate.  Which seats count is the caller's
business (abandoned games and seats a bot took over are left out before this).
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
    if len(sides) < 2 or any(not side for side in sides):
        raise ValueError("a rated game needs at least two sides with a rated seat each")
    before = [[known.get(name) or fresh(name) for name in side] for side in sides]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma, name=r.name) for r in side] for side in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in side_ranks(winner, totals)])
    out = []
    for side_no, (old_side, new_side) in enumerate(zip(before, after)):
        for old, new in zip(old_side, new_side):
            out.append(Rating(old.name, float(new.mu), float(new.sigma), old.games + 1,
                              old.wins + (1 if side_no == winner else 0)))
    return out
