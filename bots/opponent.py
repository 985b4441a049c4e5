"""How players choose a play, softly: for reading a hand from its plays, and for the
replies the expert's search expects.

Players are modelled as choosing by a play's immediate worth (:meth:`ReplyModel.gain`:
``greedy``'s value of what the play takes and of a scopa, less a part of a card laid
down, less a risk when the table it leaves adds up to ten or less), softly: a play is
chosen with a probability proportional to ``exp(CHOICE_SHARPNESS * worth)``.

Reading a hand (:func:`play_model`): each play of the current deal was a choice among
the plays the holder's hand then allowed (the cards still held, those it played later in
the deal, and the card it played).  A hand's weight is the product, over its holder's
plays of the deal, of the chance of the play made given that hand.  Each chance's
numerator is the same for every hand, so the weight keeps the denominators only: a hand
that held a better play than the one made (a sweep passed up, the settebello left on the
table) weighs less, by how much better that play was.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp, log

from scopa.engine import Play, RuleSet, View
from scopa.engine.cards import VALUE, mask_of

from scopa.engine.sensible import LAY_COST, SCOPA, worth_table
from .knowledge import capture_rules, current_deal_start

CHOICE_SHARPNESS = 5.0
"""How sure the model is that a player takes the play worth most (per round point of
difference between two plays, their odds grow by this power of e)."""

SWEEP_RISK = 0.5
"""What a player counts against a play that leaves a table adding up to ten or less (a
sweep for whoever holds that value), in round points."""


class ReplyModel:
    """A play's immediate worth and the odds of each play of a choice, for one rule set."""

    __slots__ = ("worth", "sharpness", "risk", "scope")

    def __init__(self, rules: RuleSet, sharpness: float = CHOICE_SHARPNESS, risk: float = SWEEP_RISK) -> None:
        self.worth = worth_table(rules)
        self.sharpness = sharpness
        self.scope = not rules.frac  # R18: a sweep scores
        self.risk = risk if self.scope else 0.0

    def gain(self, table: int, card: int, capture: int) -> float:
        """The worth of playing ``card`` taking ``capture`` (0: laying it) on ``table``."""
        w = self.worth
        if capture:
            after = table ^ capture
            g = w[card]
            rest = capture
            while rest:
                low = rest & -rest
                g += w[low.bit_length() - 1]
                rest ^= low
            if not after:
                return g + SCOPA if self.scope else g
        else:
            after = table | 1 << card
            g = -LAY_COST * w[card]
        if self.risk:
            total = 0
            while after:
                low = after & -after
                total += VALUE[low.bit_length() - 1]
                after ^= low
            if total <= 10:
                g -= self.risk
        return g

    def odds(self, table: int, plays: list[Play]) -> list[float]:
        """Each play's chance relative to the likeliest one's (that one's is 1)."""
        gains = [self.gain(table, p[0], p[1]) for p in plays]
        top = max(gains)
        k = self.sharpness
        return [exp(k * (g - top)) for g in gains]


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


def play_model(view: View, model: ReplyModel | None = None) -> PlayModel:
    """The model of the other seats' choices so far in this deal (none when the hands
    are refilled each turn, as a hand's past cannot be told apart then)."""
    seat = view.seat
    start = current_deal_start(view)
    plays = view.round_plays
    if start is None or start >= len(plays):
        return PlayModel({})
    model = model or ReplyModel(view.rules)
    caps = capture_rules(view)
    k = model.sharpness
    # The table before each play of the deal, walking back from the table now.
    tables: list[int] = []
    t = mask_of(view.table)
    for play in reversed(plays[start:]):
        captured = mask_of(play.captured)
        t = (t | captured) if captured else (t & ~(1 << play.card))
        tables.append(t)
    tables.reverse()
    deal = list(plays[start:])
    out: dict[int, list[Choice]] = {}
    for i, (play, before) in enumerate(zip(deal, tables)):
        if play.seat == seat:
            continue
        first = start == 0 and i == 0
        by_value = [[], *(caps.options(before, v, first) for v in range(1, 11))]
        mass = []
        for c in range(40):
            options = by_value[VALUE[c]] or [0]
            mass.append(sum(exp(k * model.gain(before, c, o)) for o in options))
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


def reply_evidence(view: View, model: ReplyModel | None = None) -> float:
    """How well the model predicts the other side's plays of this round: summed over
    those plays, the log of the chance the model gave the play made less the log it
    expected on average (minus the choice's entropy).  About zero for a player who
    chooses as the model says, above it for one who takes the likeliest play more often
    still, below it for one whose plays surprise the model (one who searches, say).  A
    play's alternatives are those the cards then known to be in its holder's hand allowed
    (the card played and the cards the holder played later in the same deal); a play
    without one says nothing."""
    start = current_deal_start(view)
    if start is None or view.seat is None:
        return 0.0
    rules = view.rules
    mine = rules.side_of(view.seat)
    model = model or ReplyModel(rules)
    caps = capture_rules(view)
    k = model.sharpness
    plays = view.round_plays
    per_deal = rules.players * rules.hand_size
    tables: list[int] = []
    t = mask_of(view.table)
    for play in reversed(plays):
        captured = mask_of(play.captured)
        t = (t | captured) if captured else (t & ~(1 << play.card))
        tables.append(t)
    tables.reverse()
    total = 0.0
    for i, (play, before) in enumerate(zip(plays, tables)):
        if rules.side_of(play.seat) == mine:
            continue
        end = min(len(plays), i - i % per_deal + per_deal)
        held = [int(play.card)] + [int(p.card) for p in plays[i + 1:end] if p.seat == play.seat]
        options = [(c, o) for c in held for o in (caps.options(before, VALUE[c], i == 0) or [0])]
        if len(options) < 2:
            continue
        gains = [model.gain(before, c, o) for c, o in options]
        top = max(gains)
        odds = [exp(k * (g - top)) for g in gains]
        norm = sum(odds)
        made = exp(k * (model.gain(before, int(play.card), mask_of(play.captured)) - top)) / norm
        # log p(made) + the choice's entropy: the surprise the model expected less the surprise seen
        total += log(made) - sum(o / norm * log(o / norm) for o in odds if o > 0)
    return total
