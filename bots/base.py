"""The bot interface: subclass :class:`Bot`, implement :meth:`Bot.pick`, and the same bot
plays in ``scopa local``, in the arena and over TCP (``scopa bot``).

>>> class FirstMove(Bot):
...     def pick(self, view, legal):
...         return legal[0]
"""

from __future__ import annotations

import asyncio
from abc import abstractmethod
from typing import Sequence

from scopa.engine import Declare, Play, Player, View


class Bot(Player):
    """A Player whose decision is one synchronous method."""

    thinks: bool = False
    """True for a bot that searches (a long, CPU-bound ``pick``): a server runs such a
    bot in its worker pool rather than on its event loop."""

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__.lower()

    @abstractmethod
    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        """Return one of ``legal``.  ``view`` is everything this seat may see."""

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        return self.pick(view, legal)


def first_declaration(legal: Sequence[Play | Declare]) -> Declare | None:
    """The first Cirulla declaration on offer, if any: its points (V13) cannot be taken
    back, so every built-in bot makes it at once."""
    return next((a for a in legal if isinstance(a, Declare)), None)


class ThinkingBot(Bot):
    """A bot that searches: it thinks in a thread, so that an event loop (a server, a
    terminal) keeps serving others meanwhile (the interpreter switches threads every few
    ms), and a server runs it in its worker pool."""

    thinks = True

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        return await asyncio.to_thread(self.pick, view, legal)


def choices(view: View, legal: Sequence[Play | Declare]) -> Play | Declare | list[Play]:
    """The move to make without thinking (a declaration on offer, the only play, any
    play for a view with no seat), or else the two or more plays to choose among."""
    declaration = first_declaration(legal)
    if declaration is not None:
        return declaration
    plays = [a for a in legal if isinstance(a, Play)]
    if len(plays) == 1 or view.seat is None:
        return plays[0]
    return plays
