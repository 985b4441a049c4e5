"""Swiss pairing: one round's tables as a maximum-weight matching (networkx).

Every pair of entrants is an edge whose weight is a constant less a cost; with an odd
count a ``bye`` node joins the graph.  The costs are tiers, each larger than anything
the tiers below can add up to, so the matching settles them in this order:

1. no pair meets twice (while a pairing without rematches exists);
2. the bye goes to the lowest-ranked entrant without one;
3. entrants meet within their score group (the square of the match points between them);
4. neighbours in the standings meet, the Monrad way: the best-ranked entrant meets the
   nearest-ranked one it can, then the best-ranked one left, and so on.  Each pair's
   edge costs its own power of two, the pairs of the best-ranked entrant with its
   farthest partners the highest, so the cheapest matching is that order's first and
   no two matchings ever cost the same: the pairing is unique.

The higher-ranked entrant of a pair sits first.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

BYE = "\x00bye"
"""The bye's node in the graph (no name can be empty)."""


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def met_pairs(games: Collection[tuple[str, str]]) -> frozenset[frozenset[str]]:
    """The pairs that have met, from (first, second) tuples."""
    return frozenset(frozenset(g) for g in games)


def pair_swiss(
    ranking: Sequence[str],
    halves: Mapping[str, int],
    met: Collection[frozenset[str]],
    had_bye: Collection[str],
) -> SwissRound:
    """Pair ``ranking`` (the current standings, best first; ``halves``: each one's match
    points in halves) avoiding the pairs in ``met``; ``had_bye``: who had a bye."""
    m = len(ranking)
    rank = {name: i for i, name in enumerate(ranking)}
    pairs_in_matching = (m + 1) // 2
    spread = max(halves[n] for n in ranking) - min(halves[n] for n in ranking) if ranking else 0
    order = [(i, j) for i in reversed(range(m)) for j in range(i + 1, m)]
    bit = {pair: 1 << position for position, pair in enumerate(order)}
    near = 1 << len(order)  # one unit of score distance: more than every pair's bit together
    lower = pairs_in_matching * spread * spread * near + near
    bye_unit = lower + 1  # one place above the bottom for the bye
    again = lower + bye_unit * m + 1  # a rematch, or a second bye
    top = again * (m + 2)

    graph = nx.Graph()
    graph.add_nodes_from(ranking)
    for i, a in enumerate(ranking):
        for b in ranking[i + 1 :]:
            cost = bit[rank[a], rank[b]] + (halves[a] - halves[b]) ** 2 * near
            if frozenset((a, b)) in met:
                cost += again
            graph.add_edge(a, b, weight=top - cost)
    if m % 2:
        for a in ranking:
            cost = bye_unit * (m - 1 - rank[a]) + (again if a in had_bye else 0)
            graph.add_edge(a, BYE, weight=top - cost)

    matching = nx.max_weight_matching(graph, maxcardinality=True)
    bye: str | None = None
    pairs: list[tuple[str, str]] = []
    for u, v in matching:
        if BYE in (u, v):
            bye = v if u == BYE else u
        else:
            pairs.append((u, v) if rank[u] < rank[v] else (v, u))
    pairs.sort(key=lambda p: rank[p[0]])
    return SwissRound(tuple(pairs), bye)
