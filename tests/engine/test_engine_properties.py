"""Hypothesis properties over many seeded games (R1, R8-R12, R19, R21-R23, R7):
cards conserved at every step, scores equal an independent breakdown and add up to the
totals, replaying the log gives the same game, views hide other hands and the stock,
GameMaster games terminate and are deterministic."""

from __future__ import annotations

import pytest
from conftest import check_game, check_master
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.engine import RuleSet

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
KINDS = st.sampled_from([("random",), ("greedy",), ("random", "greedy"), ("greedy", "random")])

TABLES = {
    "2p": RuleSet.build(players=2),
    "3p": RuleSet.build(players=3),
    "4p-teams": RuleSet.build(players=4),
    "4p-alone": RuleSet.build(players=4, teams=False),
    "6p-teams": RuleSet.build(players=6),
    "2p-refill": RuleSet.build(players=2, refill_each_turn=True),
    "3p-fewest": RuleSet.build(players=3, capture_mode="fewest"),
    "2p-free-max-two": RuleSet.build(players=2, capture_mode="free", max_two=True),
}


@pytest.mark.parametrize("name", list(TABLES))
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, kinds=KINDS)
def test_R1_R21_R22_invariants_over_whole_games(name, seed, kinds):
    """R1 (40 cards at every step), R19 (views hide other hands and the stock), R21/R23
    (breakdown equals an independent scorer; points add up), R22 (winner is the unique
    top at or over the target), replay of the log equals the game."""
    check_game(TABLES[name], seed, kinds)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, kinds=KINDS)
def test_R7_game_master_games_terminate_replay_and_are_deterministic(n, seed, kinds):
    """R7/R8: a GameMaster game ends; its record replays; same seed, same GameRecord."""
    check_master(RuleSet.build(players=n), seed, kinds)
