"""``cheater``: the expert's search with every hand and the stock's order in sight.

No fair player can do better than a search that knows where every card is, so the arena
measures it as the ceiling: how much of the gap between a baseline and the cheater a
fair bot closes.  It is not a :class:`~scopa.engine.Player` (it cannot decide from a
View), so no table, local game or ``scopa bot`` can seat it; only the arena, which owns
the whole state, asks it through :meth:`CheaterBot.pick_seeing`.
"""

from __future__ import annotations

from typing import Sequence

from scopa.engine import Declare, GameState, Play

from .base import first_declaration
from .expert import DEFAULT_BUDGET, DEFAULT_LEAVES, MIN_DEPTH, make_search
from .search import plies_within, remaining_plies

CHEATER = "cheater"
"""Its name in the arena, and a name no table, local game or ``scopa bot`` accepts."""

DEEPEN = 3
"""A deeper search costs about this many times the last one: stop deepening when the
next depth would cross the budget."""


class CheaterBot:
    """Iterative-deepening search on the true state, within a work budget (the expert's
    search: the other side's replies from the reply model unless ``replies`` is false)."""

    sees_all = True

    def __init__(
        self, name: str | None = None, seed: int | None = None, budget: int = DEFAULT_BUDGET,
        replies: bool = True,
    ) -> None:
        if budget < 1:
            raise ValueError("budget must be at least 1 play")
        self.name = name or CHEATER
        self.budget = budget
        self.replies = replies
        self.last_nodes = 0

    def pick_seeing(self, state: GameState, legal: Sequence[Play | Declare]) -> Play | Declare:
        """One of ``legal`` for the seat to move in ``state`` (which is not changed)."""
        declaration = first_declaration(legal)
        if declaration is not None:
            return declaration
        plays = [a for a in legal if isinstance(a, Play)]
        self.last_nodes = 0
        if len(plays) == 1:
            return plays[0]
        search = make_search(state.rules, state.side[state.to_move], replies=self.replies)
        left = remaining_plies(state)
        depth = max(plies_within(state, DEFAULT_LEAVES), min(MIN_DEPTH, left))
        while True:
            before = search.nodes
            values = [search.value(state, p, depth, -1e9, 1e9) for p in plays]
            spent = search.nodes - before
            if depth >= left or search.nodes + DEEPEN * spent > self.budget:
                break
            depth += 1
        self.last_nodes = search.nodes
        return plays[max(range(len(plays)), key=values.__getitem__)]
