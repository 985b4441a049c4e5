"""The built-in bots by strategy name, and the levels offered to people."""

from __future__ import annotations

import inspect
from typing import Callable

from scopa.engine import Player

from .base import Bot
from .builtin import GreedyBot, RandomBot
from .cheater import CHEATER
from .chitarella import ChitarellaBot
from .expert import DEFAULT_BUDGET, ExpertBot
from .greedy import CarefulGreedyBot
from .ismcts import IsmctsBot
from .levels import EasyBot
from .loader import build_player, load_bot_class


class HardBot(ExpertBot):
    """The ``hard`` level: the expert at a quarter of its budget (it answers sooner)."""

    def __init__(self, name: str | None = None, seed: int | None = None) -> None:
        super().__init__(name or "hard", seed=seed, budget=DEFAULT_BUDGET // 4)


LEVELS: dict[str, str] = {
    "easy": "greedy play with slips: a random move two times in five",
    "medium": "greedy",
    "hard": "expert at a quarter of its budget",
}
"""Difficulty levels for people and what each plays (docs/BOTS.md gives each level's
margin as the arena measured it)."""

_CLASSES: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": CarefulGreedyBot,
    "expert": ExpertBot,
    "greedy-v1": GreedyBot,
    "chitarella": ChitarellaBot,
    "ismcts": IsmctsBot,
}

STRATEGIES: dict[str, Callable[..., Bot]] = {
    **_CLASSES,
    "easy": EasyBot,
    "medium": CarefulGreedyBot,
    "hard": HardBot,
}
"""Every name ``make_bot`` accepts (strategies and levels) and the class it builds."""


def make_bot(strategy: str, name: str | None = None, seed: int | None = None) -> Bot:
    """A built-in bot by strategy or level name; ``seed`` makes a bot that draws at
    random repeat itself."""
    cls = STRATEGIES.get(strategy)
    if strategy == CHEATER:
        raise ValueError(f"{CHEATER!r} sees every hand: only the arena plays it, to measure the ceiling")
    if cls is None:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}")
    if "seed" in inspect.signature(cls).parameters:
        return cls(name, seed=seed)
    return cls(name)


def make_player(spec: str, name: str | None = None, seed: int | None = None) -> Player:
    """A built-in bot by name, or a bot class given as ``module:Class`` or
    ``path/to/file.py:Class`` (the spelling kept as given); a ``ValueError`` says why not."""
    if ":" in spec:
        return build_player(load_bot_class(spec), name, seed)
    return make_bot(spec, name, seed)
