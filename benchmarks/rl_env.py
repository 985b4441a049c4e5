"""scopa.rl speed: AEC environment decisions per second with uniformly random allowed
actions (every agent observed at its turn), for a few presets, on one core.

    python benchmarks/rl_env.py [--seconds S] [--rules scopa,scopone,cirulla]

Prints one line per preset; the last line is a JSON object of decisions per second.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from scopa.rl import ScopaEnv


def run(rules: str, seconds: float, seed: int = 1) -> float:
    env = ScopaEnv(rules, seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset()
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per preset")
    parser.add_argument("--rules", default="scopa,scopone,cirulla")
    args = parser.parse_args()
    out: dict[str, float] = {}
    for rules in args.rules.split(","):
        out[rules] = round(run(rules, args.seconds))
        print(f"{rules}: {out[rules]:,.0f} decisions/s")
    print(json.dumps({"decisions_per_s": out}))


if __name__ == "__main__":
    main()
