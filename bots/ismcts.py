"""``ismcts``: Information Set Monte Carlo Tree Search (single observer).

One tree over the moves of everyone, grown from the seat's own view.  Each iteration
draws one deal of the hidden cards consistent with the view (the expert's weighted
sampler), walks the tree by UCB among the moves that deal allows (each move's
exploration term counts how often it was available, not how often its parent was
visited), adds one new move, plays on at random for a few plies, values the position
with the expert's horizon evaluation (exact at the round's end) and credits every move
on the path from the side of the player who made it.  The root move tried most often
is played.  The work is counted in iterations, so a seeded bot always plays the same.
"""

from __future__ import annotations

import random
from math import log, sqrt
from typing import Sequence

from scopa.engine import Declare, GameState, Phase, Play, View

from .base import ThinkingBot, choices
from .determinize import Sampler
from .evaluate import terminal_value
from .horizon import Evaluator, evaluator_for
from .knowledge import knowledge

DEFAULT_ITERATIONS = 1000
ROLLOUT_PLIES = 4
"""Random plies after the tree's new move before the position is valued."""
EXPLORE = 0.7
"""UCB's exploration constant, for rewards in round points divided by :data:`SCALE`."""
SCALE = 4.0

_PLAY = Phase.PLAY


class _Node:
    __slots__ = ("children", "visits", "total", "avail", "side")

    def __init__(self, side: int) -> None:
        self.children: dict[Play, _Node] = {}
        self.visits = 0
        self.total = 0.0  # rewards for ``side``, the side that chose the move into this node
        self.avail = 0
        self.side = side


class IsmctsBot(ThinkingBot):
    """Single-observer ISMCTS; see the module documentation."""

    def __init__(
        self, name: str | None = None, seed: int | None = None, iterations: int = DEFAULT_ITERATIONS,
        rollout: int = ROLLOUT_PLIES,
    ) -> None:
        super().__init__(name or "ismcts")
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.rollout = rollout

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        plays = choices(view, legal)
        if not isinstance(plays, list):
            return plays
        assert view.seat is not None  # choices() settles a seat-less view
        sampler = Sampler(view, knowledge(view), self.rng)
        evaluate = evaluator_for(view.rules)
        root = _Node(view.rules.side_of(view.seat))
        for _ in range(self.iterations):
            self._iterate(root, sampler.sample(), evaluate)
        counts = {p: root.children[p].visits if p in root.children else -1 for p in plays}
        return max(plays, key=counts.__getitem__)

    def _iterate(self, root: _Node, state: GameState, evaluate: Evaluator) -> None:
        rng = self.rng
        node = root
        path: list[_Node] = []
        while state.phase is _PLAY:
            legal = state.legal_plays()
            children = node.children
            untried = [p for p in legal if p not in children]
            for p in legal:
                child = children.get(p)
                if child is not None:
                    child.avail += 1
            mover = state.side[state.to_move]
            if untried:
                p = untried[rng.randrange(len(untried))]
                child = children[p] = _Node(mover)
                child.avail = 1
                state.push(p)
                path.append(child)
                break
            best = max(legal, key=lambda q: _ucb(children[q]))
            node = children[best]
            state.push(best)
            path.append(node)
        for _ in range(self.rollout):
            if state.phase is not _PLAY:
                break
            legal = state.legal_plays()
            state.push(legal[rng.randrange(len(legal))])
        values: dict[int, float] = {}
        for n in path:
            v = values.get(n.side)
            if v is None:
                if state.phase is _PLAY:
                    v = evaluate(state, n.side)
                else:
                    v = terminal_value(state, n.side)
                v = values[n.side] = v / SCALE
            n.visits += 1
            n.total += v


def _ucb(node: _Node) -> float:
    return node.total / node.visits + EXPLORE * sqrt(log(node.avail) / node.visits)
