"""The view carries every public fact (R19, R20): this round's plays in order, the side
that captured last, and what anyone can count in each side's pile."""

from __future__ import annotations

import random

from scopa.engine import Deal, GameState, RuleSet, view
from scopa.engine.cards import DENARI_MASK, SETTEBELLO, cards_in
from scopa.engine.scoring import primiera_sum


def _play_some(seed: int, plays: int) -> tuple[GameState, list[tuple[int, int, int]]]:
    rng = random.Random(seed)
    state = GameState.new(RuleSet(), first_dealer=0)
    deck = list(range(40))
    rng.shuffle(deck)
    state.apply(Deal(tuple(deck)))
    seen: list[tuple[int, int, int]] = []
    for _ in range(plays):
        seat = state.to_move
        play = rng.choice(state.legal_plays())
        seen.append((seat, play.card, play.capture))
        state.apply(play, seat)
    return state, seen


def test_round_plays_are_listed_in_order_for_every_seat() -> None:
    state, seen = _play_some(seed=3, plays=9)
    for seat in (0, 1, None):
        v = view(state, seat)
        assert [(p.seat, int(p.card), sum(1 << c for c in p.captured)) for p in v.round_plays] == seen


def test_piles_and_last_capturer_are_counted() -> None:
    for seed in range(20):
        state, seen = _play_some(seed=seed, plays=12)
        v = view(state, 0)
        capturers = [state.side[s] for s, _, cap in seen if cap]
        assert v.last_capture_side == (capturers[-1] if capturers else None)
        for side, pile in enumerate(state.piles):
            summary = v.piles[side]
            assert summary.cards == len(cards_in(pile)) == len(v.captured[side])
            assert summary.denari == len(cards_in(pile & DENARI_MASK))
            assert summary.settebello == (SETTEBELLO in v.captured[side])
            assert summary.primiera == primiera_sum(pile)
            assert summary.scope == v.scope[side]


def test_a_new_round_starts_with_no_plays() -> None:
    rng = random.Random(5)
    state = GameState.new(RuleSet(), first_dealer=0)
    deck = list(range(40))
    rng.shuffle(deck)
    state.apply(Deal(tuple(deck)))
    while state.phase.value == "play":
        state.apply(rng.choice(state.legal_plays()))
    assert len(view(state, 0).round_plays) == 36  # R9: the whole deck is played out
    rng.shuffle(deck)
    state.apply(Deal(tuple(deck)))
    assert view(state, 0).round_plays == ()
