"""``scopa.rl``: Scopa for reinforcement learning, on the same engine as the server.

* :func:`env` — a PettingZoo AEC environment for any preset and player count;
* :class:`ScopaGymEnv` — a Gymnasium environment for one seat against built-in bots;
* :class:`PolicyBot` / :class:`BotPolicy` — a trained policy as an SDK bot, and a bot as
  a PettingZoo policy;
* ``scopa.rl.actions`` and ``scopa.rl.observation`` — the action ids and the observation
  layout (documented in ``docs/RL.md``).

Needs the ``rl`` extra: ``pip install "scopa[rl]"`` (PettingZoo, Gymnasium, NumPy).
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        f"scopa.rl needs the rl extra ({exc.name} is missing): pip install 'scopa[rl]'"
    ) from exc

from .actions import (
    DONE,
    NUM_ACTIONS,
    IllegalActionError,
    Selection,
    decode_actions,
    encode_move,
)
from .aec import REWARD_MODES, ScopaEnv, env, raw_env
from .bridge import BotPolicy, PolicyBot, bot_policies, observation_dict
from .observation import LAYOUT, OBS_SIZE, observe
from .single import ScopaGymEnv

__all__ = [
    "DONE", "LAYOUT", "NUM_ACTIONS", "OBS_SIZE", "REWARD_MODES", "BotPolicy", "IllegalActionError",
    "PolicyBot", "ScopaEnv", "ScopaGymEnv", "Selection", "bot_policies", "decode_actions",
    "encode_move", "env", "observation_dict", "observe", "raw_env",
]  # fmt: skip
