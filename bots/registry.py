"""The built-in bots by strategy name, and the levels offered to people."""

from __future__ import annotations

from typing import Callable

from .base import Bot
from .builtin import GreedyBot, RandomBot
from .expert import ExpertBot
from .greedy import CarefulGreedyBot

LEVELS: dict[str, str] = {"easy": "random", "medium": "greedy", "hard": "expert"}
"""Difficulty levels for people, each an alias of a strategy."""

_CLASSES: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": CarefulGreedyBot,
    "expert": ExpertBot,
    "greedy-v1": GreedyBot,
}

STRATEGIES: dict[str, Callable[..., Bot]] = {
    **_CLASSES,
    **{level: _CLASSES[strategy] for level, strategy in LEVELS.items()},
}
"""Every name ``make_bot`` accepts (strategies and levels) and the class it builds."""


def make_bot(strategy: str, name: str | None = None, seed: int | None = None) -> Bot:
    """A built-in bot by strategy or level name; ``seed`` makes a bot that draws at
    random repeat itself."""
    cls = STRATEGIES.get(strategy)
    if cls is None:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}")
    if cls in (RandomBot, ExpertBot):
        return cls(name, seed=seed)
    return cls(name)
