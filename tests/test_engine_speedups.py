"""The optional C accelerator lists exactly the plays the pure-Python path lists
(R13-R17, V1, V6, V9/V10, V13 captures come from the same cached templates)."""

from __future__ import annotations

import pytest

from conftest import random_turns

from scopa.engine import GameState, Play, RuleSet
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
    checked = 0
    for s, rng in random_turns(rules, 25, seed=11):
        fast, slow = s.legal_plays(), _python_plays(s)
        assert fast == slow
        assert all(type(p) is Play for p in fast)
        checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked > 500


def test_the_accelerator_is_in_use_when_built() -> None:
    try:
        from scopa.engine._speedups import legal_plays, push_plain
    except ImportError:  # no C compiler at install time: the Python paths serve
        assert state_module._c_legal_plays is None and state_module._c_push_plain is None
    else:
        assert state_module._c_legal_plays is legal_plays and state_module._c_push_plain is push_plain


SLOTS = [name for name in GameState.__slots__ if name not in ("rules", "caps")]


def _snapshot(s: GameState) -> dict[str, object]:
    return {name: getattr(s, name) for name in SLOTS}


ALL_RULES = [*RULES, RuleSet.build("trentino"), RuleSet.build(refill_each_turn=True), RuleSet.build(players=6),
             RuleSet.build("escoba", players=3, napola=False)]


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.describe())
def test_accelerated_push_changes_the_state_exactly_as_python_push(rules: RuleSet) -> None:
    """push_plain moves the cards of ordinary plays; every other play (a sweep, R18; a
    hand's last card, R11/R20; variant bookkeeping) is left to Python.  Either way the
    state after each play is the one the pure-Python push gives."""
    if state_module._c_push_plain is None:  # not built: the Python path is the only path
        assert state_module._c_legal_plays is None
    fast_steps = 0
    for s, rng in random_turns(rules, 20, seed=21):
        action = rng.choice(s.legal_actions())
        if not isinstance(action, Play):
            s.apply(action)
            continue
        slow = s.copy()
        saved = state_module._c_push_plain
        state_module._c_push_plain = None
        try:
            slow.push(action)
        finally:
            state_module._c_push_plain = saved
        if saved is not None and saved(s.copy(), action):
            fast_steps += 1
        s.push(action)
        assert _snapshot(s) == _snapshot(slow)
    assert fast_steps > 0 or state_module._c_push_plain is None or rules.cirulla or rules.trentino \
        or rules.refill_each_turn
