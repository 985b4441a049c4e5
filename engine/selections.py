"""Every multiset of table values by its sum, as capture templates: the enumeration the
capture rules (captures.py) choose from when a table's value multiset is met for the
first time.  It holds no rule: which of these a played card may take is captures.py's.

:func:`templates_by_sum` is a pure function over integers, tuples of them and the dict it
interns templates in.  Its C twin, ``scopa.engine._speedups.templates_by_sum``, has the
same signature and gives equal results; the C one is chosen at import when it was built
(``pip install`` builds it when a C compiler is there).  ``TEMPLATES_BY_SUM`` holds every
twin that can be imported here, by name, for tests that run each over the same inputs;
``IMPLEMENTATION`` names the one in use (``SCOPA_SPEEDUPS=python`` picks the Python twin).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import VALUE_MASK
from .twins import Twin, chosen

# A template: (mask of value groups taken whole, ((value, how many of that value), ...)).
Template = tuple[int, tuple[tuple[int, int], ...]]
BySum = tuple[tuple[tuple[Template, ...], ...], tuple[tuple[int, ...], ...]]
"""By sum: the templates of the selections with that sum, and how many cards each takes."""

TemplatesBySum = Callable[[int, int, int, dict[Any, Any]], BySum]
MAX_SUM = 40
"""The largest ``max_sum`` taken (40 cards of value 1 at most would sum to 40)."""


def templates_by_sum_python(counts: int, max_cards: int, max_sum: int, shared: dict[Any, Any], /) -> BySum:
    """For each sum ``s`` (0..``max_sum``), every multiset of the table's values
    (``counts``: value ``v``'s count in bits 4(v-1)..4v-1) of at most ``max_cards``
    cards summing to ``s``: its template, and apart, at the same place, its number of
    cards.  A template takes the values whose every table card it takes in one mask and
    names the others (some but not all of a value's cards) as (value, how many); each
    template is the one ``shared`` holds, if equal (added to it if not).

    The order is the enumeration's: values ascending, a selection without a value before
    those with one, two, ... cards of it."""
    if counts >> 40 or counts < 0:
        raise ValueError("not a table's value counts")
    if not 0 <= max_sum <= MAX_SUM:
        raise ValueError(f"max_sum is 0..{MAX_SUM}")
    partial: list[tuple[int, int, int]] = [(0, 0, 0)]  # (how many of each value, as counts is; sum; cards)
    for v in range(1, 11):
        have = (counts >> (4 * (v - 1))) & 15
        if not have:
            continue
        grown: list[tuple[int, int, int]] = []
        append = grown.append
        shift = 4 * (v - 1)
        for item in partial:
            append(item)
            taken, total, size = item
            for k in range(1, have + 1):
                total += v
                size += 1
                if total > max_sum or size > max_cards:
                    break
                append((taken | k << shift, total, size))
        partial = grown
    templates: list[list[Template]] = [[] for _ in range(max_sum + 1)]
    sizes: list[list[int]] = [[] for _ in range(max_sum + 1)]
    setdefault = shared.setdefault
    for taken, total, size in partial[1:]:  # the first is always the empty selection
        whole = 0
        some: list[tuple[int, int]] = []
        for v in range(1, 11):
            k = (taken >> (4 * (v - 1))) & 15
            if not k:
                continue
            if k == (counts >> (4 * (v - 1))) & 15:
                whole |= VALUE_MASK[v]
            else:
                some.append((v, k))
        template: Template = (whole, tuple(some))
        templates[total].append(setdefault(template, template))
        sizes[total].append(size)
    return tuple(tuple(t) for t in templates), tuple(tuple(n) for n in sizes)


TEMPLATES_BY_SUM: dict[Twin, TemplatesBySum] = {"python": templates_by_sum_python}
try:
    from ._speedups import templates_by_sum as _c_templates_by_sum
except ImportError:  # pragma: no cover - depends on the install
    pass
else:
    TEMPLATES_BY_SUM["c"] = _c_templates_by_sum

IMPLEMENTATION: Twin = chosen(TEMPLATES_BY_SUM)
templates_by_sum: TemplatesBySum = TEMPLATES_BY_SUM[IMPLEMENTATION]
"""See :func:`templates_by_sum_python`."""
