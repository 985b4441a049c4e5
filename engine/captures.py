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

_M5 = 0x5555555555
_M3 = 0x3333333333
_ALL = (1 << 40) - 1
_ACE_MASK = VALUE_MASK[1]


def value_counts(table: int) -> int:
    """How many table cards of each value: value ``v``'s count sits in bits 4(v-1)..4v-1."""
    m = table - ((table >> 1) & _M5)
    return (m & _M3) + ((m >> 2) & _M3)


# A template: (mask of value groups taken whole, ((value, how many of that value), ...)).
Template = tuple[int, tuple[tuple[int, int], ...]]


Selection = tuple[tuple[int, int], ...]  # (value, how many cards of it), values ascending
Sized = tuple[Selection, int]  # a selection and how many cards it takes
_MAX_SUM = 14  # the largest sum a capture needs: 15 minus an ace (V6)
_MAX_VALUE = 10  # the largest sum a capture by value needs (R14)


def _selections_by_sum(counts: int, max_cards: int, max_sum: int) -> dict[int, list[Sized]]:
    """Every multiset of table values (at most ``max_cards`` cards, sum 1..``max_sum``),
    by sum, each with its number of cards."""
    partial: list[tuple[Selection, int, int]] = [((), 0, 0)]  # (selection, sum, cards)
    for v in range(1, 11):
        have = (counts >> (4 * (v - 1))) & 15
        if not have:
            continue
        grown: list[tuple[Selection, int, int]] = []
        append = grown.append
        for item in partial:
            append(item)
            sel, total, size = item
            for k in range(1, have + 1):
                total += v
                size += 1
                if total > max_sum or size > max_cards:
                    break
                append((sel + ((v, k),), total, size))
        partial = grown
    out: dict[int, list[Sized]] = {}
    for sel, total, size in partial[1:]:  # the first is always the empty selection
        if total in out:
            out[total].append((sel, size))
        else:
            out[total] = [(sel, size)]
    return out


def _templates_of(counts: int, sels: list[Sized]) -> list[Template]:
    """The template of each selection: its values taken whole in one mask, the others
    (some but not all cards of a value on the table) as (value, how many)."""
    out: list[Template] = []
    for sel, _ in sels:
        whole = 0
        partial: list[tuple[int, int]] = []
        for v, k in sel:
            if k == (counts >> (4 * (v - 1))) & 15:
                whole |= VALUE_MASK[v]
            else:
                partial.append((v, k))
        out.append((whole, tuple(partial)))
    return out


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
            by_sum = _selections_by_sum(counts, self.max_cards, self.max_sum)
            if len(_SHARED) >= _SHARED_LIMIT:
                _SHARED.clear()  # bounded too; what is cached keeps its own
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

    def _templates(self, counts: int, value: int, first_play: bool, by_sum: dict[int, list[Sized]]) -> list[Template]:
        if not counts:
            return []
        aces_on_table = counts & 15
        sweep: Template = (_ALL, ())
        if self.cirulla:
            # V13: any capture by equal value / sum, or by fifteen, at the player's free
            # choice; an ace may also take the whole table unless an ace is on it.
            sels = list(by_sum.get(value, ()))
            sels += [s for s in by_sum.get(15 - value, ()) if s not in sels]
            if value == 1 and not aces_on_table:
                on_table = sum((counts >> (4 * (v - 1))) & 15 for v in range(1, 11))
                # a fifteen of every table card is the sweep itself, listed once
                return [sweep, *_templates_of(counts, [s for s in sels if s[1] < on_table])]
            return _templates_of(counts, sels)
        if value == 1 and self.apt is not AssoPigliaTutto.OFF:
            # V9: an ace sweeps the table.  V10: not when an ace lies on the table or the
            # ace is the round's first card; then R13 applies (an ace takes an ace).
            if self.apt is AssoPigliaTutto.SIMPLE or not (aces_on_table or first_play):
                return [sweep]
        mode = self.mode
        if self.quindici:
            # V6/V7: played card + captured cards total 15; R13/R14 do not apply, so
            # 'traditional' leaves the choice free and 'fewest' keeps the smallest sets.
            sels = by_sum.get(15 - value, [])
        else:
            sels = by_sum.get(value, [])
            singles = [s for s in sels if s[1] == 1]
            if singles and mode is not CaptureMode.FREE:
                sels = singles  # R13: an equal card binds (traditional and fewest)
        if mode is CaptureMode.FEWEST and sels:
            least = min([n for _, n in sels])
            sels = [s for s in sels if s[1] == least]
        return _templates_of(counts, sels)
