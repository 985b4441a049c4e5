"""scopa.rl's Gymnasium wrapper and the bridges: a policy as an SDK Bot (local games, TCP)
and the built-in bots as PettingZoo policies."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from gymnasium.utils.env_checker import (
    check_action_space,
    check_observation_space,
    check_reset_options,
    check_reset_return_type,
    check_reset_seed_determinism,
    env_reset_passive_checker,
    env_step_passive_checker,
)

from scopa.bots import STRATEGIES, Bot, GreedyBot, RandomBot
from scopa.client import ClientSession
from serverthread import ServerThread
from scopa.engine import Declare, LocalGame, Phase, Play, RuleSet, View, play_local
from scopa.rl import (
    BotPolicy,
    PolicyBot,
    ScopaGymEnv,
    bot_policies,
    encode_move,
    raw_env,
)


def first_allowed(obs) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


class Recorder(Bot):
    """A bot that remembers what it picked."""

    def __init__(self, inner: Bot) -> None:
        super().__init__("recorder")
        self.inner = inner
        self.picked: list[Play | Declare] = []

    def pick(self, view: View, legal):
        move = self.inner.pick(view, legal)
        self.picked.append(move)
        return move


def test_gymnasium_env_checkers_and_a_game_against_greedy() -> None:
    """Gymnasium's own checks (those that do not step with unmasked random actions)."""
    g = ScopaGymEnv("scopa", opponents=["greedy"], seed=3)
    check_action_space(g.action_space)
    check_observation_space(g.observation_space)
    check_reset_return_type(g)
    check_reset_seed_determinism(g)
    check_reset_options(g)
    env_reset_passive_checker(g)
    obs, _ = g.reset(seed=1)
    env_step_passive_checker(g, first_allowed(obs))
    obs, info = g.reset(seed=5)
    assert np.array_equal(info["action_mask"], obs["action_mask"]) and obs["action_mask"].any()
    total, steps, done = 0.0, 0, False
    while not done:
        obs, reward, term, trunc, info = g.step(first_allowed(obs))
        total += reward
        steps += 1
        done = term or trunc
    s = g.aec.game
    assert s.phase is Phase.OVER and steps > 18
    assert total == s.totals[0] or s.end_reason.value != "target"
    with pytest.raises(RuntimeError):
        g.step(0)


def test_gymnasium_env_is_seeded_bots_included() -> None:
    def run(seed: int) -> list[float]:
        g = ScopaGymEnv("scopone", opponents=["random"], seat=1, rounds=1)
        obs, _ = g.reset(seed=seed)
        out, done = [], False
        while not done:
            obs, reward, term, trunc, _ = g.step(first_allowed(obs))
            out.append(reward)
            out.append(float(obs["observation"].sum()))
            done = term or trunc
        return out

    assert run(4) == run(4)
    assert run(4) != run(5)


def test_gymnasium_env_in_teams_has_partner_and_opponents_and_refuses_bad_settings() -> None:
    g = ScopaGymEnv("scopone", opponents=["random", "greedy", "random"], seat=2, seed=1, rounds=1)
    g.reset()
    assert g.aec.agent_selection == "player_2"
    assert [type(g._policies[f"player_{s}"].bot) for s in (3, 0, 1)] == [RandomBot, STRATEGIES["greedy"], RandomBot]
    for bad in ({"opponents": ["greedy", "greedy"]}, {"opponents": ["nobody"]}, {"seat": 4}):
        with pytest.raises(ValueError):
            ScopaGymEnv("scopone", **bad)


@pytest.mark.parametrize("rules", ["scopa", "cirulla", "escoba"])
def test_bot_policies_play_in_the_env_as_the_bots_would(rules: str) -> None:
    """A built-in bot as a PettingZoo policy makes the moves the bot picks."""
    e = raw_env(rules, seed=2)
    e.reset()
    recorders = [Recorder(GreedyBot()), Recorder(RandomBot(seed=1))]
    policies = bot_policies(e, recorders)
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else policies[agent](e, agent))
    played = [a for a in e.actions if isinstance(a, (Play, Declare))]
    picked = recorders[0].picked + recorders[1].picked
    assert len(played) == len(picked) and sorted(map(repr, played)) == sorted(map(repr, picked))
    assert e.game.phase is Phase.OVER


def test_bot_policy_refuses_an_agent_that_is_not_choosing() -> None:
    e = raw_env("scopa", seed=1)
    e.reset()
    idle = next(a for a in e.agents if a != e.agent_selection)
    with pytest.raises(ValueError):
        BotPolicy("greedy")(e, idle)


def test_policy_bot_plays_local_games_with_the_same_decisions_as_the_env() -> None:
    """A policy wrapped as a Bot sees, decision by decision, the observations the
    environment would give that seat, and plays whole local games on every table size."""
    seen: list[tuple[bytes, bytes]] = []

    def policy(obs) -> int:
        seen.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        return int(np.flatnonzero(obs["action_mask"])[-1])  # the highest allowed id

    for rules in (RuleSet.build("cirulla"), RuleSet.build("scopone"), RuleSet.build(players=6)):
        seen.clear()
        bots = [PolicyBot(policy)] + [RandomBot(seed=i) for i in range(1, rules.players)]
        gm = LocalGame(rules, bots, seed=9)
        record = asyncio.run(gm.run())
        assert record.winner is not None and seen
        # the same game in the environment gives seat 0 the same observations
        e = raw_env(rules)
        e.reset(options={"game_seed": 9})
        moves = iter(a for a in record.actions if isinstance(a, (Play, Declare)))
        env_seen: list[tuple[bytes, bytes]] = []
        pending: list[int] = []
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            if not pending:
                pending = encode_move(next(moves), list(e.selection.legal))
            if agent == "player_0":
                env_seen.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))
            e.step(pending.pop(0))
        assert e.actions == list(record.actions)
        assert env_seen == seen


def test_policy_bot_plays_over_tcp() -> None:
    """The wrapped policy is an SDK Bot: it plays a whole game at a real server."""

    def policy(obs) -> int:
        return int(np.flatnonzero(obs["action_mask"])[0])

    async def main(address: str) -> tuple[bool, tuple[int, ...]]:
        host, port = address.rsplit(":", 1)
        async with asyncio.timeout(60):
            async with await ClientSession.connect(host, int(port), "agent") as session:
                await session.create_table(fill_with_bots=["greedy"])
                result = await session.play_game(PolicyBot(policy))
                return result.won, tuple(result.totals)

    with ServerThread() as server:
        won, totals = asyncio.run(main(server.address))
    assert max(totals) >= 11 and isinstance(won, bool)


def test_policy_bot_in_play_local_against_greedy() -> None:
    record = asyncio.run(play_local(RuleSet.build("quindici"), [GreedyBot(), PolicyBot(lambda o: int(np.flatnonzero(o["action_mask"])[0]))], seed=4))
    assert record.reason is not None and record.rounds >= 1
