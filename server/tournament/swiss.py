"""Swiss pairing: one round's tables as a maximum-weight matching (networkx).

Every pair of entrants is an edge whose weight is a constant less a cost; with an odd
count a ``bye`` node joins the graph.  The costs are tiers, each larger than anything
the tiers below can add up to, so the matching settles them in this order:

1. nobody has a second bye (while someone is without one);
2. no pair meets twice (while a pairing without rematches exists);
3. the bye goes to the lowest-ranked entrant without one;
4. entrants meet within their score group (the square of the match points between them);
5. neighbours in the standings meet, the Monrad way (1st-2nd, 3rd-4th): the sum of the
   squares of the rank distances between partners is smallest;
6. of those, the better-ranked entrants have the nearer partners (each pair's rank
   distance weighted by how high its better entrant ranks).

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
    secondary = pairs_in_matching * m * m + 1  # one unit of squared rank distance
    near = pairs_in_matching * (m - 1) ** 2 * secondary + secondary  # one unit of score distance
    lower = pairs_in_matching * spread * spread * near + near
    bye_unit = lower + 1  # one place above the bottom for the bye
    again = lower + bye_unit * m + 1  # a rematch
    second_bye = again * (pairs_in_matching + 1)  # above any number of rematches
    top = second_bye + again * (m + 2)

    graph = nx.Graph()
    graph.add_nodes_from(ranking)
    for i, a in enumerate(ranking):
        for b in ranking[i + 1 :]:
            distance = rank[b] - rank[a]
            cost = distance * (m - rank[a]) + distance**2 * secondary + (halves[a] - halves[b]) ** 2 * near
            if frozenset((a, b)) in met:
                cost += again
            graph.add_edge(a, b, weight=top - cost)
    if m % 2:
        for a in ranking:
            cost = bye_unit * (m - 1 - rank[a]) + (second_bye if a in had_bye else 0)
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
