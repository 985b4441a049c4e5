"""Fit the expert's evaluation at the search horizon (``scopa.bots.horizon``) by self-play.

    python benchmarks/train_horizon.py [--rounds 20000] [--seed 1] [--players 2 4] [--out FILE]

Plays ``--rounds`` rounds per player count between copies of the ``greedy`` bot (a move
at random one time in ``--explore``, so that the games visit positions greedy alone
would not), records every position of every round with the round's final margin, and
fits one weight set per stage of the round by ridge least squares (numpy, the ``rl``
extra).  The same seed gives the same weights.  It prints, per stage, how well the
fitted evaluation and the hand-written estimate predict the final margin on rounds
held out of the fit, then writes the weights (default: the file the package ships).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

from scopa.bots import make_bot
from scopa.bots.evaluate import estimate
from scopa.bots.horizon import FEATURES, STAGES, WEIGHTS_FILE, features, stage
from scopa.engine import Deal, GameState, Phase, RuleSet, view

RIDGE = 1.0
HELD_OUT = 0.2  # share of the rounds kept out of the fit, to report on


def play(rules: RuleSet, rounds: int, seed: int, explore: float) -> list[tuple[int, list[float], float, float, int]]:
    """(round, features for side 0, final margin of side 0, hand-written estimate, stage)."""
    rng = random.Random(f"horizon:{seed}:{rules.players}")
    bots = [make_bot("greedy") for _ in range(rules.players)]
    rows: list[tuple[int, list[float], float, float, int]] = []
    for r in range(rounds):
        state = GameState.new(rules, r % rules.players)
        while state.phase is Phase.DEAL:
            order = list(range(40))
            rng.shuffle(order)
            state.apply(Deal(tuple(order)))
        seen: list[tuple[list[float], float, int]] = []
        while state.phase is Phase.PLAY:
            seen.append((features(state, 0), estimate(state, 0), stage(state)))
            legal = state.legal_plays()
            if rng.random() < explore:
                play_ = rng.choice(legal)
            else:
                play_ = bots[state.to_move].pick(view(state, state.to_move), legal)  # type: ignore[assignment]
            state.push(play_)
        points = state.history[-1].points
        final = float(points[0] - points[1])
        rows.extend((r, f, final, e, st) for f, e, st in seen)
    return rows


def fit(rows: list[tuple[int, list[float], float, float, int]], rounds: int) -> tuple[list[list[float]], list[str]]:
    cut = int(rounds * (1 - HELD_OUT))
    weights: list[list[float]] = []
    lines = []
    for st in range(STAGES):
        train = [r for r in rows if r[4] == st and r[0] < cut]
        test = [r for r in rows if r[4] == st and r[0] >= cut]
        x = np.array([r[1] for r in train])
        y = np.array([r[2] for r in train])
        w = np.linalg.solve(x.T @ x + RIDGE * np.eye(len(FEATURES)), x.T @ y)
        weights.append([round(float(v), 5) for v in w])
        xt = np.array([r[1] for r in test])
        yt = np.array([r[2] for r in test])
        learnt = float(np.mean((xt @ w - yt) ** 2))
        hand = float(np.mean((np.array([r[3] for r in test]) - yt) ** 2))
        lines.append(f"stage {st}: {len(train)} positions fitted, {len(test)} held out; "
                     f"mean squared error learnt {learnt:.3f}, hand-written {hand:.3f}, "
                     f"variance {float(np.var(yt)):.3f}")
    return weights, lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=20000, help="self-play rounds per player count")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--explore", type=float, default=0.1, help="share of moves played at random")
    p.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=(2, 4))
    p.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "bots" / WEIGHTS_FILE)
    a = p.parse_args()
    out: dict[str, object] = {
        "features": list(FEATURES),
        "trained": {"rounds": a.rounds, "seed": a.seed, "explore": a.explore, "ridge": RIDGE,
                    "policy": "greedy self-play"},
        "weights": {},
    }
    for players in a.players:
        rules = RuleSet.build("scopa" if players == 2 else "scopone")
        rows = play(rules, a.rounds, a.seed, a.explore)
        weights, lines = fit(rows, a.rounds)
        out["weights"][str(players)] = weights  # type: ignore[index]
        print(f"{players} players ({rules.describe()}):")
        for line in lines:
            print("  " + line)
    a.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"weights written to {a.out}")


if __name__ == "__main__":
    main()
