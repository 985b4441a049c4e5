"""The PettingZoo AEC environment: one agent per seat, the engine underneath.

Agents are named ``player_0`` … ``player_{n-1}`` after their seats.  The environment
deals with the same seeded shuffles as the engine's ``GameMaster`` (a game seed drawn
from the environment's seed), so any game it plays can be replayed at a real table.
"""

from __future__ import annotations

import random
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from scopa.engine import (
    Action,
    Deal,
    GameState,
    Phase,
    Play,
    Preset,
    RoundScore,
    RuleSet,
    View,
    format_cards,
    view,
)

from .actions import NUM_ACTIONS, IllegalActionError, Move, Selection
from .observation import OBS_SIZE, observe

RewardMode = Literal["points", "margin", "win"]
REWARD_MODES: tuple[str, ...] = ("points", "margin", "win")
RenderMode = Literal["human", "ansi"]


def build_rules(rules: RuleSet | Preset | str, options: dict[str, Any]) -> RuleSet:
    """A RuleSet from a preset name and options (``players=3``), or a RuleSet as is."""
    if isinstance(rules, RuleSet):
        if options:
            raise ValueError("options go with a preset name; a RuleSet already holds them all")
        return rules
    return RuleSet.build(rules, **options)


class ScopaEnv(AECEnv[str, dict[str, Any], Any]):
    """Scopa (any preset, any player count) as a PettingZoo AEC environment.

    Observations are dicts: ``observation`` (``OBS_SIZE`` float32 in [0, 1], see
    ``scopa.rl.observation``) and ``action_mask`` (``NUM_ACTIONS`` int8, all zero for an
    agent that is not choosing).  Actions are ids ``0..NUM_ACTIONS-1`` (``scopa.rl.actions``).

    Rewards (``reward=``): ``"points"`` gives every seat its side's points at the end of
    each round (teammates get the same); ``"margin"`` gives its side's points minus the
    mean of the other sides' (zero-sum); ``"win"`` gives +1 to the winning side's seats
    and -1 to the others when the game ends.  ``rounds=N`` ends the episode (as a
    truncation) after N rounds instead of at the end of the game.

    ``reset(seed=S)`` seeds the sequence of games; ``reset(options={"game_seed": G})``
    deals the very game a ``GameMaster`` with seed ``G`` deals (``self.game_seed`` is the
    seed of the game in progress either way).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo declares it per instance
        "name": "scopa_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False,
    }  # fmt: skip

    def __init__(
        self,
        rules: RuleSet | Preset | str = "scopa",
        seed: int | None = None,
        render_mode: RenderMode | None = None,
        reward: RewardMode = "points",
        rounds: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, not {reward!r}")
        if rounds is not None and rounds < 1:
            raise ValueError("rounds must be at least 1 (or None for whole games)")
        self.rules = build_rules(rules, options)
        self.render_mode = render_mode
        self.reward_mode: RewardMode = reward
        self.max_rounds = rounds
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._seeds = random.Random(seed)
        self.game_seed = 0
        self.first_dealer = 0
        self._deck = random.Random(0)
        self._game: GameState | None = None
        self.actions: list[Action] = []
        self.selection: Selection | None = None
        self.rounds_played = 0

    # ------------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space[dict[str, Any]]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = (options or {}).get("game_seed")
        if game_seed is not None and not isinstance(game_seed, int):
            raise ValueError(f"options['game_seed'] must be an int, not {game_seed!r}")
        self.game_seed = self._seeds.getrandbits(63) if game_seed is None else game_seed
        self._deck = random.Random(self.game_seed)
        first_dealer = self._deck.randrange(self.rules.players)  # R8, as GameMaster draws it
        self.first_dealer = first_dealer
        self._game = GameState.new(self.rules, first_dealer)
        self.actions = []
        self.rounds_played = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._deal()
        self._next_decision()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of(agent)
        choosing = self._choosing(agent)
        obs = observe(view(self.game, seat), self.selection if choosing else None)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if choosing:
            assert self.selection is not None
            mask[self.selection.allowed()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is still playing; None is only for finished agents")
        assert self.selection is not None
        result = self.selection.advance(action)  # raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if isinstance(result, Selection):
            self.selection = result
        else:
            self._apply(result)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode (choose 'human' or 'ansi')")
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ for bridges and tests

    @property
    def game(self) -> GameState:
        """The engine's state of the current game (hidden cards included: not for agents)."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def seat_of(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def view_of(self, agent: str) -> View:
        """What ``agent``'s seat may see (the engine's view)."""
        return view(self.game, self.seat_of(agent))

    def cumulative_reward(self, agent: str) -> float:
        """The reward ``agent`` has gathered since it last acted."""
        return float(self._cumulative_rewards.get(agent, 0.0))

    # ------------------------------------------------------------------ internals

    def _choosing(self, agent: str) -> bool:
        return (
            self.selection is not None
            and agent == self.agent_selection
            and not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
        )

    def _deal(self) -> None:
        s = self.game
        while s.phase is Phase.DEAL:  # a void deal (R10, V13) is dealt again
            order = list(range(40))
            self._deck.shuffle(order)
            deal = Deal(tuple(order))
            s.apply(deal)
            self.actions.append(deal)

    def _next_decision(self) -> None:
        s = self.game
        self.selection = Selection.start(s.legal_actions())
        self.agent_selection = self.possible_agents[s.to_move]

    def _apply(self, move: Move) -> None:
        s = self.game
        rounds_before = len(s.history)
        if isinstance(move, Play):
            s.push(move)  # taken from the engine's own legal list
        else:
            s.apply(move, s.to_move)
        self.actions.append(move)
        if len(s.history) > rounds_before:
            self.rounds_played += 1
            self._round_rewards(s.history[-1])
        if s.phase is Phase.OVER:
            self._game_rewards()
            self._finish(truncated=False)
        elif self.max_rounds is not None and self.rounds_played >= self.max_rounds and s.phase is Phase.DEAL:
            self._finish(truncated=True)
        else:
            self._deal()
            self._next_decision()

    def _side_reward(self, side_points: list[float]) -> None:
        for agent in self.agents:
            self.rewards[agent] += side_points[self.rules.side_of(self.seat_of(agent))]

    def _round_rewards(self, score: RoundScore) -> None:
        points = [float(p) for p in score.points]
        if self.reward_mode == "points":
            self._side_reward(points)
        elif self.reward_mode == "margin":
            k = len(points)
            total = sum(points)
            self._side_reward([p - (total - p) / (k - 1) for p in points])

    def _game_rewards(self) -> None:
        winner = self.game.winner
        if self.reward_mode == "win" and winner is not None:
            self._side_reward([1.0 if side == winner else -1.0 for side in range(self.rules.num_sides)])

    def _finish(self, truncated: bool) -> None:
        self.selection = None
        for agent in self.agents:
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
        self._deads_step_first()

    def _text(self) -> str:
        s = self.game
        v = view(s, None)
        lines = [f"round {v.round_no}, dealer seat {v.dealer}, stock {v.stock_left}, totals {list(v.totals)}"]
        lines.append(f"table: {format_cards(v.table) or '(empty)'}")
        for side, pile in enumerate(v.piles):
            lines.append(f"side {side}: {pile.cards} cards, {pile.scope} scope")
        if v.round_plays:
            last = v.round_plays[-1]
            took = f" takes {format_cards(last.captured)}" if last.captured else " on the table"
            lines.append(f"last play: seat {last.seat} {last.card}{took}")
        if s.phase is Phase.OVER:
            lines.append(f"game over: side {s.winner} wins ({s.end_reason})")
        elif self.selection is not None:
            lines.append(f"seat {s.to_move} to move")
        return "\n".join(lines)


def raw_env(
    rules: RuleSet | Preset | str = "scopa",
    seed: int | None = None,
    render_mode: RenderMode | None = None,
    **kwargs: Any,
) -> ScopaEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return ScopaEnv(rules, seed=seed, render_mode=render_mode, **kwargs)


def env(
    rules: RuleSet | Preset | str = "scopa",
    seed: int | None = None,
    render_mode: RenderMode | None = None,
    **kwargs: Any,
) -> AECEnv[str, dict[str, Any], Any]:
    """Scopa as a PettingZoo AEC environment: ``rules`` is a preset name (``"scopone"``,
    ``"cirulla"`` …) or a ``RuleSet``; keyword options go to ``RuleSet.build``
    (``players=3``), and ``reward=`` / ``rounds=`` to :class:`ScopaEnv`."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, seed=seed, render_mode=render_mode, **kwargs))


__all__ = ["REWARD_MODES", "RewardMode", "ScopaEnv", "build_rules", "env", "raw_env"]
