"""``expert``: determinized search (Perfect-Information Monte Carlo).

For each decision it draws deals consistent with everything public (the table, every
captured pile, the round's plays, hand sizes, the stock's size), weighted by how likely
the other players' plays of the deal make their hands (:mod:`~scopa.bots.opponent`),
searches each one and plays the move with the best average.  In the search the other
side's moves are expected from the same model of how players choose (a soft choice by
a play's immediate worth) rather than assumed the worst for the expert, which no player
who cannot see its hand would find; with two players (``adapt``) it leans on that model
only as far as the model has predicted the other side's plays of the round so far, the
rest of their value being the minimum.  Where no such model applies (three sides,
scoring variants) the search is alpha-beta minimax.  When the hidden cards can lie only one way
(two players and an empty stock) it searches the rest of the round to its end.

At the search's horizon it values a position with the learnt evaluation of
:mod:`~scopa.bots.horizon` (the hand-written estimate for rules it was not fitted to).
With teams the search plays for the side: the partner's moves are chosen for the team's
good within each deal drawn, and the partner's plays weigh the draws as the opponents'
do, with the team's convention besides (a card laid without taking says "I hold its
twin", which the expert also keeps when it lays); the partner's hand is never looked at.

The effort is counted in work (plays pushed during search; with four players, a share of
the budget, :data:`BUDGET_SHARE`), so a seeded expert always plays the same way;
``time_limit`` may stop it earlier when a person is waiting.
"""

from __future__ import annotations

import random
import time
from math import exp
from typing import Callable, Sequence

from scopa.engine import Declare, Play, RuleSet, View
from scopa.engine.cards import VALUE, VALUE_MASK, mask_of

from .base import ThinkingBot, choices
from .determinize import Sampler
from .knowledge import knowledge
from .opponent import ReplyModel, reply_evidence
from .horizon import evaluator_for, has_weights
from .search import SWEEP_THREAT, Search, plies_within, remaining_plies

DEFAULT_BUDGET = 12000
"""Work per decision, in plays pushed (a sample's dealing counts as half a play per hidden
card): about 70 ms of CPU per searched move on the machine it was calibrated on (a
shared 2-core x86-64 server, about 6 µs per play pushed with the reply model)."""

BUDGET_SHARE = {4: 2 / 3}
"""The share of the budget a decision spends with this many players, where it is not all:
with four, a searched move cost more time per play of work (each drawn deal's search is
small, so dealing the samples weighs more); this and fewer candidate draws
(:data:`~scopa.bots.determinize.CANDIDATES_BY_PLAYERS`) keep its moves as quick as in
scopa."""


def work_budget(budget: int, players: int) -> int:
    """The work one decision of a game of ``players`` may spend, from the bot's budget."""
    return max(1, round(budget * BUDGET_SHARE.get(players, 1.0)))

DEFAULT_LEAVES = 50
"""Full-width leaves one determinization's search may reach before it stops deeper."""

MIN_DEPTH = 2
"""Plies every search sees at least: a play and the next player's answer (with long
hands, as in scopone, the leaf budget alone would stop after the play)."""

TWIN_SIGNAL = 0.05
"""With a partner, laying a card of which the hand holds another of the same value is
worth this much more (round points a sample): the partner reads such a card as a twin
held (:data:`~scopa.bots.knowledge.PARTNER_TWIN`)."""

EXACT_LEAVES = 2000
"""A search this small or smaller runs to the round's end (exact for that deal)."""


def make_search(
    rules: RuleSet, side: int, learnt: bool = True, replies: bool = True, trust: float = 1.0,
) -> Search:
    """The search for ``side``: the learnt evaluation at the horizon where it covers the
    rules (it values a sweep the next player holds itself), else the estimate plus
    :data:`~scopa.bots.search.SWEEP_THREAT`; where the evaluation is learnt (two sides,
    plain scoring), the other side's moves are expected from the reply model of
    :mod:`~scopa.bots.opponent` (unless ``replies`` is false: then minimax)."""
    learnt = learnt and has_weights(rules)
    threat = 0.0 if rules.frac or learnt else SWEEP_THREAT
    model = ReplyModel(rules) if replies and learnt else None
    return Search(side, threat, evaluator_for(rules, learnt), model, trust)


TRUST_PRIOR = 1.0
TRUST_SLOPE = 3.0
"""With ``adapt``, the reply model's share of another side's value is the logistic of
``TRUST_PRIOR + TRUST_SLOPE * evidence`` (:func:`~scopa.bots.opponent.reply_evidence`):
0.73 before any evidence, near 1 against a player that chooses by immediate worth, near
0 against one whose plays surprise the model more than it expected."""


ADAPT_PLAYERS = frozenset({2})
"""Player counts at which the expert adapts its trust in the reply model unless told
(``adapt``): measured in scopa, where it played better against ``ismcts`` and no worse
against ``greedy-v1``; with four players it was not measured, so it is off there."""


def reply_trust(evidence: float) -> float:
    """The share of another side's value the search takes from the reply model."""
    return 1.0 / (1.0 + exp(-(TRUST_PRIOR + TRUST_SLOPE * evidence)))


class ExpertBot(ThinkingBot):
    """Determinized search with inference; see the module documentation."""

    def __init__(
        self,
        name: str | None = None,
        seed: int | None = None,
        budget: int = DEFAULT_BUDGET,
        leaves: int = DEFAULT_LEAVES,
        time_limit: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
        infer: bool = True,
        learnt: bool = True,
        model: bool = True,
        replies: bool = True,
        adapt: bool | None = None,
    ) -> None:
        super().__init__(name or "expert")
        if budget < 1:
            raise ValueError("budget must be at least 1 play")
        self.rng = random.Random(seed)
        self.budget = budget
        self.leaves = leaves
        self.time_limit = time_limit
        self.clock = clock
        self.infer = infer
        self.learnt = learnt
        self.model = model
        self.replies = replies
        self.adapt = adapt
        self.last_nodes = 0  # work done for the last decision
        self.last_samples = 0

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.last_nodes = self.last_samples = 0
        plays = choices(view, legal)
        if not isinstance(plays, list):
            return plays
        assert view.seat is not None  # choices() settles a seat-less view
        sampler = Sampler(view, knowledge(view), self.rng, self.infer, self.model)
        adapt = view.rules.players in ADAPT_PLAYERS if self.adapt is None else self.adapt
        trust = reply_trust(reply_evidence(view)) if adapt else 1.0
        search = make_search(view.rules, view.rules.side_of(view.seat), self.learnt, self.replies, trust)
        totals = [0.0] * len(plays)
        budget = work_budget(self.budget, view.rules.players)
        start = self.clock()
        samples = 0
        draw_cost = sampler.know.unseen_count // 2  # dealing hidden cards counts as work too
        while True:
            state = sampler.sample()
            search.nodes += draw_cost
            left = remaining_plies(state)
            depth = max(plies_within(state, self.leaves), min(MIN_DEPTH, left))
            if depth < left and not state.stock and plies_within(state, EXACT_LEAVES) >= left:
                depth = left  # the last cards: search to the round's end
            for i, p in enumerate(plays):
                totals[i] += search.value(state, p, depth, -1e9, 1e9)
            samples += 1
            if sampler.exact or search.nodes >= budget:
                break
            if self.time_limit is not None and self.clock() - start >= self.time_limit:
                break
        self.last_nodes = search.nodes
        self.last_samples = samples
        if view.rules.has_teams:
            hand = mask_of(view.hand)
            for i, (card, capture) in enumerate(plays):
                if not capture and hand & ~(1 << card) & VALUE_MASK[VALUE[card]]:
                    totals[i] += TWIN_SIGNAL * samples
        best = max(range(len(plays)), key=totals.__getitem__)
        return plays[best]
