"""``chitarella``: the traditional rules of thumb of Scopa and Scopone, as a bot.

The classic manuals of the game (the best known is Chitarella's, of the eighteenth
century) teach play by rules rather than by calculation.  This bot plays the ones below,
in our own words, for two players and for two teams of two; each rule adds to or takes
from a play's score and the best score is played.

1. Sweep the table when you can: a scopa is a point nobody can take back.
2. Take the settebello whenever you can, and never put it on the table yourself.
3. Keep the settebello safe: while it is still out of sight, do not leave the table
   adding up to seven (or holding a seven) for the opponent who may hold it.
4. Of the captures on offer, take the one worth most: Denari, sevens, then sixes and
   aces for the primiera, then more cards.
5. Do not leave a scopa: a table whose cards add up to ten or less can be swept by the
   next player when a card of that value is still out; the more such cards, the worse.
6. When you must lay a card, lay one nobody can pair: a value whose other cards are
   already in sight, or one you hold twice (if it is not taken you take it back).
   Lay low-worth cards (court cards before sevens, never a Denaro you can spare).
7. With a partner: lead to the partner.  A card the partner laid without taking says
   "I hold its twin": leave it for the partner to take back, and when you lay, lay the
   values the partner has shown.  Do not take what the partner laid unless it sweeps or
   takes the settebello.
8. On the round's last play take anything: the leftovers go to the last side to take.
"""

from __future__ import annotations

from math import comb
from typing import Sequence

from scopa.engine import Declare, Play, View
from scopa.engine.cards import DENARI_MASK, SETTEBELLO, VALUE, VALUE_MASK, cards_of

from .base import Bot, choices
from scopa.engine.sensible import worth_table
from .knowledge import current_deal_start, knowledge

SCOPA = 10.0
SETTEBELLO_TAKEN = 8.0
SETTEBELLO_LAID = 12.0
SEVEN_LEFT = 3.0
LEAVE_SCOPA = 9.0
PAIRABLE = 1.5
TWIN = 1.0
PARTNER_SHOWN = 1.2
PARTNER_CARD = 3.0
LAY_WORTH = 3.0


def table_sum(mask: int) -> int:
    """The capture values of a set of cards added up."""
    return sum(VALUE[c] for c in cards_of(mask))


def chance_holds(unseen: int, value: int, hand: int) -> float:
    """The chance that a hand of ``hand`` cards drawn from ``unseen`` holds a ``value``."""
    pool = unseen.bit_count()
    k = (unseen & VALUE_MASK[value]).bit_count()
    if not k or not hand or not pool:
        return 0.0
    hand = min(hand, pool)
    return 1.0 - comb(pool - k, hand) / comb(pool, hand)


class ChitarellaBot(Bot):
    """Rule-based play from the traditional advice; see the module documentation."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name or "chitarella")

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        plays = choices(view, legal)
        if not isinstance(plays, list):
            return plays
        return max(plays, key=_Judge(view).score)


class _Judge:
    """The rules applied to one decision (what is known is worked out once)."""

    def __init__(self, view: View) -> None:
        assert view.seat is not None
        rules = view.rules
        know = knowledge(view)
        self.worth = worth_table(rules)
        self.hand = know.hand
        self.table = know.table
        self.unseen = know.unseen
        self.scoring_scope = not rules.frac
        seat = view.seat
        n = rules.players
        sizes = view.hand_sizes
        self.next_seat = (seat + 1) % n
        self.next_is_opponent = rules.side_of(self.next_seat) != rules.side_of(seat)
        self.next_hand = sizes[self.next_seat] or (rules.hand_size if view.stock_left else 0)
        self.last_play = view.stock_left == 0 and sum(sizes) == 1
        self.sette_out = bool(self.unseen >> SETTEBELLO & 1)
        self.partner = (seat + 2) % n if rules.has_teams and n == 4 else None
        self.partner_laid = 0  # cards the partner laid this deal that are still on the table
        self.partner_shown = [0] * 11  # values the partner laid this deal
        if self.partner is not None:
            start = current_deal_start(view)
            for play in view.round_plays[start or 0:]:
                if play.seat == self.partner and not play.captured:
                    self.partner_shown[play.card.value] += 1
                    if self.table >> play.card & 1:
                        self.partner_laid |= 1 << play.card

    def score(self, play: Play) -> float:
        card, capture = play
        worth = self.worth
        if capture:
            after = self.table ^ capture
            value = worth[card] + sum(worth[c] for c in cards_of(capture))  # rule 4
            value += 0.05 * capture.bit_count()
            if not after and self.scoring_scope and not self.last_play:
                value += SCOPA  # rule 1
            if capture >> SETTEBELLO & 1 or card == SETTEBELLO:
                value += SETTEBELLO_TAKEN  # rule 2
            if self.last_play:
                value += sum(worth[c] for c in cards_of(after))  # rule 8
            elif capture & self.partner_laid and after and not capture >> SETTEBELLO & 1:
                value -= PARTNER_CARD  # rule 7: the partner's card is the partner's to take
        else:
            after = self.table | 1 << card
            value = -LAY_WORTH * worth[card]  # rule 6: lay what is worth least
            if card == SETTEBELLO:
                value -= SETTEBELLO_LAID  # rule 2
            v = VALUE[card]
            out = (self.unseen & VALUE_MASK[v]).bit_count()
            value -= PAIRABLE * out / 3.0  # rule 6: a value still out can be paired
            if (self.hand & ~(1 << card)) & VALUE_MASK[v]:
                value += TWIN  # rule 6: we can take it back ourselves
            if self.partner is not None and self.partner_shown[v]:
                value += PARTNER_SHOWN  # rule 7: the partner holds its twin
            if DENARI_MASK >> card & 1:
                value -= 0.5
        if self.last_play or not self.next_is_opponent or not self.next_hand:
            return value
        return value - self._danger(after)

    def _danger(self, after: int) -> float:
        """What the next player, an opponent, may do with the table we leave (rules 3, 5)."""
        danger = 0.0
        if not after:
            return 0.0
        total = table_sum(after)
        if total <= 10 and self.scoring_scope:
            p = chance_holds(self.unseen, total, self.next_hand)
            danger += p * (LEAVE_SCOPA + sum(self.worth[c] for c in cards_of(after)))
        if self.sette_out and not after >> SETTEBELLO & 1:
            sevens_left = after & VALUE_MASK[7] or _sums_to(after, 7)
            if sevens_left:
                danger += SEVEN_LEFT * self._share_of_sette()
        if after >> SETTEBELLO & 1:
            danger += SETTEBELLO_TAKEN * chance_holds(self.unseen, 7, self.next_hand)
        return danger

    def _share_of_sette(self) -> float:
        """The chance the next player, rather than someone else or the stock, holds the
        settebello (each unseen card is as likely to be anywhere)."""
        pool = self.unseen.bit_count()
        return min(1.0, self.next_hand / pool) if pool else 0.0


def _sums_to(table: int, target: int) -> bool:
    """Whether some of the table's cards add up to ``target``."""
    reach = 1  # bit k: a subset adds up to k
    while table:
        low = table & -table
        reach |= reach << VALUE[low.bit_length() - 1]
        table ^= low
    return bool(reach >> target & 1)
