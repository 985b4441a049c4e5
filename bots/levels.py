"""Bots made for the levels offered to people (``scopa.bots.registry.LEVELS``)."""

from __future__ import annotations

import random
from typing import Sequence

from scopa.engine import Declare, Play, View

from .base import Bot
from .greedy import CarefulGreedyBot

EASY_SLIPS = 0.4
"""The share of moves the ``easy`` bot plays at random instead of its greedy choice."""


class EasyBot(Bot):
    """The ``easy`` level: greedy play with slips (a random legal move now and then), so
    it loses clearly to ``greedy`` yet still takes what lies in front of it."""

    def __init__(self, name: str | None = None, seed: int | None = None, slips: float = EASY_SLIPS) -> None:
        super().__init__(name or "easy")
        self.rng = random.Random(seed)
        self.slips = slips
        self.greedy = CarefulGreedyBot()

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        if self.rng.random() < self.slips:
            return self.rng.choice(list(legal))
        return self.greedy.pick(view, legal)
