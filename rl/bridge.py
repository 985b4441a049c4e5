"""Both ways between agents and bots.

* :class:`PolicyBot` wraps a trained policy (observation dict -> action id) as an SDK
  :class:`~scopa.bots.Bot`, so it plays in ``scopa local``, in an arena and over TCP.
* :class:`BotPolicy` turns a built-in (or any) bot into a PettingZoo policy: called with
  the environment and an agent, it returns that agent's next action id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from scopa.bots import Bot, make_bot
from scopa.engine import Declare, Play, View

from .actions import (
    DONE,
    NUM_ACTIONS,
    IllegalActionError,
    Move,
    Selection,
    declaration_action,
)
from .observation import observe

Policy = Callable[[Mapping[str, np.ndarray]], int]
"""A policy: the observation dict (``observation``, ``action_mask``) -> an action id."""


def observation_dict(view: View, selection: Selection) -> dict[str, np.ndarray]:
    """The observation the environment gives the seat of ``view`` at ``selection``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[selection.allowed()] = 1
    return {"observation": observe(view, selection), "action_mask": mask}


class PolicyBot(Bot):
    """A policy playing as a :class:`~scopa.bots.Bot`: it is asked one decision at a time,
    exactly as in the environment, until its move is chosen.  A policy that answers a
    masked action raises :class:`~scopa.rl.actions.IllegalActionError`."""

    def __init__(self, policy: Policy, name: str | None = None) -> None:
        super().__init__(name or "agent")
        self.policy = policy

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        sel: Selection | Move = Selection.start(legal)
        while isinstance(sel, Selection):
            sel = sel.advance(int(self.policy(observation_dict(view, sel))))
        return sel


def next_action(selection: Selection, move: Move) -> int:
    """The next decision on the way to ``move`` from ``selection``."""
    if isinstance(move, Declare):
        return declaration_action(move)
    if selection.card is None:
        return move.card
    rest = move.capture & ~selection.picked
    return (rest & -rest).bit_length() - 1 if rest else DONE


class BotPolicy:
    """A bot as a PettingZoo policy: ``policy(env, agent)`` is ``agent``'s next action id.

    The bot sees only ``agent``'s view (``env.unwrapped.view_of(agent)``) and the legal
    moves; a capture that takes several decisions is followed through to the move the
    bot picked.  ``bot`` is a Bot or a strategy name (``"greedy"``, ``"random"``).
    """

    def __init__(self, bot: Bot | str, seed: int | None = None) -> None:
        self.bot = make_bot(bot, seed=seed) if isinstance(bot, str) else bot
        self._chosen: dict[str, Move] = {}

    def __call__(self, env: Any, agent: str) -> int:
        raw = env.unwrapped
        sel: Selection | None = raw.selection
        if sel is None or agent != raw.agent_selection:
            raise IllegalActionError(f"{agent} has no decision to take now")
        move = self._chosen.get(agent)
        if sel.card is None or move is None or move not in sel.candidates():
            options: Sequence[Move] = sel.legal if sel.card is None else sel.candidates()
            move = self.bot.pick(raw.view_of(agent), list(options))
            self._chosen[agent] = move
        return next_action(sel, move)


def bot_policies(env: Any, bots: Sequence[Bot | str] | Bot | str, seed: int | None = None) -> dict[str, BotPolicy]:
    """One :class:`BotPolicy` per agent of ``env`` (a name or bot for all, or one each)."""
    agents = list(env.possible_agents)
    chosen = [bots] * len(agents) if isinstance(bots, (str, Bot)) else list(bots)
    if len(chosen) != len(agents):
        raise ValueError(f"{len(agents)} bots needed, {len(chosen)} given")
    return {
        a: BotPolicy(b, None if seed is None else seed + i)
        for i, (a, b) in enumerate(zip(agents, chosen))
    }  # fmt: skip
