"""Reading a hand from its plays: how likely a whole hand is, given the plays its holder
made in the current deal.

Each play of the deal was a choice among the plays the holder's hand then allowed (the
cards still held, those it played later in the deal, and the card it played).  Players
are modelled as choosing by a play's immediate worth (``greedy``'s gain: what it takes,
a scopa, less a part of a card laid down), softly: a play is chosen with a probability
proportional to ``exp(CHOICE_SHARPNESS * worth)``.  A hand's weight is the product, over
its holder's plays of the deal, of the chance of the play made given that hand.  Each
chance's numerator is the same for every hand, so the weight keeps the denominators
only: a hand that held a better play than the one made (a sweep passed up, the
settebello left on the table) weighs less, by how much better that play was.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp

from scopa.engine import View
from scopa.engine.cards import VALUE, mask_of

from .greedy import LAY_COST, SCOPA, worth_table
from .knowledge import capture_rules, current_deal_start

CHOICE_SHARPNESS = 5.0
"""How sure the model is that a player takes the play worth most (per round point of
difference between two plays, their odds grow by this power of e)."""

SWEEP_RISK = 0.5
"""What a player counts against a play that leaves a table adding up to ten or less (a
sweep for whoever holds that value), in round points."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One play of the deal by a seat, as a hand's weight needs it."""

    fixed: float  # the play's alternatives from cards known to have been in the hand
    mass: tuple[float, ...]  # per card id: the alternatives that card would have added


@dataclass(frozen=True, slots=True)
class PlayModel:
    """The choices each other seat made in the current deal."""

    choices: dict[int, tuple[Choice, ...]]

    def weight(self, seat: int, hand: int) -> float:
        """The relative likelihood of ``seat`` holding ``hand`` now (a card mask)."""
        w = 1.0
        for choice in self.choices.get(seat, ()):
            total = choice.fixed
            mass = choice.mass
            rest = hand
            while rest:
                low = rest & -rest
                total += mass[low.bit_length() - 1]
                rest ^= low
            w /= total
        return w


def play_model(view: View, sharpness: float = CHOICE_SHARPNESS, risk: float = SWEEP_RISK) -> PlayModel:
    """The model of the other seats' choices so far in this deal (none when the hands
    are refilled each turn, as a hand's past cannot be told apart then)."""
    seat = view.seat
    start = current_deal_start(view)
    plays = view.round_plays
    if start is None or start >= len(plays):
        return PlayModel({})
    caps = capture_rules(view)
    worth = worth_table(view.rules)
    scoring_scope = not view.rules.frac

    def taken(mask: int) -> float:
        total = 0.0
        while mask:
            low = mask & -mask
            total += worth[low.bit_length() - 1]
            mask ^= low
        return total

    def threat(after: int) -> float:
        if not (risk and after and scoring_scope):
            return 0.0
        total = 0
        while after:
            low = after & -after
            total += VALUE[low.bit_length() - 1]
            after ^= low
        return risk if total <= 10 else 0.0

    def gain(capture: int, after: int) -> float:
        if not after:
            return taken(capture) + (SCOPA if scoring_scope else 0.0)
        return taken(capture) - threat(after)

    # The table before each play of the deal, walking back from the table now.
    tables: list[int] = []
    t = mask_of(view.table)
    for play in reversed(plays[start:]):
        captured = mask_of(play.captured)
        t = (t | captured) if captured else (t & ~(1 << play.card))
        tables.append(t)
    tables.reverse()
    deal = list(plays[start:])
    first_of_round = start == 0
    out: dict[int, list[Choice]] = {}
    for i, (play, before) in enumerate(zip(deal, tables)):
        if play.seat == seat:
            continue
        first = first_of_round and i == 0
        by_value = [0.0] * 11
        for v in range(1, 11):
            by_value[v] = sum(exp(sharpness * gain(o, before ^ o)) for o in caps.options(before, v, first))
        mass = []
        for c in range(40):
            v = VALUE[c]
            if by_value[v]:
                mass.append(by_value[v] * exp(sharpness * worth[c]))
            else:
                mass.append(exp(sharpness * (-LAY_COST * worth[c] - threat(before | 1 << c))))
        held = 1 << int(play.card)
        for later in deal[i + 1:]:
            if later.seat == play.seat:
                held |= 1 << int(later.card)
        fixed = 0.0
        rest = held
        while rest:
            low = rest & -rest
            fixed += mass[low.bit_length() - 1]
            rest ^= low
        out.setdefault(play.seat, []).append(Choice(fixed, tuple(mass)))
    return PlayModel({s: tuple(c) for s, c in out.items()})
