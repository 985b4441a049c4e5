"""Every built-in bot answers with a legal action (R13-R17, V13 declarations) on every
preset and on 3- and 6-player tables, and a seeded bot repeats itself."""

from __future__ import annotations

import random

import pytest

from scopa.bots import LEVELS, STRATEGIES, ExpertBot, IsmctsBot, make_bot
from scopa.bots.expert import DEFAULT_BUDGET
from scopa.bots.levels import EasyBot
from scopa.engine import Deal, Declare, GameState, Phase, Preset, RuleSet, view

TABLES = [RuleSet.build(p) for p in Preset] + [
    RuleSet.build(players=3),
    RuleSet.build(players=6),
    RuleSet.build(players=4, teams=False),
    RuleSet.build("quindici", max_two=True, asso_piglia_tutto="off", refill_each_turn=True, hand_size=3),
    RuleSet.build("scopa", asso_piglia_tutto="traditional", napola=True, re_bello=True, ponino=True),
]


def _bot(strategy: str, seed: int):
    if strategy in ("expert", "hard"):
        return ExpertBot(seed=seed, budget=40, leaves=12)  # tiny: legality, not strength
    if strategy == "ismcts":
        return IsmctsBot(seed=seed, iterations=8)
    return make_bot(strategy, seed=seed)


def play_round_checked(rules: RuleSet, strategy: str, seed: int) -> tuple[list, int]:
    """One round with ``strategy`` in every seat; every answer must be in the legal list.
    Returns the actions and how many declarations were made."""
    rng = random.Random(seed)
    state = GameState.new(rules, rng.randrange(rules.players))
    while state.phase is Phase.DEAL:
        order = list(range(40))
        rng.shuffle(order)
        state.apply(Deal(tuple(order)))
    bots = [_bot(strategy, seed * 10 + i) for i in range(rules.players)]
    actions = []
    declared = 0
    rounds = len(state.history)
    while state.phase is Phase.PLAY and len(state.history) == rounds:
        seat = state.to_move
        legal = state.legal_actions()
        answer = bots[seat].pick(view(state, seat), legal)
        assert answer in legal, (strategy, rules.describe(), answer)
        if isinstance(answer, Declare):
            declared += 1
        state.apply(answer, seat)
        actions.append(answer)
    return actions, declared


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.describe())
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_bot_plays_only_legal_actions(rules: RuleSet, strategy: str) -> None:
    actions, _ = play_round_checked(rules, strategy, seed=3)
    assert actions  # a whole round was played


@pytest.mark.parametrize("strategy", ["greedy", "expert", "greedy-v1", "chitarella"])
def test_cirulla_declarations_are_taken(strategy: str) -> None:
    """V13: over a few rounds the bots meet declarable hands and declare them."""
    rules = RuleSet.build("cirulla")
    total = sum(play_round_checked(rules, strategy, seed)[1] for seed in range(12))
    assert total > 0


@pytest.mark.parametrize("strategy", ["random", "expert", "easy", "ismcts"])
def test_a_seeded_bot_repeats_itself(strategy: str) -> None:
    rules = RuleSet.build("scopa")
    first, _ = play_round_checked(rules, strategy, seed=21)
    again, _ = play_round_checked(rules, strategy, seed=21)
    assert first == again


def test_levels_are_strategies_people_can_choose() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard"]
    assert all(level in STRATEGIES for level in LEVELS)
    assert isinstance(make_bot("easy", seed=1), EasyBot)
    assert type(make_bot("medium")) is type(make_bot("greedy"))
    hard = make_bot("hard", name="Hal", seed=2)
    assert isinstance(hard, ExpertBot) and hard.budget == DEFAULT_BUDGET // 4
    assert hard.name == "Hal"
    with pytest.raises(ValueError, match="unknown strategy"):
        make_bot("grandmaster")


async def test_the_expert_plays_a_whole_game_through_the_game_master() -> None:
    """``choose`` thinks in a thread; the game master gets legal answers all game long (R22)."""
    from scopa.engine import play_local

    rules = RuleSet.build("scopa")
    record = await play_local(rules, [ExpertBot(seed=1, budget=30, leaves=8), make_bot("greedy")], seed=3)
    assert record.winner is not None and max(record.totals) >= rules.target
