"""``greedy``: one ply, weighing what a play leaves for the next player.

The choice itself is the engine's sensible play (:mod:`scopa.engine.sensible`, whose text
says how a play is weighed): the same play the game master makes for a seat whose turn
clock runs out.  This bot makes a Cirulla declaration at once and otherwise plays it.
"""

from __future__ import annotations

from typing import Sequence

from scopa.engine import Declare, Play, View
from scopa.engine.sensible import sensible_play

from .base import Bot, first_declaration


class CarefulGreedyBot(Bot):
    """One-ply greedy that looks at the next player's best reply; see the module text."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name or "greedy")

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        declaration = first_declaration(legal)
        if declaration is not None:
            return declaration
        return sensible_play(view, [a for a in legal if isinstance(a, Play)])
