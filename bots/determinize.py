"""Determinization: a full GameState consistent with everything one seat has seen, the
hidden cards (other hands, the stock's order) drawn at random, weighted by inference.

With a model of the players' choices (:mod:`~scopa.bots.opponent`) each draw is one of
:func:`candidates` drawn uniformly, picked with a chance proportional to how likely the
plays of the deal make its hands, times the partner's convention (sampling and
importance resampling); without one, each card's weight from
:func:`~scopa.bots.knowledge.inference_weights` shapes the draw directly."""

from __future__ import annotations

import random

from scopa.engine import GameState, Phase, View
from scopa.engine.cards import cards_in

from .knowledge import Knowledge, capture_rules, inference_weights
from .opponent import PlayModel, play_model

CANDIDATES = 16
"""Draws from the prior among which one sample is picked by the play model."""

CANDIDATES_BY_PLAYERS = {4: 4}
"""Fewer draws per sample where :data:`CANDIDATES` would cost more than the search: with
four players each drawn deal's search is small (with hands of nine it reaches two plies),
so drawing and weighing the candidates took most of a decision's time."""


def candidates(players: int) -> int:
    """Draws from the prior per sample for a game of ``players``."""
    return CANDIDATES_BY_PLAYERS.get(players, CANDIDATES)


class Sampler:
    """Draws hidden-card assignments for one decision (the weights are worked out once)."""

    def __init__(
        self, view: View, know: Knowledge, rng: random.Random, infer: bool = True, model: bool = True,
    ) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to decide for")
        self.view = view
        self.know = know
        self.rng = rng
        self.seat = view.seat
        self.others = [s for s in range(view.rules.players) if s != view.seat]
        self.model: PlayModel | None = None
        self.weights: dict[int, list[float]] | None = None  # shape the draws themselves
        self.prior: dict[int, list[float]] | None = None  # weigh the candidates with the model
        if infer and model:
            self.model = play_model(view)
            if not self.model.choices:
                self.model = None  # no play of the deal by another seat: nothing to read
            elif view.rules.has_teams:
                weights = inference_weights(view, know.unseen, passes=False)
                self.prior = {s: w for s, w in weights.items() if any(x != 1.0 for x in w)} or None
        elif infer:
            self.weights = inference_weights(view, know.unseen)
        self.template = _template_state(view, know)
        self.candidates = candidates(view.rules.players)

    @property
    def exact(self) -> bool:
        """True when the hidden cards can sit only one way (2 players, stock empty)."""
        free = self.know.unseen
        for m in self.know.declared.values():
            free &= ~m
        holders = [s for s in self.others if self.view.hand_sizes[s] > self._known_count(s)]
        return self.view.stock_left == 0 and len(holders) <= 1 or not free

    def _known_count(self, seat: int) -> int:
        return self.know.declared.get(seat, 0).bit_count()

    def sample(self) -> GameState:
        """One determinized state (a fresh copy the caller may play on)."""
        model = self.model
        hands, cards = self._draw()
        if model is not None and not self.exact:
            total = _likelihood(model, self.prior, hands, self.others)
            for _ in range(self.candidates - 1):
                h, c = self._draw()
                w = _likelihood(model, self.prior, h, self.others)
                total += w
                if total and self.rng.random() * total < w:
                    hands, cards = h, c
        self.rng.shuffle(cards)
        state = self.template.copy()
        state.hands = hands
        state.stock = [int(c) for c in cards]
        return state

    def _draw(self) -> tuple[list[int], list[int]]:
        """The hands (seat → card mask) and the rest of the hidden cards, from the prior."""
        rng = self.rng
        sizes = self.view.hand_sizes
        hands = [0] * len(sizes)
        hands[self.seat] = self.know.hand
        pool = self.know.unseen
        for s, m in self.know.declared.items():
            hands[s] = m
            pool &= ~m
        cards: list[int] = list(cards_in(pool))
        order = list(self.others)
        rng.shuffle(order)  # no seat always draws first
        for s in order:
            need = sizes[s] - hands[s].bit_count()
            if need <= 0:
                continue
            if self.weights is None:
                picked = rng.sample(cards, need)
            else:
                picked = _weighted_sample(cards, self.weights[s], need, rng)
            for c in picked:
                hands[s] |= 1 << c
            chosen = set(picked)
            cards = [c for c in cards if c not in chosen]
        return hands, cards


def _likelihood(
    model: PlayModel, prior: dict[int, list[float]] | None, hands: list[int], seats: list[int],
) -> float:
    """The candidate's weight: the play model's likelihood of its hands, times each
    card's prior weight in its hand (the partner's convention)."""
    w = 1.0
    for s in seats:
        w *= model.weight(s, hands[s])
        if prior is not None and s in prior:
            p = prior[s]
            for c in cards_in(hands[s]):
                w *= p[c]
    return w


def _weighted_sample(cards: list[int], weight: list[float], k: int, rng: random.Random) -> list[int]:
    """``k`` distinct cards, each draw proportional to its weight."""
    pool = list(cards)
    w = [weight[c] for c in pool]
    out: list[int] = []
    for _ in range(min(k, len(pool))):
        total = sum(w)
        x = rng.random() * total
        i = 0
        acc = w[0]
        while acc < x and i < len(pool) - 1:
            i += 1
            acc += w[i]
        out.append(pool.pop(i))
        w.pop(i)
    return out


def _template_state(view: View, know: Knowledge) -> GameState:
    """A GameState of the view's public part; hands and stock are filled per sample."""
    rules = view.rules
    s = GameState.new(rules, view.dealer)
    s.caps = capture_rules(view)
    s.phase = Phase.PLAY
    s.round_no = view.round_no
    s.to_move = view.to_move
    s.table = know.table
    s.piles = list(know.piles)
    s.scope = list(view.scope)
    s.scopa_cards = [[int(c) for c in sc] for sc in view.scopa_cards]
    s.totals = list(view.totals)
    s.in_hands = sum(view.hand_sizes)
    s.plays = len(view.round_plays)
    s.last_capturer = -1 if view.last_capture_side is None else view.last_capture_side
    s.hands = [0] * rules.players
    s.stock = []
    return s
