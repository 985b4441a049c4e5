"""The optional C accelerator lists exactly the plays the pure-Python path lists
(R13-R17, V1, V6, V9/V10, V13 captures come from the same cached templates)."""

from __future__ import annotations

import random

import pytest

from scopa.engine import Deal, GameState, Phase, Play, RuleSet
from scopa.engine import state as state_module

RULES = [
    RuleSet.build(),
    RuleSet.build(capture_mode="fewest", max_two=True),
    RuleSet.build(capture_mode="free", asso_piglia_tutto="traditional"),
    RuleSet.build("quindici"),
    RuleSet.build("cirulla"),
    RuleSet.build("scopone"),
]


def _python_plays(s: GameState) -> list[Play]:
    saved = state_module._c_legal_plays
    state_module._c_legal_plays = None
    try:
        return s.legal_plays()
    finally:
        state_module._c_legal_plays = saved


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_accelerated_and_python_plays_agree(rules: RuleSet) -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(25):
        s = GameState.new(rules, rng.randrange(rules.players))
        while s.phase is not Phase.OVER:
            if s.phase is Phase.DEAL:
                order = list(range(40))
                rng.shuffle(order)
                s.apply(Deal(tuple(order)))
                continue
            fast, slow = s.legal_plays(), _python_plays(s)
            assert fast == slow
            assert all(type(p) is Play for p in fast)
            checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 500


def test_the_accelerator_is_in_use_when_built() -> None:
    try:
        from scopa.engine._speedups import legal_plays
    except ImportError:  # no C compiler at install time: the Python path serves
        assert state_module._c_legal_plays is None
    else:
        assert state_module._c_legal_plays is legal_plays
