"""The sensible play: the one-ply greedy choice of a seat, from its view alone.

A play's worth is what it captures (in round points: the settebello, Denari, primiera
cards, a scopa) minus the expected best reply of the next player on the table it leaves:
for each value an unseen card may have, the chance the next player holds one (its hand is
a random draw from the unseen cards) times the best capture it would make with it, a
sweep included.

The game master plays it for a seat whose turn clock ran out (or that kept answering
wrongly), and the ``greedy`` bot (the ``medium`` level) plays it every turn: it reads
only the seat's :class:`~scopa.engine.view.View` (its hand, the table, the public piles),
never the state, and it is deterministic (the first of equally good plays).
"""

from __future__ import annotations

from math import comb
from typing import Sequence

from .actions import Play
from .captures import CaptureRules
from .cards import ALL_CARDS_MASK, DENARI_MASK, RE_BELLO, SETTEBELLO, VALUE, mask_of
from .rules import RuleSet
from .view import View

SCOPA = 1.0  # R18: one point
LAY_COST = 0.5  # a card laid on the table is worth less than the same card kept
_PRIMIERA_POINTS = (0, 0.12, 0.03, 0.03, 0.04, 0.07, 0.2, 0.35, 0.01, 0.01, 0.01)
_HONOURS = (1, 8, 9, 10)


def card_worth(rules: RuleSet) -> list[float]:
    """Round points one captured card is worth on average, per card id (rules aware)."""
    out = []
    for c in range(40):
        v = VALUE[c]
        if rules.frac:
            out.append(1.0 if v in _HONOURS else 0.0)
            continue
        w = 0.08 + _PRIMIERA_POINTS[v]
        if DENARI_MASK >> c & 1:
            w += 0.2
            if (rules.napola or rules.cirulla or rules.trentino) and v <= 3:
                w += 0.5
            if rules.cirulla and v >= 8:
                w += 0.6
        if c == SETTEBELLO:
            w += 1.0
        if c == RE_BELLO and rules.re_bello:
            w += 1.0
        if rules.escoba and v == 7:
            w += 0.25
        out.append(w)
    return out


_WORTH: dict[RuleSet, list[float]] = {}
_CAPTURE_RULES: dict[RuleSet, CaptureRules] = {}


def worth_table(rules: RuleSet) -> list[float]:
    """:func:`card_worth` of these rules, worked out once."""
    w = _WORTH.get(rules)
    if w is None:
        w = _WORTH[rules] = card_worth(rules)
    return w


def capture_rules(rules: RuleSet) -> CaptureRules:
    """The capture rules of a rule set, built once."""
    caps = _CAPTURE_RULES.get(rules)
    if caps is None:
        caps = _CAPTURE_RULES[rules] = CaptureRules(rules)
    return caps


def sensible_play(view: View, plays: Sequence[Play]) -> Play:
    """The play of ``plays`` (the seat's legal plays, at least one) worth most to the
    seat whose ``view`` this is; of equally good plays, the first."""
    if len(plays) == 1:
        return plays[0]
    scorer = _Scorer(view)
    return max(plays, key=scorer.score)


class _Scorer:
    def __init__(self, view: View) -> None:
        self.worth = worth_table(view.rules)
        self.caps = capture_rules(view.rules)
        self.table = mask_of(view.table)
        seen = mask_of(view.hand) | self.table
        for pile in view.captured:  # R19: every capture is public
            seen |= mask_of(pile)
        self.unseen = ALL_CARDS_MASK & ~seen  # in other hands or in the stock
        self.scoring_scope = not view.rules.frac
        seat = view.seat if view.seat is not None else view.to_move
        self.my_side = view.rules.side_of(seat)
        n = view.rules.players
        nxt = (seat + 1) % n
        self.next_side = view.rules.side_of(nxt)
        sizes = view.hand_sizes
        cards_after = sum(sizes) - 1
        self.last_play = view.stock_left == 0 and cards_after == 0
        if sizes[nxt]:
            self.reply_hand = sizes[nxt]
        elif view.stock_left and cards_after == 0:
            self.reply_hand = view.rules.hand_size
        else:
            self.reply_hand = 0
        self.last_side = view.last_capture_side
        # the chance the next player holds at least one card of each value
        pool = self.unseen.bit_count()
        h = min(self.reply_hand, pool)
        self.holds = [0.0] * 11
        if h and pool:
            none = comb(pool, h)
            for v in range(1, 11):
                k = (self.unseen >> ((v - 1) * 4) & 15).bit_count()
                self.holds[v] = 1.0 - comb(pool - k, h) / none if k else 0.0
        self.mean_worth = [0.0] * 11
        for v in range(1, 11):
            cards = [c for c in range((v - 1) * 4, v * 4) if self.unseen >> c & 1]
            if cards:
                self.mean_worth[v] = sum(self.worth[c] for c in cards) / len(cards)

    def _value(self, mask: int) -> float:
        w = self.worth
        total = 0.0
        while mask:
            low = mask & -mask
            total += w[low.bit_length() - 1]
            mask ^= low
        return total

    def score(self, play: Play) -> float:
        card, capture = play
        table = self.table
        if capture:
            after = table ^ capture
            gain = self._value(capture) + self.worth[card]
            if not after and not self.last_play and self.scoring_scope:
                gain += SCOPA
            if self.last_play:
                gain += self._value(after)  # R20: the leftovers follow the last capture
        else:
            after = table | 1 << card
            gain = -LAY_COST * self.worth[card]
            if self.last_play:
                if self.last_side == self.my_side:
                    gain += self._value(after)
                elif self.last_side is not None:
                    gain -= self._value(after)
        if self.last_play or not self.reply_hand:
            return gain
        threat = self._reply(after)
        return gain - threat if self.next_side != self.my_side else gain + threat

    def _reply(self, table: int) -> float:
        """Expected gain of the next player's best capture on ``table``."""
        if not table:
            return 0.0
        first = False
        best: list[tuple[float, float]] = []
        for v in range(1, 11):
            p = self.holds[v]
            if not p:
                continue
            top = 0.0
            for option in self.caps.options(table, v, first):
                g = self._value(option) + self.mean_worth[v]
                if option == table and self.scoring_scope:
                    g += SCOPA
                if g > top:
                    top = g
            if top:
                best.append((top, p))
        best.sort(reverse=True)
        expected = 0.0
        miss = 1.0
        for g, p in best:
            expected += g * p * miss
            miss *= 1.0 - p
        return expected
