"""Round scoring with a full breakdown per side: R21, R23 and the variant extras.

Each category is worth points to one side; a tie gives the point to nobody (R21).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple, Sequence

from .cards import (
    CARDS,
    DENARI_MASK,
    NUM_CARDS,
    PRIMIERA,
    RE_BELLO,
    SETTEBELLO,
    VALUE_MASK,
    Card,
    Suit,
)
from .rules import RuleSet


class Category(StrEnum):
    """Where a round point came from (the names shown in a round breakdown)."""

    CARTE = "carte"
    DENARI = "denari"
    SETTEBELLO = "settebello"
    PRIMIERA = "primiera"
    SCOPE = "scope"
    PONINO = "ponino"  # V2: the extra scope from doubling
    NAPOLA = "napola"  # V3
    SEVENS = "sevens"  # V7: most sevens
    ALL_SEVENS = "all_sevens"  # V7: all four sevens
    TRENTINO = "trentino"  # V8: A/2/3 of Denari worth 1/2/3
    RE_BELLO = "re_bello"  # V11
    HONOURS = "honours"  # V12 frac: aces and court cards, 1 each
    PICCOLA = "piccola"  # V13
    GRANDE = "grande"  # V13
    DECLARATIONS = "declarations"  # V13 hand bonuses


class RoundScore(NamedTuple):
    """A round's points: ``breakdown[side][category]`` and the totals per side.

    (A named tuple rather than a dataclass: one is made every round of every search.)"""

    breakdown: tuple[dict[Category, int], ...]
    cards: tuple[int, ...]  # cards captured per side, for display
    primiera: tuple[int, ...]  # primiera sum per side (0 = a suit missing)

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(sum(b.values()) for b in self.breakdown)


# A suit's cards, shifted down to bits 0, 4, 8 ... 36 (one bit per value): the best
# primiera value (R3) among them, for each of the 1024 possible sets.
_SUIT_BITS = sum(1 << (4 * k) for k in range(10))


def _best_primiera(pattern: int) -> int:
    return max((PRIMIERA[k + 1] for k in range(10) if pattern >> (4 * k) & 1), default=0)


_BEST_PRIMIERA: dict[int, int] = {
    p: _best_primiera(p)
    for p in (sum(1 << (4 * k) for k in range(10) if subset >> k & 1) for subset in range(1024))
}


def primiera_sum(pile: int) -> int:
    """R3/R21: best primiera value in each suit, summed; 0 if a suit is missing."""
    best = _BEST_PRIMIERA
    d = best[pile & _SUIT_BITS]
    c = best[pile >> 1 & _SUIT_BITS]
    s = best[pile >> 2 & _SUIT_BITS]
    b = best[pile >> 3 & _SUIT_BITS]
    return d + c + s + b if d and c and s and b else 0


def primiera_cards(pile: int) -> list[Card]:
    """R3/R21: the best card of each suit ``pile`` holds (the highest primiera value; the
    lowest card of equals), in suit order; a suit it lacks has none."""
    best: list[Card] = []
    for suit in Suit:
        held = [CARDS[i] for i in range(suit, NUM_CARDS, 4) if pile >> i & 1]
        if held:
            best.append(max(held, key=lambda c: (c.primiera, -int(c))))
    return best


def _award(breakdown: list[dict[Category, int]], cat: Category, counts: list[int]) -> None:
    """Give one point of ``cat`` to the single side with the highest count (R21 ties: nobody)."""
    best = max(counts)
    if best > 0 and counts.count(best) == 1:
        side = breakdown[counts.index(best)]
        side[cat] = side.get(cat, 0) + 1


def denari_run(pile: int, start_needed: int = 3, top: int = 10) -> int:
    """Length of the unbroken Denari run from the ace, if it reaches ``start_needed``."""
    run = 0
    for v in range(1, top + 1):
        if pile & (1 << ((v - 1) * 4 + Suit.DENARI)):
            run = v
        else:
            break
    return run if run >= start_needed else 0


_ACE23_DENARI = tuple(Card.from_parts(v, Suit.DENARI) for v in (1, 2, 3))
_GRANDE = tuple(Card.from_parts(v, Suit.DENARI) for v in (8, 9, 10))
_HONOURS_MASK = VALUE_MASK[1] | VALUE_MASK[8] | VALUE_MASK[9] | VALUE_MASK[10]
_SEVENS_MASK = VALUE_MASK[7]
_CAVALLI_MASK = VALUE_MASK[9]


def score_round(
    rules: RuleSet,
    piles: Sequence[int],
    scope: Sequence[int],
    declarations: Sequence[int] | None = None,
) -> RoundScore:
    """Score one round from each side's captured pile, scope count and declarations."""
    sides = len(piles)
    bd: list[dict[Category, int]] = [{} for _ in range(sides)]
    counts = [p.bit_count() for p in piles]
    prim = [primiera_sum(p) for p in piles]
    if rules.frac:
        # V12: the sixteen honour cards are the only points.
        for i, p in enumerate(piles):
            n = (p & _HONOURS_MASK).bit_count()
            if n:
                bd[i][Category.HONOURS] = n
        return RoundScore(tuple(bd), tuple(counts), tuple(prim))
    _award(bd, _CARTE, counts)
    _award(bd, _DENARI, [(p & DENARI_MASK).bit_count() for p in piles])
    extras = rules.ponino or rules.re_bello or rules.napola or rules.trentino or rules.escoba or rules.cirulla
    for i, p in enumerate(piles):
        side = bd[i]
        if p >> SETTEBELLO & 1:
            side[_SETTEBELLO] = 1
        if scope[i]:
            side[_SCOPE] = scope[i]
        if extras:
            _extras(rules, side, p, scope[i])
        if declarations and declarations[i]:
            side[Category.DECLARATIONS] = declarations[i]
    _award(bd, _PRIMIERA, prim)  # a side missing a suit has 0 and cannot win (R21)
    if rules.escoba:
        _award(bd, Category.SEVENS, [(p & _SEVENS_MASK).bit_count() for p in piles])
    return RoundScore(tuple(bd), tuple(counts), tuple(prim))


_CARTE, _DENARI, _SETTEBELLO, _PRIMIERA, _SCOPE = (
    Category.CARTE, Category.DENARI, Category.SETTEBELLO, Category.PRIMIERA, Category.SCOPE
)


def _extras(rules: RuleSet, side: dict[Category, int], pile: int, scope: int) -> None:
    """The variants' extra points of one side (V2, V3, V7, V8, V11, V13)."""
    if rules.ponino and scope and pile & _CAVALLI_MASK == _CAVALLI_MASK:
        side[Category.PONINO] = scope
    if rules.re_bello and pile >> RE_BELLO & 1:
        side[Category.RE_BELLO] = 1
    if rules.napola:
        run = denari_run(pile)
        if run:
            side[Category.NAPOLA] = run
    if rules.trentino:
        pts = sum(v for v, c in zip((1, 2, 3), _ACE23_DENARI) if pile >> c & 1)
        if pts:
            side[Category.TRENTINO] = pts
    if rules.escoba and pile & _SEVENS_MASK == _SEVENS_MASK:
        side[Category.ALL_SEVENS] = 1
    if rules.cirulla:
        run = denari_run(pile, top=6)
        if run:
            side[Category.PICCOLA] = run
        if all(pile >> c & 1 for c in _GRANDE):
            side[Category.GRANDE] = 5


def winning_side(rules: RuleSet, totals: Sequence[int]) -> int | None:
    """R22: the side whose total ends the game as a round is scored, or None while the game
    goes on (nobody at the target yet, or the highest totals level: another round)."""
    if not totals:
        return None
    best = max(totals)
    return totals.index(best) if best >= rules.target and list(totals).count(best) == 1 else None
