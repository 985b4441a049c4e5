"""The standings: one home for how a tournament ranks its entrants.

Match points: a win 1, a draw ½, a loss 0, a bye 1 (a game won without playing); a
forfeit is a loss for the side that did not come and a win for the other.  Buchholz:
the sum of the match points of every opponent met (a bye meets nobody and adds 0).
Game points: the sum of one's own points over every game played (a forfeit's are 0).
Order: match points, then Buchholz, then game points (all highest first), then the
seed (the better seed first), so no two rows ever tie.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .values import GameResult, StandingRow

WIN, DRAW, LOSS = 2, 1, 0
"""Match points counted in halves, so the sums stay exact integers."""


@dataclass
class _Tally:
    halves: int = 0
    game_points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)


def _tallies(seeds: Sequence[str], results: Iterable[GameResult], byes: Iterable[str]) -> dict[str, _Tally]:
    tally = {name: _Tally() for name in seeds}
    for result in results:
        winner = result.winner
        for side, own, other in ((result.first, 0, result.second), (result.second, 1, result.first)):
            t = tally[side]
            t.opponents.append(other)
            t.game_points += result.points[own]
            if winner is None and not result.forfeited:
                t.halves += DRAW
                t.draws += 1
            elif winner == side:
                t.halves += WIN
                t.wins += 1
            else:
                t.losses += 1
    for name in byes:
        tally[name].halves += WIN
        tally[name].byes += 1
    return tally


def standings(seeds: Sequence[str], results: Iterable[GameResult], byes: Iterable[str] = ()) -> tuple[StandingRow, ...]:
    """The ranked rows for these entrants (``seeds``: the seed order, the last tie-break)
    after these finished games and these byes (a name once per bye)."""
    tally = _tallies(seeds, results, byes)
    buchholz = {name: sum(tally[o].halves for o in t.opponents) for name, t in tally.items()}
    order = sorted(
        range(len(seeds)),
        key=lambda i: (-tally[seeds[i]].halves, -buchholz[seeds[i]], -tally[seeds[i]].game_points, i),
    )
    rows = []
    for rank, i in enumerate(order, start=1):
        name = seeds[i]
        t = tally[name]
        rows.append(StandingRow(
            rank=rank, entrant=name, match_points=t.halves / 2, buchholz=buchholz[name] / 2,
            game_points=t.game_points, played=len(t.opponents), wins=t.wins, draws=t.draws,
            losses=t.losses, byes=t.byes,
        ))  # fmt: skip
    return tuple(rows)


def match_halves(seeds: Sequence[str], results: Iterable[GameResult], byes: Iterable[str] = ()) -> dict[str, int]:
    """Each entrant's match points in halves (2 a win): what Swiss pairing groups by."""
    return {name: t.halves for name, t in _tallies(seeds, results, byes).items()}
