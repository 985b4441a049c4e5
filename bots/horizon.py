"""The value of a position where a search stops: a learnt linear evaluation.

For the plain games of two sides (scopa, scopone and their capture modes) the value is a
weighted sum of what a position shows: the contested categories scored as in
:func:`~scopa.bots.evaluate.estimate`, raw leads in cards, Denari, sevens, sixes and
aces, the settebello wherever it lies, who moves next and whether they can sweep, who
takes the leftovers.  The weights, one set per stage of the round and per number of
players, are fitted by least squares to the round's final margin over self-play games
(``benchmarks/train_horizon.py``, reproducible from its seed) and ship with the package
as ``horizon_weights.json``.  Every other rule set keeps the hand-written estimate.

Every feature changes sign with the side it is computed for, and there is no constant,
so the value for one side is exactly minus the value for the other.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from math import sqrt
from typing import Callable

from scopa.engine import AssoPigliaTutto, GameState, RuleSet
from scopa.engine.cards import DENARI_MASK, SETTEBELLO, VALUE, VALUE_MASK

from .evaluate import _primiera_estimate, contest, estimate

Evaluator = Callable[[GameState, int], float]
"""A position's value for a side, in round points (that side minus the other)."""

WEIGHTS_FILE = "horizon_weights.json"

FEATURES = (
    "scope", "settebello", "carte", "denari", "primiera",
    "cards", "denari_raw", "sevens", "sixes", "aces", "primiera_raw",
    "to_move", "sweep", "settebello_table", "leftovers",
    "settebello_hand", "sevens_hand", "denari_hand", "dealer",
)  # fmt: skip

STAGES = 3
"""Weight sets by how many cards are still out of the piles: over 26, over 13, the rest."""

_ALL = (1 << 40) - 1
_SQRT = [sqrt(i) for i in range(41)]
_SEVENS = VALUE_MASK[7]
_SIXES = VALUE_MASK[6]
_ACES = VALUE_MASK[1]
_PRIMIERA_CARDS = VALUE_MASK[7] | VALUE_MASK[6] | VALUE_MASK[1] | VALUE_MASK[5]


def stage(state: GameState) -> int:
    """0, 1 or 2: which weight set applies (by the cards not yet in a pile)."""
    out = 40 - (state.piles[0] | state.piles[1]).bit_count()
    return 0 if out > 26 else 1 if out > 13 else 2


def learnable(rules: RuleSet) -> bool:
    """Rules whose scoring and sweeps the features describe: two sides, R21's plain
    scoring, captures by value and by sum of at most ten."""
    return (
        rules.num_sides == 2
        and not (rules.frac or rules.ponino or rules.re_bello or rules.napola or rules.trentino)
        and not (rules.escoba or rules.cirulla or rules.quindici)
        and rules.asso_piglia_tutto is AssoPigliaTutto.OFF
    )


def can_sweep(state: GameState) -> bool:
    """Whether the player to move holds a card that takes the whole table (R17, R18)."""
    table = state.table
    if not table:
        return False
    if state.rules.max_two and table.bit_count() > 2:
        return False
    total = 0
    rest = table
    while rest:
        low = rest & -rest
        total += VALUE[low.bit_length() - 1]
        rest ^= low
    return total <= 10 and bool(state.hands[state.to_move] & VALUE_MASK[total])


def hands_by_side(state: GameState, side: int) -> tuple[int, int]:
    """The cards in the hands of ``side``'s seats and of the other side's, as two masks."""
    mine = theirs = 0
    sides = state.side
    for seat, h in enumerate(state.hands):
        if sides[seat] == side:
            mine |= h
        else:
            theirs |= h
    return mine, theirs


def features(state: GameState, side: int) -> list[float]:
    """The position as the model sees it, for ``side`` (see :data:`FEATURES`)."""
    mine, theirs = state.piles[side], state.piles[1 - side]
    rest = _ALL & ~(mine | theirs)
    left = rest.bit_count()
    sette = 1.0 if mine >> SETTEBELLO & 1 else -1.0 if theirs >> SETTEBELLO & 1 else 0.0
    cards = mine.bit_count() - theirs.bit_count()
    denari = (mine & DENARI_MASK).bit_count() - (theirs & DENARI_MASK).bit_count()
    prim = _primiera_estimate(mine) - _primiera_estimate(theirs)
    sides = state.side
    mover = 1.0 if sides[state.to_move] == side else -1.0
    table = state.table
    lc = state.last_capturer
    my_hands, their_hands = hands_by_side(state, side)
    return [
        float(state.scope[side] - state.scope[1 - side]),
        sette,
        contest(cards, _SQRT[left]),
        contest(denari, _SQRT[(rest & DENARI_MASK).bit_count()]),
        contest(prim, 3.0 * _SQRT[(rest & _PRIMIERA_CARDS).bit_count()] + 0.01 * left),
        cards / 10.0,
        denari / 5.0,
        float((mine & _SEVENS).bit_count() - (theirs & _SEVENS).bit_count()),
        float((mine & _SIXES).bit_count() - (theirs & _SIXES).bit_count()),
        float((mine & _ACES).bit_count() - (theirs & _ACES).bit_count()),
        prim / 10.0,
        mover,
        mover if can_sweep(state) else 0.0,
        mover if table >> SETTEBELLO & 1 else 0.0,
        0.0 if lc < 0 else (1.0 if lc == side else -1.0) * table.bit_count() * (1.0 - left / 40.0),
        1.0 if my_hands >> SETTEBELLO & 1 else -1.0 if their_hands >> SETTEBELLO & 1 else 0.0,
        float((my_hands & _SEVENS).bit_count() - (their_hands & _SEVENS).bit_count()),
        float((my_hands & DENARI_MASK).bit_count() - (their_hands & DENARI_MASK).bit_count()),
        1.0 if sides[state.dealer] == side else -1.0,
    ]


@lru_cache(maxsize=1)
def shipped_weights() -> dict[str, list[list[float]]]:
    """The package's weights: players ("2", "4") → one list of weights per stage."""
    text = resources.files("scopa.bots").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("features") != list(FEATURES):
        raise ValueError(f"{WEIGHTS_FILE} was fitted to other features than these")
    weights: dict[str, list[list[float]]] = data["weights"]
    for sets in weights.values():
        if len(sets) != STAGES or any(len(w) != len(FEATURES) for w in sets):
            raise ValueError(f"{WEIGHTS_FILE}: each player count needs {STAGES} sets of {len(FEATURES)} weights")
    return weights


def linear(weights: list[list[float]]) -> Evaluator:
    """An evaluator from one weight set per stage: the sum of weight times feature, in
    :data:`FEATURES`' order (the same value as from :func:`features`, computed inline
    with the contested categories' shares memoized, as the search calls it most)."""
    sets = [tuple(w) for w in weights]
    shares: dict[tuple[float, int, int], float] = {}

    def share(lead: float, open_: int, left: int, spread: float) -> float:
        key = (lead, open_, left)
        v = shares.get(key)
        if v is None:
            if len(shares) > 200_000:
                shares.clear()
            v = shares[key] = contest(lead, spread)
        return v

    def value(state: GameState, side: int) -> float:
        piles = state.piles
        mine, theirs = piles[side], piles[1 - side]
        rest = _ALL & ~(mine | theirs)
        left = rest.bit_count()
        w = sets[0 if left > 26 else 1 if left > 13 else 2]
        total = w[0] * (state.scope[side] - state.scope[1 - side])
        if mine >> SETTEBELLO & 1:
            total += w[1]
        elif theirs >> SETTEBELLO & 1:
            total -= w[1]
        cards = mine.bit_count() - theirs.bit_count()
        denari = (mine & DENARI_MASK).bit_count() - (theirs & DENARI_MASK).bit_count()
        prim = _primiera(mine) - _primiera(theirs)
        total += w[2] * share(cards, 0, left, _SQRT[left])
        open_denari = (rest & DENARI_MASK).bit_count()
        total += w[3] * share(denari, 1, open_denari, _SQRT[open_denari])
        open_prim = (rest & _PRIMIERA_CARDS).bit_count()
        total += w[4] * share(prim, 2 + open_prim, left, 3.0 * _SQRT[open_prim] + 0.01 * left)
        total += w[5] * (cards / 10.0)
        total += w[6] * (denari / 5.0)
        total += w[7] * ((mine & _SEVENS).bit_count() - (theirs & _SEVENS).bit_count())
        total += w[8] * ((mine & _SIXES).bit_count() - (theirs & _SIXES).bit_count())
        total += w[9] * ((mine & _ACES).bit_count() - (theirs & _ACES).bit_count())
        total += w[10] * (prim / 10.0)
        sides = state.side
        mover = 1.0 if sides[state.to_move] == side else -1.0
        total += w[11] * mover
        if can_sweep(state):
            total += w[12] * mover
        table = state.table
        if table >> SETTEBELLO & 1:
            total += w[13] * mover
        lc = state.last_capturer
        if lc >= 0:
            total += w[14] * ((1.0 if lc == side else -1.0) * table.bit_count() * (1.0 - left / 40.0))
        my_hands, their_hands = hands_by_side(state, side)
        if my_hands >> SETTEBELLO & 1:
            total += w[15]
        elif their_hands >> SETTEBELLO & 1:
            total -= w[15]
        total += w[16] * ((my_hands & _SEVENS).bit_count() - (their_hands & _SEVENS).bit_count())
        total += w[17] * ((my_hands & DENARI_MASK).bit_count() - (their_hands & DENARI_MASK).bit_count())
        total += w[18] * (1.0 if sides[state.dealer] == side else -1.0)
        return total

    return value


_PRIMIERA_MEMO: dict[int, float] = {}


def _primiera(pile: int) -> float:
    """:func:`~scopa.bots.evaluate._primiera_estimate`, memoized."""
    v = _PRIMIERA_MEMO.get(pile)
    if v is None:
        if len(_PRIMIERA_MEMO) > 200_000:
            _PRIMIERA_MEMO.clear()
        v = _PRIMIERA_MEMO[pile] = _primiera_estimate(pile)
    return v


def has_weights(rules: RuleSet) -> bool:
    """Whether the learnt evaluation covers these rules."""
    return learnable(rules) and str(rules.players) in shipped_weights()


def evaluator_for(rules: RuleSet, learnt: bool = True) -> Evaluator:
    """The learnt evaluation where it applies, else the hand-written estimate."""
    if learnt and has_weights(rules):
        return linear(shipped_weights()[str(rules.players)])
    return estimate
