"""The first built-in bots: ``random`` and the one-ply heuristic kept as ``greedy-v1``."""

from __future__ import annotations

import random
from typing import Callable, Sequence

from scopa.engine import Declare, Play, View
from scopa.engine.cards import DENARI_MASK, RE_BELLO, SETTEBELLO, VALUE, cards_in, mask_of

from .base import Bot, first_declaration


class RandomBot(Bot):
    """Plays a uniformly random legal action (seeded for reproducible games)."""

    def __init__(self, name: str | None = None, seed: int | None = None) -> None:
        super().__init__(name or "random")
        self.rng = random.Random(seed)

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        return self.rng.choice(list(legal))


# Worth of one captured card, by capture value, for the primiera race (7s and 6s first).
_PRIMIERA_WEIGHT = (0, 1.0, 0.3, 0.3, 0.4, 0.5, 1.5, 3.0, 0.1, 0.1, 0.1)
_HONOURS = (1, 8, 9, 10)


class GreedyBot(Bot):
    """Prefers a scopa, the settebello, Denari, sevens and more cards, and avoids
    leaving a table that the next player can sweep.  Adapts to the scoring of Frac
    (honour cards only), Escoba (sevens) and the Denari extras."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name or "greedy")

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        declaration = first_declaration(legal)
        if declaration is not None:
            return declaration
        plays = [a for a in legal if isinstance(a, Play)]
        worth = self._card_worth(view)
        unseen = self._unseen_by_value(view)
        table = mask_of(view.table)
        last_play = view.stock_left == 0 and sum(view.hand_sizes) == 1
        return max(plays, key=lambda p: self._score(view, p, table, worth, unseen, last_play))

    def _card_worth(self, view: View) -> Callable[[int], float]:
        r = view.rules
        if r.frac:
            return lambda c: 3.0 if VALUE[c] in _HONOURS else 0.0

        def worth(c: int) -> float:
            w = 0.25 + _PRIMIERA_WEIGHT[VALUE[c]]
            if DENARI_MASK >> c & 1:
                w += 0.8
                if (r.napola or r.cirulla or r.trentino) and VALUE[c] <= 3:
                    w += 1.5
                if r.cirulla and VALUE[c] >= 8:
                    w += 1.5
            if c == SETTEBELLO:
                w += 6.0
            if c == RE_BELLO and r.re_bello:
                w += 4.0
            if r.escoba and VALUE[c] == 7:
                w += 1.5
            return w

        return worth

    @staticmethod
    def _unseen_by_value(view: View) -> list[int]:
        seen = set(view.hand) | set(view.table)
        for pile in view.captured:
            seen.update(pile)
        counts = [0] * 11
        for c in range(40):
            if c not in seen:
                counts[VALUE[c]] += 1
        return counts

    def _score(
        self,
        view: View,
        play: Play,
        table: int,
        worth: Callable[[int], float],
        unseen: list[int],
        last_play: bool,
    ) -> float:
        r = view.rules
        if play.capture:
            score = worth(play.card) + sum(worth(c) for c in cards_in(play.capture))
            after = table ^ play.capture
            if not after and not last_play and not r.frac:
                score += 12.0
        else:
            score = -worth(play.card)
            after = table | (1 << play.card)
        if after and not last_play and not r.frac:
            score -= 6.0 * self._sweep_risk(view, after, unseen)
        return score

    @staticmethod
    def _sweep_risk(view: View, table: int, unseen: list[int]) -> float:
        """Chance-ish that an unseen card can sweep ``table`` (0 to 1)."""
        r = view.rules
        total = sum(VALUE[c] for c in cards_in(table))
        needed: set[int] = set()
        if not r.quindici and total <= 10:
            needed.add(total)
        if (r.quindici or r.cirulla) and 1 <= 15 - total <= 10:
            needed.add(15 - total)
        return min(1.0, sum(unseen[v] for v in needed) / 4)
