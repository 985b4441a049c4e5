"""The standings: one home for how a tournament ranks its entrants.

Match points: a win 1, a draw ½, a loss 0, a bye 1 (a game won without playing); a
forfeit is a loss for the side that did not come and a win for the other.  Buchholz:
the sum of the match points of every opponent met (a bye meets nobody and adds 0).
Game points: the sum of one's own points over every game played (a forfeit's are 0).
Order (:func:`ranked_by`): Swiss and round-robin rank by match points, then Buchholz,
then game points (all highest first), then the seed (the better seed first), so no two
rows ever tie.  A knockout ranks by the round reached first (its winner, then its
finalist, then the losers of the semi-finals...), then match points (draws played again
there add match points that must not lift a loser above a winner), game points and the
seed: who one met there is the bracket's doing, so Buchholz has no part in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .knockout import goes_through
from .state import TournamentState
from .values import Format, GameResult, Phase, RankKey, StandingRow

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


_BY_POINTS = (RankKey.MATCH_POINTS, RankKey.BUCHHOLZ, RankKey.GAME_POINTS, RankKey.SEED)
_BY_ROUND = (RankKey.ROUND_REACHED, RankKey.MATCH_POINTS, RankKey.GAME_POINTS, RankKey.SEED)


def ranked_by(fmt: Format) -> tuple[RankKey, ...]:
    """What a format's standings rank by, in order (the module's text says why)."""
    return _BY_ROUND if fmt is Format.KNOCKOUT else _BY_POINTS


def standings(
    seeds: Sequence[str], results: Iterable[GameResult], byes: Iterable[str] = (), reached: Mapping[str, int] | None = None
) -> tuple[StandingRow, ...]:
    """The ranked rows for these entrants (``seeds``: the seed order, the last tie-break)
    after these finished games and these byes (a name once per bye); ``reached``: a
    knockout's stage of each entrant, ranked by :func:`ranked_by` of a knockout (None:
    of a Swiss tournament)."""
    tally = _tallies(seeds, results, byes)
    buchholz = {name: sum(tally[o].halves for o in t.opponents) for name, t in tally.items()}
    stage = reached or {}
    by = ranked_by(Format.SWISS if reached is None else Format.KNOCKOUT)

    def key(i: int) -> tuple[int, ...]:
        name = seeds[i]
        t = tally[name]
        values = {RankKey.ROUND_REACHED: -stage.get(name, 0), RankKey.MATCH_POINTS: -t.halves,
                  RankKey.BUCHHOLZ: -buchholz[name], RankKey.GAME_POINTS: -t.game_points, RankKey.SEED: i}
        return tuple(values[k] for k in by)

    order = sorted(range(len(seeds)), key=key)
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


def tournament_standings(s: TournamentState) -> tuple[StandingRow, ...]:
    """A tournament's standings now (before its start: its entrants, in registration order)."""
    names = s.seeds or tuple(e.name for e in s.entrants)
    if s.settings.format is not Format.KNOCKOUT:
        return standings(names, s.results, s.byes)
    reached: dict[str, int] = {}
    for r in s.rounds:
        reached.update((name, r.number) for name in r.slots if name is not None)
    if s.phase is Phase.FINISHED and s.current is not None:
        final = [r for r in s.results if r.key.round == s.current.number and s.is_last(r.key)]
        for result in final:
            reached[goes_through(result, s.seeds)] += 1
    return standings(names, s.results, s.byes, reached)
