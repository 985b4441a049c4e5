"""``scopa.bots``: the built-in bots and the :class:`Bot` interface they share.

Bots see only the engine: the client, the server, local games and the arena all use
them from here.
"""

from __future__ import annotations

from .base import Bot
from .builtin import GreedyBot, RandomBot
from .chitarella import ChitarellaBot
from .expert import ExpertBot
from .greedy import CarefulGreedyBot
from .ismcts import IsmctsBot
from .registry import LEVELS, STRATEGIES, make_bot

__all__ = [
    "LEVELS", "STRATEGIES", "Bot", "CarefulGreedyBot", "ChitarellaBot", "ExpertBot", "GreedyBot", "IsmctsBot",
    "RandomBot", "make_bot",
]
