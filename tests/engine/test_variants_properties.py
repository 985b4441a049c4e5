"""Hypothesis properties for every preset and for combined extras (V1-V13): cards
conserved, scores equal an independent breakdown, replays equal, views hide secrets
(except Cirulla's declared hands), GameMaster games terminate deterministically."""

from __future__ import annotations

import pytest
from conftest import check_game, check_master
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.engine import Preset, RuleSet

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
KINDS = st.sampled_from([("random",), ("greedy",), ("random", "greedy"), ("greedy", "random")])

EXTRAS = {
    "extras-2p": RuleSet.build(re_bello=True, napola=True, ponino=True, asso_piglia_tutto="simple"),
    "extras-4p": RuleSet.build(players=4, re_bello=True, napola=True, ponino=True,
                               asso_piglia_tutto="traditional", max_two=True),
    "quindici-3p": RuleSet.build("quindici", players=3, capture_mode="fewest"),
    "cirulla-4p": RuleSet.build("cirulla", players=4),
    "cirulla-3p-refill": RuleSet.build("cirulla", players=3, refill_each_turn=True),
    "escoba-6p": RuleSet.build("escoba", players=6),
    "frac-4p": RuleSet.build("frac", players=4),
}


@pytest.mark.parametrize("preset", [p.value for p in Preset])
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, kinds=KINDS)
def test_V1_V13_invariants_for_every_preset(preset, seed, kinds):
    """Every preset (V4-V8, V12, V13 ...): invariants at every step and replay."""
    check_game(RuleSet.build(preset), seed, kinds)


@pytest.mark.parametrize("name", list(EXTRAS))
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, kinds=KINDS)
def test_V1_V13_invariants_for_combined_extras(name, seed, kinds):
    """Optional extras combined (V1, V2, V3, V9, V10, V11) and presets at other counts."""
    check_game(EXTRAS[name], seed, kinds)


@pytest.mark.parametrize("preset", [p.value for p in Preset])
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, kinds=KINDS)
def test_V1_V13_game_master_terminates_and_is_deterministic(preset, seed, kinds):
    """Every preset: a GameMaster game ends, replays from its record, same seed same record."""
    check_master(RuleSet.build(preset), seed, kinds)
