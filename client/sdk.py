"""The bot SDK: subclass :class:`Bot`, implement :meth:`Bot.pick`, and the same bot
plays in ``scopa local`` and over TCP (``scopa bot``).  The class itself lives in
``scopa.bots`` so that bots depend on the engine only.
"""

from __future__ import annotations

from scopa.bots import Bot, GreedyBot, RandomBot, make_bot

__all__ = ["Bot", "GreedyBot", "RandomBot", "make_bot"]
