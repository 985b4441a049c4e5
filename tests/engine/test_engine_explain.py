"""``GameState.explain`` is the one home of legality: it agrees with ``legal_actions``
for every candidate move, says why a move is refused, and changes nothing (R13-R17)."""

from __future__ import annotations

import random

import pytest

from scopa.engine import (
    CardNotInHandError,
    Deal,
    GameMaster,
    GameState,
    IllegalCaptureError,
    NotYourTurnError,
    Play,
    Preset,
    RuleSet,
    WrongPhaseError,
)


def _dealt(rules: RuleSet, seed: int) -> GameState:
    rng = random.Random(seed)
    state = GameState.new(rules, first_dealer=0)
    deck = list(range(40))
    rng.shuffle(deck)
    state.apply(Deal(tuple(deck)))
    return state


@pytest.mark.parametrize("preset", [p.value for p in Preset])
def test_explain_agrees_with_the_legal_list_on_every_candidate(preset: str) -> None:
    rules = RuleSet.build(preset)
    for seed in range(4):
        state = _dealt(rules, seed)
        rng = random.Random(seed)
        while not state.game_over and state.phase.value == "play":
            legal = set(state.legal_plays())
            seat = state.to_move
            hand = state.hands[seat]
            for card in range(40):
                if not hand >> card & 1:
                    continue
                # every subset of the table (small tables) or a sample (large ones)
                table = [c for c in range(40) if state.table >> c & 1]
                masks = {0} | {sum(1 << c for c in table if rng.random() < 0.5) for _ in range(12)}
                masks |= {m.capture for m in legal if m.card == card}
                for capture in masks:
                    play = Play(card, capture)
                    before = (state.hands[:], state.table, state.piles[:])
                    error = state.explain(play, seat)
                    assert (error is None) == (play in legal), (play, error)
                    assert (state.hands, state.table, state.piles) == before
            state.apply(rng.choice(state.legal_actions()), seat)


def test_explain_says_why() -> None:
    state = _dealt(RuleSet(), seed=1)
    seat = state.to_move
    other = 1 - seat
    mine = next(c for c in range(40) if state.hands[seat] >> c & 1)
    theirs = next(c for c in range(40) if state.hands[other] >> c & 1)
    assert isinstance(state.explain(Play(mine, 0), other), NotYourTurnError)
    assert isinstance(state.explain(Play(theirs, 0), seat), CardNotInHandError)
    not_on_table = next(c for c in range(40) if not state.table >> c & 1 and c != mine)
    assert isinstance(state.explain(Play(mine, 1 << not_on_table), seat), IllegalCaptureError)
    assert isinstance(state.explain(Deal(tuple(range(40)))), WrongPhaseError)
    assert isinstance(state.explain("7d", seat), WrongPhaseError)
    with pytest.raises(IllegalCaptureError):
        state.apply(Play(mine, 1 << not_on_table), seat)


def test_the_default_play_is_a_legal_play_in_every_preset() -> None:
    """Every variant's game master plays, for a seat that does not answer, a play the
    engine accepts (never a declaration: V13's are the seat's choice)."""
    for preset in Preset:
        master = GameMaster(RuleSet.build(preset.value), 9)
        master.start()
        for _ in range(12):
            ask = master.asking
            if ask is None:
                break
            action = master.default_play()
            assert isinstance(action, Play) and master.state.explain(action, ask.seat) is None
            master.timeout(ask.seat)
