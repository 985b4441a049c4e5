"""scopa.rl's AEC environment: the PettingZoo API and seed tests, what each seat may see
(R7, R19), rewards (R21-R23), and games that replay at a real table (R8)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from scopa.bots import RandomBot
from scopa.engine import LocalGame, GameState, Phase, Preset, RuleSet, replay
from scopa.engine.cards import cards_in
from scopa.rl import IllegalActionError, ScopaEnv, env, raw_env
from scopa.rl.observation import CARD_BLOCKS, LAYOUT, OBS_SIZE

CONFIGS = [(p.value, {}) for p in Preset] + [
    ("scopa", {"players": 3}),
    ("scopa", {"players": 4}),
    ("scopa", {"players": 4, "teams": False}),
    ("scopa", {"players": 6}),
    ("scopa", {"refill_each_turn": True, "asso_piglia_tutto": "simple"}),
]


def play(e: ScopaEnv, rng: np.random.Generator, hook=None) -> None:
    """One whole episode with uniformly random allowed actions."""
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        if hook is not None:
            hook(e, agent)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("rules", ["scopa", "scopone", "cirulla"])
def test_pettingzoo_api_test(rules: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations draw advisory warnings, as in classic envs
        api_test(env(rules=rules), num_cycles=1000)


@pytest.mark.parametrize("rules,options", CONFIGS, ids=lambda x: str(x))
def test_pettingzoo_api_test_every_preset_and_player_count(rules: str, options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(rules=rules, **options), num_cycles=300)


@pytest.mark.parametrize("rules", ["scopa", "scopone", "cirulla"])
def test_pettingzoo_seed_test(rules: str) -> None:
    seed_test(lambda: env(rules=rules), num_cycles=500)


def trajectory(e: ScopaEnv, seed: int, games: int = 2) -> list[tuple]:
    out: list[tuple] = []
    rng = np.random.default_rng(7)
    for g in range(games):
        e.reset(seed=seed if g == 0 else None)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc))
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def test_same_seed_same_trajectory_other_seed_other_game() -> None:
    a = trajectory(raw_env("scopone"), seed=11)
    b = trajectory(raw_env("scopone"), seed=11)
    c = trajectory(raw_env("scopone"), seed=12)
    assert a == b
    assert a[0] != c[0]  # another deal
    # the seed given at construction is used by the first reset without a seed
    d, e = raw_env("scopone", seed=11), raw_env("scopone")
    d.reset()
    e.reset(seed=11)
    assert [x.order for x in d.actions] == [x.order for x in e.actions]


@pytest.mark.parametrize("rules,options", CONFIGS, ids=lambda x: str(x))
def test_env_games_replay_at_a_game_master_with_the_game_seed(rules: str, options: dict) -> None:
    """R8: the environment shuffles as the GameMaster does, so its games replay there."""
    e = raw_env(rules, seed=3, **options)
    e.reset()
    play(e, np.random.default_rng(0))
    s = e.game
    assert s.phase is Phase.OVER
    bots = [RandomBot() for _ in range(e.rules.players)]
    gm = LocalGame(e.rules, bots, seed=e.game_seed)
    gm.restore(e.actions)  # refuses deals that do not follow from the seed
    assert gm.state.totals == s.totals and gm.state.winner == s.winner
    again = replay(e.rules, e.first_dealer, e.actions)
    assert again.totals == s.totals and again.history == s.history


def hidden_cards(s: GameState, seat: int) -> list[int]:
    """Cards ``seat`` may not see: other seats' hands (less declared cards, V13) and the stock."""
    out: list[int] = list(s.stock)
    for other in range(s.n):
        if other != seat:
            shown = s.declared_hands.get(other, 0)
            out += [int(x) for x in cards_in(s.hands[other] & ~shown)]
    return out


def reshuffled(s: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position for ``seat``, with the hidden cards dealt among the other hands
    and the stock in another order."""
    t = s.copy()
    hidden = hidden_cards(s, seat)
    rng.shuffle(hidden)
    t.stock = hidden[: len(s.stock)]
    rest = hidden[len(s.stock) :]
    for other in range(s.n):
        if other != seat:
            shown = s.declared_hands.get(other, 0) & s.hands[other]
            k = (s.hands[other] & ~shown).bit_count()
            t.hands[other] = shown | sum(1 << x for x in rest[:k])
            rest = rest[k:]
    assert not rest
    return t


@pytest.mark.parametrize("rules,options", CONFIGS, ids=lambda x: str(x))
def test_no_observation_holds_another_seats_hand_or_the_stock(rules: str, options: dict) -> None:
    """R7/R19: no card-indexed block of any seat's observation marks a card hidden from
    that seat, and dealing the hidden cards differently changes no observation."""
    e = raw_env(rules, seed=5, **options)
    e.reset()
    rng = random.Random(1)
    checked = {"observations": 0, "with_hidden": 0}

    def check(env_: ScopaEnv, _agent: str) -> None:
        s = env_.game
        for agent in env_.agents:
            seat = env_.seat_of(agent)
            obs = env_.observe(agent)
            hidden = hidden_cards(s, seat)
            for name in CARD_BLOCKS:
                block = obs["observation"][LAYOUT[name]].reshape(-1, 40)
                assert not block[:, hidden].any(), f"{name} shows a hidden card to seat {seat}"
            env_._game = reshuffled(s, seat, rng)
            try:
                other = env_.observe(agent)
            finally:
                env_._game = s
            assert np.array_equal(obs["observation"], other["observation"])
            assert np.array_equal(obs["action_mask"], other["action_mask"])
            checked["observations"] += 1
            checked["with_hidden"] += bool(hidden)

    play(e, np.random.default_rng(2), hook=check)
    assert checked["with_hidden"] > 50


def test_observation_blocks_follow_the_layout() -> None:
    """Own hand, table, piles per relative side and hand sizes land in their blocks."""
    e = raw_env("scopone", seed=9)
    e.reset()
    agent = e.agent_selection
    seat = e.seat_of(agent)
    obs = e.observe(agent)["observation"]
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    s = e.game
    hand = obs[LAYOUT["hand"]]
    assert set(np.flatnonzero(hand)) == {int(x) for x in cards_in(s.hands[seat])}
    assert set(np.flatnonzero(obs[LAYOUT["table"]])) == {int(x) for x in cards_in(s.table)}
    assert np.allclose(obs[LAYOUT["hand_sizes"]][:4], 9 / 20)
    assert obs[LAYOUT["players"]].tolist() == [0, 0, 1, 0] and obs[LAYOUT["teams"]][0] == 1
    dealer_rel = (s.dealer - seat) % 4
    assert np.flatnonzero(obs[LAYOUT["dealer"]]).tolist() == [dealer_rel]
    # a play by this seat shows up as relative seat 0's, in the order block as play 1
    card = int(np.flatnonzero(e.observe(agent)["action_mask"][:40])[0])
    e.step(card)
    after = e.observe(agent)["observation"]
    assert after[LAYOUT["played_by"]].reshape(6, 40)[0, card] == 1.0
    assert after[LAYOUT["play_order"]][card] == pytest.approx(1 / 40)
    assert not e.observe(agent)["action_mask"].any()  # not this agent's turn any more


@pytest.mark.parametrize("rules,options", [("scopone", {}), ("scopa", {"players": 3}), ("cirulla", {})])
def test_points_rewards_add_up_to_the_game_totals(rules: str, options: dict) -> None:
    """R21/R23: each seat's rewards over a game are its side's total; partners share."""
    e = raw_env(rules, seed=4, **options)
    e.reset()
    got = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(3)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        got[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    s = e.game
    sides = [s.rules.side_of(e.seat_of(a)) for a in e.possible_agents]
    if s.end_reason.value == "target":
        assert [got[a] for a in e.possible_agents] == [float(s.totals[x]) for x in sides]
    assert sum(got.values()) > 0


def test_margin_rewards_are_zero_sum_and_win_rewards_name_the_winner() -> None:
    e = raw_env("scopa", seed=8, reward="margin", players=3)
    e.reset()
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sum(total.values()) == pytest.approx(0.0) and any(total.values())
    w = raw_env("scopone", seed=8, reward="win")
    w.reset()
    final: dict[str, float] = {}
    for agent in w.agent_iter():
        obs, reward, term, trunc, _ = w.last()
        if term:
            final[agent] = reward
        w.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    winner = w.game.winner
    assert final == {f"player_{i}": (1.0 if i % 2 == winner else -1.0) for i in range(4)}


def test_rounds_option_ends_the_episode_after_one_round_as_a_truncation() -> None:
    e = raw_env("scopa", seed=2, rounds=1)
    e.reset()
    play(e, np.random.default_rng(0))
    assert e.rounds_played == 1 and e.game.phase is Phase.DEAL and len(e.game.history) == 1
    assert e.agents == []


def test_a_masked_action_is_refused_and_changes_nothing() -> None:
    e = raw_env("scopa", seed=1)
    e.reset()
    agent = e.agent_selection
    before = (e.observe(agent)["observation"].copy(), list(e.actions), e.selection)
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    for action in (bad, 63, -1, None, "3", 2.5, [1]):
        with pytest.raises(IllegalActionError):
            e.step(action)
    assert np.array_equal(before[0], e.observe(agent)["observation"])
    assert e.actions == before[1] and e.selection == before[2] and e.agent_selection == agent


def test_env_options_and_render() -> None:
    e = raw_env("scopa", seed=1, render_mode="ansi", players=4)
    assert e.rules.players == 4 and e.possible_agents == [f"player_{i}" for i in range(4)]
    e.reset()
    text = e.render()
    assert isinstance(text, str) and "table:" in text and "to move" in text
    words = set(text.replace(",", " ").split())
    assert not words & {str(x) for h in e.game.hands for x in cards_in(h)}  # public only
    for bad in ({"reward": "money"}, {"rounds": 0}, {"render_mode": "rgb_array"}, {"players": 5}):
        with pytest.raises(ValueError):
            raw_env("scopa", **bad)
    with pytest.raises(ValueError):
        raw_env(RuleSet.build("scopone"), players=4)
