"""What a seat can work out from its view: the cards it has not seen, who may hold them,
and how likely each hidden card is to be in each other hand given the plays so far.

Inference: in a play of the current deal a player chose a card while holding the rest
of its hand; a card it would have made a scopa with, or taken the settebello with, and
did not, is less likely to be in its hand (players rarely pass up those).  A partner's
card laid without taking makes the other cards of its value likelier in its hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from scopa.engine import View
from scopa.engine.captures import CaptureRules
from scopa.engine.sensible import capture_rules as _capture_rules
from scopa.engine.cards import SETTEBELLO, VALUE, VALUE_MASK, cards_in, mask_of

ALL_CARDS = (1 << 40) - 1

# How much less likely a card becomes after its holder passed up a scopa / the settebello.
PASSED_SCOPA = 0.15
PASSED_SETTEBELLO = 0.3
PASSED_CAPTURE = 0.7  # laid a card on the table while this one could have captured
PARTNER_TWIN = 1.6
"""A team's convention (the classic one of Scopone): a card laid without taking says "I
hold another of this value", so each unseen card of that value is this much likelier in
the partner's hand.  The expert keeps the convention when it lays (``TWIN_SIGNAL``)."""

def capture_rules(view: View) -> CaptureRules:
    """The (cached) capture rules of the view's rule set."""
    return _capture_rules(view.rules)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Public facts from one seat's view, as card masks."""

    hand: int
    table: int
    piles: tuple[int, ...]  # per side
    unseen: int  # in other hands or in the stock
    declared: dict[int, int]  # seat -> its declared cards still unseen (V13)

    @property
    def unseen_count(self) -> int:
        return self.unseen.bit_count()


def knowledge(view: View) -> Knowledge:
    hand = mask_of(view.hand)
    table = mask_of(view.table)
    piles = tuple(mask_of(p) for p in view.captured)
    seen = hand | table
    for p in piles:
        seen |= p
    unseen = ALL_CARDS & ~seen
    declared = {s: mask_of(cards) & unseen for s, cards in view.declared_hands if s != view.seat}
    return Knowledge(hand, table, piles, unseen, {s: m for s, m in declared.items() if m})


def current_deal_start(view: View) -> int | None:
    """Index in ``round_plays`` of the first play of the current deal (``None`` when the
    hands are refilled each turn, so a hand's history cannot be told apart)."""
    r = view.rules
    if r.refill_each_turn:
        return None
    per_deal = r.players * r.hand_size
    played = len(view.round_plays)
    return played - played % per_deal


def inference_weights(view: View, unseen: int, passes: bool = True) -> dict[int, list[float]]:
    """For each other seat, a weight per card (index 0..39) of holding it now.

    Weights start at 1 for every unseen card; each play of the current deal by that seat
    lowers the cards it could have swept the table with, taken the settebello with, or
    (when it laid its card down) captured anything with (unless ``passes`` is false: then
    only the partner's convention weighs).
    """
    seat = view.seat
    weights = {s: [1.0] * 40 for s in range(view.rules.players) if s != seat}
    start = current_deal_start(view)
    if start is None or start >= len(view.round_plays):
        return weights
    caps = capture_rules(view)
    rules = view.rules
    partners = {s for s in weights if rules.has_teams and seat is not None and rules.side_of(s) == rules.side_of(seat)}
    table = mask_of(view.table)
    # Walk the plays backwards to recover the table before each play of this deal.
    tables: list[int] = []
    t = table
    for play in reversed(view.round_plays[start:]):
        captured = mask_of(play.captured)
        t = (t | captured) if captured else (t & ~(1 << play.card))
        tables.append(t)
    tables.reverse()
    first_of_round = len(view.round_plays) - len(tables) == 0
    for i, (play, before) in enumerate(zip(view.round_plays[start:], tables)):
        if play.seat == seat or play.seat not in weights:
            continue
        w = weights[play.seat]
        captured = mask_of(play.captured)
        if not captured and play.seat in partners:
            for twin in cards_in(unseen & VALUE_MASK[play.card.value]):
                w[twin] *= PARTNER_TWIN
        if not passes:
            continue
        swept = bool(captured) and captured == before
        took_sette = bool(captured >> SETTEBELLO & 1)
        if swept and took_sette:
            continue
        first = first_of_round and i == 0
        rest = unseen
        while rest:
            low = rest & -rest
            c = low.bit_length() - 1
            rest ^= low
            value = VALUE[c]
            options = caps.options(before, value, first)
            if not options:
                continue
            if not swept and before in options:
                w[c] *= PASSED_SCOPA
            elif not took_sette and before >> SETTEBELLO & 1 and any(o >> SETTEBELLO & 1 for o in options):
                w[c] *= PASSED_SETTEBELLO
            elif not captured:
                w[c] *= PASSED_CAPTURE
    return weights
