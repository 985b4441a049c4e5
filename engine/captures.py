"""Which table cards a played card may capture: R13-R16, V1, V6, V9/V10, V13.

This is the one home of the capture rules and the engine's hot path.  Captures depend
only on the *values* on the table, so they are worked out once per value multiset and
cached as templates: a template is a mask of whole value groups (``VALUE_MASK`` unions),
and the capture is ``table & template``.  The multiset is read from the table mask in a
few integer operations (the card count in each 4-bit value group).  Only when a capture
takes some but not all table cards of one value (say one of two sixes) is the template
split into one capture per choice of cards.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any

from .cards import VALUE_MASK
from .rules import AssoPigliaTutto, CaptureMode, RuleSet
from .selections import BySum, Template, templates_by_sum

_M5 = 0x5555555555
_M3 = 0x3333333333
_ALL = (1 << 40) - 1
_ACE_MASK = VALUE_MASK[1]
# The rules' members read for every value of a table met for the first time, as plain
# names: an enum member read from its class goes through the enum's metaclass, ten times slower.
_APT_OFF, _APT_SIMPLE = AssoPigliaTutto.OFF, AssoPigliaTutto.SIMPLE
_FREE, _FEWEST = CaptureMode.FREE, CaptureMode.FEWEST


def value_counts(table: int) -> int:
    """How many table cards of each value: value ``v``'s count sits in bits 4(v-1)..4v-1."""
    m = table - ((table >> 1) & _M5)
    return (m & _M3) + ((m >> 2) & _M3)


_MAX_SUM = 14  # the largest sum a capture needs: 15 minus an ace (V6)
_MAX_VALUE = 10  # the largest sum a capture by value needs (R14)


def expand(table: int, template: Template) -> list[int]:
    """The capture masks a template stands for on this table."""
    whole, partial = template
    base = table & whole
    if not partial:
        return [base]
    groups = []
    for v, k in partial:
        cards = [table & VALUE_MASK[v] & (1 << b) for b in range((v - 1) * 4, v * 4)]
        groups.append([sum(c) for c in combinations([c for c in cards if c], k)])
    return [base | sum(choice) for choice in product(*groups)]


_CACHE_LIMIT = 1 << 17  # table value multisets kept per rule set
_SHARED: dict[Any, Any] = {}
"""One of each template, and of each value's tuple of them, that the cached multisets hold:
the same few recur across tables (a value group taken whole, a sweep), so a cached table
costs its outer tuple, not a copy of each (a few hundred bytes instead of a kilobyte)."""
_SHARED_LIMIT = 1 << 16

_CACHES: dict[tuple[object, ...], dict[int, tuple[tuple[Template, ...], ...]]] = {}


class CaptureRules:
    """A RuleSet's capture rules with a per-rules template cache."""

    __slots__ = ("mode", "max_cards", "max_sum", "quindici", "apt", "cirulla", "cache")

    def __init__(self, rules: RuleSet) -> None:
        self.mode = rules.capture_mode
        self.max_cards = 2 if rules.max_two else 40
        self.quindici = rules.quindici
        self.apt = rules.asso_piglia_tutto
        self.cirulla = rules.cirulla
        # a fifteen (V6, V13) sums up to 14; a capture by value to a card's value at most
        self.max_sum = _MAX_SUM if self.quindici or self.cirulla else _MAX_VALUE
        # shared by every game with the same capture rules, so bots and servers warm it once
        self.cache = _CACHES.setdefault(
            (self.mode, self.max_cards, self.quindici, self.apt, self.cirulla), {}
        )

    def options(self, table: int, value: int, first_play: bool) -> list[int]:
        """Capture masks allowed for a card of ``value``; empty means it is laid down (R17).

        Capture is compulsory (R16), so a non-empty result never includes "lay it down".
        """
        if not table:
            return []
        out: list[int] = []
        for template in self.by_value(value_counts(table) << 1 | first_play)[value]:
            out.extend(expand(table, template))
        return out

    def by_value(self, key: int) -> tuple[tuple[Template, ...], ...]:
        """Templates for every played value (index 1..10) on a table whose
        ``value_counts << 1 | first_play`` is ``key``; cached."""
        t = self.cache.get(key)
        if t is None:
            counts, first = key >> 1, bool(key & 1)
            if len(_SHARED) >= _SHARED_LIMIT:
                _SHARED.clear()  # bounded too; what is cached keeps its own
            # Only the templates the rules choose are kept (and shared): most of those
            # enumerated are not, and sharing them all would keep them all.
            by_sum = templates_by_sum(counts, self.max_cards, self.max_sum, {})
            shared = _SHARED.setdefault
            values: list[tuple[Template, ...]] = [()]
            for v in range(1, 11):
                templates = tuple([shared(tp, tp) for tp in self._templates(counts, v, first, by_sum)])
                values.append(shared(templates, templates))
            t = tuple(values)
            if len(self.cache) >= _CACHE_LIMIT:
                self.cache.clear()  # bounded memory; it refills with what is in use
            self.cache[key] = t
        return t

    def _templates(self, counts: int, value: int, first_play: bool, by_sum: BySum) -> tuple[Template, ...]:
        if not counts:
            return ()
        aces_on_table = counts & 15
        sweep: Template = (_ALL, ())
        templates, sizes = by_sum
        if self.cirulla:
            # V13: any capture by equal value / sum, or by fifteen, at the player's free
            # choice; an ace may also take the whole table unless an ace is on it.
            sels = list(zip(templates[value], sizes[value]))
            sels += [s for s in zip(templates[15 - value], sizes[15 - value]) if s not in sels]
            if value == 1 and not aces_on_table:
                on_table = sum((counts >> (4 * (v - 1))) & 15 for v in range(1, 11))
                # a fifteen of every table card is the sweep itself, listed once
                return (sweep, *[t for t, n in sels if n < on_table])
            return tuple([t for t, _ in sels])
        if value == 1 and self.apt is not _APT_OFF:
            # V9: an ace sweeps the table.  V10: not when an ace lies on the table or the
            # ace is the round's first card; then R13 applies (an ace takes an ace).
            if self.apt is _APT_SIMPLE or not (aces_on_table or first_play):
                return (sweep,)
        mode = self.mode
        # V6/V7: with quindici the played card and the captured cards total 15; R13/R14 do
        # not apply, so 'traditional' leaves the choice free and 'fewest' keeps the smallest sets.
        total = 15 - value if self.quindici else value
        taken, cards = templates[total], sizes[total]
        if not self.quindici and mode is not _FREE and 1 in cards:
            return (taken[cards.index(1)],)  # R13: an equal card binds (traditional and fewest): there is one
        if mode is _FEWEST and cards:
            least = min(cards)
            return tuple([t for t, n in zip(taken, cards) if n == least])
        return taken
