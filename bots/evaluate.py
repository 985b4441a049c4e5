"""How good a position is for one side, in round points (this side minus the others).

At the end of a round the value is exact (R21 with every variant's extras, from the
engine's own scoring).  Before that, points already certain count in full and the
contested categories (carte, denari, primiera, the escoba sevens) are scored by how
likely the side is to win them given its lead and what is still out.
"""

from __future__ import annotations

from math import erf, sqrt

from scopa.engine import Category, EndReason, GameState, Phase, RuleSet
from scopa.engine.cards import DENARI_MASK, SETTEBELLO, VALUE_MASK
from scopa.engine.scoring import _BEST_PRIMIERA, _SUIT_BITS, score_round

# Value of an instant win (V8 trentino, V13 all Denari): the game, worth more than any round.
INSTANT_WIN = 30.0

_INSTANT = (EndReason.TRENTINO, EndReason.ALL_DENARI)
_CONTESTED = (Category.CARTE, Category.DENARI, Category.PRIMIERA, Category.SEVENS)
_SEVENS = VALUE_MASK[7]
_PRIMIERA_CARDS = VALUE_MASK[7] | VALUE_MASK[6] | VALUE_MASK[1] | VALUE_MASK[5]
_ALL = (1 << 40) - 1
_SQRT2 = sqrt(2.0)


def margin(points: tuple[int, ...] | list[float], side: int) -> float:
    """``side``'s points minus the mean of the other sides' points."""
    n = len(points)
    if n == 2:
        return points[side] - points[1 - side]
    return points[side] - (sum(points) - points[side]) / (n - 1)


def terminal_value(state: GameState, side: int) -> float:
    """Exact value once the round (or, by an instant win, the game) is over."""
    if state.phase is Phase.OVER and state.end_reason in _INSTANT:
        return INSTANT_WIN if state.winner == side else -INSTANT_WIN
    return margin(state.history[-1].points, side)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + erf(x / _SQRT2))


def contest(lead: float, spread: float) -> float:
    """Expected share of one point (+1 won, -1 lost) for a lead with this much still open."""
    if spread <= 0.0:
        return 1.0 if lead > 0 else -1.0 if lead < 0 else 0.0
    return _phi((lead - 0.5) / spread) - _phi((-lead - 0.5) / spread)


def estimate(state: GameState, side: int) -> float:
    """Heuristic value of an unfinished round for ``side``."""
    rules = state.rules
    piles = state.piles
    if len(piles) == 2 and not (rules.frac or _has_extras(rules)):
        return _estimate_plain(piles, state.scope, side)
    return estimate_general(state, side)


def estimate_general(state: GameState, side: int) -> float:
    """:func:`estimate` for any rules and number of sides (from the engine's scoring)."""
    rules = state.rules
    piles = state.piles
    now = score_round(rules, piles, state.scope, state.declared)
    if rules.frac:  # V12: every point is a card already counted
        return margin(now.points, side)
    points = [
        sum(v for k, v in b.items() if k not in _CONTESTED) for b in now.breakdown
    ]
    out = 0
    for p in piles:
        out |= p
    rest = _ALL & ~out
    k = len(piles)
    soft = [0.0] * k
    counts = now.cards
    denari = [(p & DENARI_MASK).bit_count() for p in piles]
    prim = [_primiera_estimate(p) for p in piles]
    left_cards = rest.bit_count()
    left_denari = (rest & DENARI_MASK).bit_count()
    left_prim = (rest & _PRIMIERA_CARDS).bit_count()
    for i in range(k):
        others = [j for j in range(k) if j != i]
        best = max(counts[j] for j in others)
        soft[i] += contest(counts[i] - best, sqrt(left_cards))
        best = max(denari[j] for j in others)
        soft[i] += contest(denari[i] - best, sqrt(left_denari))
        best_prim = max(prim[j] for j in others)
        soft[i] += contest(prim[i] - best_prim, 3.0 * sqrt(left_prim) + 0.01 * left_cards)
        if rules.escoba:
            sevens = [(p & _SEVENS).bit_count() for p in piles]
            best = max(sevens[j] for j in others)
            soft[i] += contest(sevens[i] - best, sqrt((rest & _SEVENS).bit_count()))
    if k == 2:  # the soft points are shared: one side's gain is the other's loss
        return points[side] - points[1 - side] + soft[side]
    total = [points[i] + max(soft[i], 0.0) for i in range(k)]
    return margin(total, side)


def _has_extras(rules: RuleSet) -> bool:
    return bool(rules.ponino or rules.re_bello or rules.napola or rules.trentino or rules.escoba or rules.cirulla)


_SQRT = [sqrt(i) for i in range(41)]


def _estimate_plain(piles: list[int], scope: list[int], side: int) -> float:
    """:func:`estimate` for two sides and R21's plain scoring, without building a score."""
    mine, theirs = piles[side], piles[1 - side]
    value = float(scope[side] - scope[1 - side])
    if mine >> SETTEBELLO & 1:
        value += 1.0
    elif theirs >> SETTEBELLO & 1:
        value -= 1.0
    rest = _ALL & ~(mine | theirs)
    value += contest(mine.bit_count() - theirs.bit_count(), _SQRT[rest.bit_count()])
    value += contest(
        (mine & DENARI_MASK).bit_count() - (theirs & DENARI_MASK).bit_count(),
        _SQRT[(rest & DENARI_MASK).bit_count()],
    )
    left_prim = (rest & _PRIMIERA_CARDS).bit_count()
    value += contest(
        _primiera_estimate(mine) - _primiera_estimate(theirs),
        3.0 * _SQRT[left_prim] + 0.01 * rest.bit_count(),
    )
    return value


def _primiera_estimate(pile: int) -> float:
    """R21's sum, where a missing suit counts as a card weaker than any (8)."""
    best = _BEST_PRIMIERA
    total = 0
    for shift in range(4):
        b = best[pile >> shift & _SUIT_BITS]
        total += b if b else 8
    return float(total)
