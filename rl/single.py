"""A Gymnasium environment: one seat learns, bots play every other seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from scopa.bots import Bot, make_bot
from scopa.engine import Preset, RuleSet

from .aec import RenderMode, RewardMode, ScopaEnv
from .bridge import BotPolicy


class ScopaGymEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """Scopa for one agent at ``seat`` against bots (partners included, in team games).

    ``opponents`` names a built-in strategy or gives a Bot for the other seats, in seat
    order after ``seat``: one entry fills them all.  Observations, actions and rewards
    are the AEC environment's (:class:`~scopa.rl.aec.ScopaEnv`); the reward of a step is
    everything the agent's seat earned since its previous decision, the bots' turns
    included.  ``info["action_mask"]`` repeats the observation's mask.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 - gymnasium declares it per instance

    def __init__(
        self,
        rules: RuleSet | Preset | str = "scopa",
        opponents: Sequence[str | Bot] = ("greedy",),
        seat: int = 0,
        seed: int | None = None,
        render_mode: RenderMode | None = None,
        reward: RewardMode = "points",
        rounds: int | None = None,
        **options: Any,
    ) -> None:
        self.aec = ScopaEnv(rules, seed=seed, render_mode=render_mode, reward=reward, rounds=rounds, **options)
        n = self.aec.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}")
        others = list(opponents)
        if len(others) == 1:
            others *= n - 1
        if len(others) != n - 1:
            raise ValueError(f"{n - 1} opponents needed (or one for all), {len(others)} given")
        for o in others:
            if isinstance(o, str):
                make_bot(o)  # an unknown name fails here, with the list of names
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self._others = others
        self._bot_seats = [(seat + 1 + i) % n for i in range(n - 1)]
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._policies: dict[str, BotPolicy] = {}
        self._first_seed = seed  # the first reset() without a seed uses it (bots included)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is None:
            seed, self._first_seed = self._first_seed, None
        else:
            self._first_seed = None
        super().reset(seed=seed)
        bot_seeds = self.np_random.integers(0, 2**31, size=len(self._others))
        self._policies = {
            self.aec.possible_agents[s]: BotPolicy(o if isinstance(o, Bot) else make_bot(o, seed=int(k)))
            for s, o, k in zip(self._bot_seats, self._others, bot_seeds)
        }  # fmt: skip
        self.aec.reset(seed=seed)
        self._play_bots()
        obs = self.aec.observe(self.agent)
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done():
            raise RuntimeError("the episode is over: call reset()")
        self.aec.step(int(action))
        self._play_bots()
        obs = self.aec.observe(self.agent)
        reward = self.aec.cumulative_reward(self.agent)
        info = {"action_mask": obs["action_mask"]}
        return obs, reward, self.aec.terminations[self.agent], self.aec.truncations[self.agent], info

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def _done(self) -> bool:
        return self.aec.terminations[self.agent] or self.aec.truncations[self.agent]

    def _play_bots(self) -> None:
        while not self._done() and self.aec.agent_selection != self.agent:
            bot = self.aec.agent_selection
            self.aec.step(self._policies[bot](self.aec, bot))
