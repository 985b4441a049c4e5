"""Which table cards a played card may capture: R13-R16, V1, V6, V9/V10, V13.

This is the one home of the capture rules, and the engine's hot path: every function
works on bitmasks and the subset search is memoised per (table, sum, size limit).
"""

from __future__ import annotations

from .cards import BIT, VALUE, VALUE_MASK
from .rules import AssoPigliaTutto, CaptureMode, RuleSet

_SUBSET_CACHE: dict[tuple[int, int, int], tuple[int, ...]] = {}
_CACHE_LIMIT = 1 << 18
_ACE_MASK = VALUE_MASK[1]


def subsets_summing(table: int, total: int, max_cards: int = 40) -> tuple[int, ...]:
    """Every set of table cards (as masks) whose values add up to ``total``."""
    key = (table, total, max_cards)
    hit = _SUBSET_CACHE.get(key)
    if hit is not None:
        return hit
    cards: list[int] = []
    m = table
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if VALUE[c] > total:
            break  # ids are value-major: every later card is bigger too
        cards.append(c)
        m ^= low
    found: list[int] = []
    n = len(cards)
    # depth-first over cards in ascending value order: (next index, remaining sum, mask, size)
    stack = [(0, total, 0, 0)]
    while stack:
        i, rest, mask, size = stack.pop()
        if size >= max_cards:
            continue
        for j in range(i, n):
            v = VALUE[cards[j]]
            if v > rest:
                break
            nm = mask | BIT[cards[j]]
            if v == rest:
                found.append(nm)
            else:
                stack.append((j + 1, rest - v, nm, size + 1))
    result = tuple(found)
    if len(_SUBSET_CACHE) >= _CACHE_LIMIT:
        _SUBSET_CACHE.clear()
    _SUBSET_CACHE[key] = result
    return result


class CaptureRules:
    """A RuleSet's capture options, flattened into plain attributes for speed."""

    __slots__ = ("mode", "max_cards", "quindici", "apt", "cirulla")

    def __init__(self, rules: RuleSet) -> None:
        self.mode = rules.capture_mode
        self.max_cards = 2 if rules.max_two else 40
        self.quindici = rules.quindici
        self.apt = rules.asso_piglia_tutto
        self.cirulla = rules.cirulla

    def options(self, table: int, value: int, first_play: bool) -> list[int]:
        """Capture masks allowed for a card of ``value``; empty means it is laid down (R17).

        Capture is compulsory (R16), so a non-empty result never includes "lay it down".
        """
        if not table:
            return []
        if self.cirulla:
            return self._cirulla(table, value)
        if value == 1 and self.apt is not AssoPigliaTutto.OFF:
            # V9: an ace sweeps the table.  V10: not when an ace lies on the table or the
            # ace is the round's first card; then R13 applies (an ace takes an ace).
            if self.apt is AssoPigliaTutto.SIMPLE or not (table & _ACE_MASK or first_play):
                return [table]
        if self.quindici:
            # V6/V7: played card + captured cards total 15; R13/R14 do not apply, so
            # 'traditional' leaves the choice free and 'fewest' keeps the smallest sets.
            sets = list(subsets_summing(table, 15 - value, self.max_cards)) if value < 15 else []
            if self.mode is CaptureMode.FEWEST and sets:
                least = min(s.bit_count() for s in sets)
                sets = [s for s in sets if s.bit_count() == least]
            return sets
        equal = table & VALUE_MASK[value]
        singles = []
        while equal:
            low = equal & -equal
            singles.append(low)
            equal ^= low
        mode = self.mode
        if singles and mode is not CaptureMode.FREE:
            return singles  # R13: an equal card binds (traditional and fewest)
        sums = [s for s in subsets_summing(table, value, self.max_cards) if s & (s - 1)]
        if mode is CaptureMode.FEWEST and sums:
            least = min(s.bit_count() for s in sums)
            sums = [s for s in sums if s.bit_count() == least]
        return singles + sums if singles else sums

    def _cirulla(self, table: int, value: int) -> list[int]:
        # V13: an ace takes the whole table unless an ace is on it; otherwise any capture
        # by equal value / sum, or by fifteen, at the player's free choice.
        if value == 1 and not table & _ACE_MASK:
            return [table]
        sets = list(subsets_summing(table, value, self.max_cards))
        for s in subsets_summing(table, 15 - value, self.max_cards):
            if s not in sets:
                sets.append(s)
        return sets
