"""Train a small Scopa agent on the CPU with NumPy only, then measure it against random.

    pip install -e ".[rl]"
    python examples/train_rl.py [--rounds 3000] [--games 200] [--rules scopa] [--seed 0]

The agent is a linear softmax policy over a dozen features of each allowed action, read
from the observation (an equal card on the table, a card that sums the table, Denari,
the settebello, ...). It learns by REINFORCE with a running-mean baseline on one-round
episodes of ``ScopaGymEnv`` against the random bot, rewarded with the round's point
margin. Then it sits at the table as an SDK bot (``PolicyBot``) and plays whole games
against ``RandomBot`` on paired deals (every deal twice, seats swapped), and the example
prints the agent's point margin per game, before and after training.

With ``--save agent.npy`` the weights are kept, and the trained agent plays at a server
like any SDK bot: ``SCOPA_AGENT=agent.npy scopa bot --bot examples/train_rl.py:TrainedAgent``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections.abc import Callable, Mapping

import numpy as np

from scopa.bots import RandomBot
from scopa.engine import RuleSet, play_local
from scopa.engine.cards import PRIMIERA, SETTEBELLO, VALUE, Suit
from scopa.rl import DONE, LAYOUT, NUM_ACTIONS, PolicyBot, ScopaGymEnv

CARD_VALUE = np.array(VALUE)
IS_DENARI = np.array([float(c % 4 == Suit.DENARI) for c in range(40)])
IS_SETTEBELLO = (np.arange(40) == SETTEBELLO).astype(float)
PRIMIERA_SHARE = np.array([PRIMIERA[v] for v in VALUE]) / 21.0
NUM_FEATURES = 13


def action_features(observation: np.ndarray) -> np.ndarray:
    """One feature row per action id (rows of masked actions are never used)."""
    table = observation[LAYOUT["table"]] > 0
    on_table = np.bincount(CARD_VALUE[table], minlength=11)  # table cards of each value
    total = int(CARD_VALUE[table].sum())
    v = CARD_VALUE
    f = np.zeros((NUM_ACTIONS, NUM_FEATURES))
    if not observation[LAYOUT["pending_card"]].any():  # choosing the card to play
        partner = np.clip(15 - v, 0, 10)
        f[:40, 0] = on_table[v] > 0  # an equal card lies on the table
        f[:40, 1] = (total == v) & (total > 0)  # the card's value is the table's total
        f[:40, 2] = (15 - v <= 10) & (on_table[partner] > 0)  # a card that makes 15 with it
        f[:40, 3] = total + v <= 10  # laid down, the table would total 10 or less
        f[:40, 4] = IS_DENARI
        f[:40, 5] = IS_SETTEBELLO
        f[:40, 6] = v / 10.0
        f[:40, 7] = PRIMIERA_SHARE
    else:  # picking the table cards of a capture
        f[:40, 8] = 1.0
        f[:40, 9] = IS_DENARI
        f[:40, 10] = IS_SETTEBELLO + PRIMIERA_SHARE
    f[DONE, 11] = 1.0
    f[DONE + 1 :, 12] = 1.0  # a Cirulla declaration
    return f


class LinearPolicy:
    """Softmax over the allowed actions of ``features . theta``."""

    def __init__(self, theta: np.ndarray | None = None) -> None:
        self.theta = np.zeros(NUM_FEATURES) if theta is None else np.asarray(theta, dtype=float)
        if self.theta.shape != (NUM_FEATURES,):
            raise ValueError(f"the policy has {NUM_FEATURES} weights, not {self.theta.shape}")

    def probabilities(self, obs: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        feats = action_features(obs["observation"])
        logits = np.where(obs["action_mask"] > 0, feats @ self.theta, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum(), feats

    def best(self, obs: Mapping[str, np.ndarray]) -> int:
        """The most likely allowed action (how the trained agent plays)."""
        p, _ = self.probabilities(obs)
        return int(np.argmax(p))


class TrainedAgent(PolicyBot):
    """The trained policy as an SDK bot; its weights come from the file named by the
    ``SCOPA_AGENT`` environment variable (default ``agent.npy``)."""

    def __init__(self, weights: str | None = None) -> None:
        policy = LinearPolicy(np.load(weights or os.environ.get("SCOPA_AGENT", "agent.npy")))
        super().__init__(policy.best, name="numpy-agent")


def train(policy: LinearPolicy, rules: str, rounds: int, seed: int, lr: float = 0.02) -> float:
    """REINFORCE on one-round episodes against the random bot; the mean margin of the
    last quarter of the rounds."""
    env = ScopaGymEnv(rules, opponents=["random"], seed=seed, rounds=1, reward="margin")
    rng = np.random.default_rng(seed)
    baseline = 0.0
    margins: list[float] = []
    for _ in range(rounds):
        obs, _ = env.reset()
        steps: list[tuple[np.ndarray, np.ndarray, int]] = []
        margin, done = 0.0, False
        while not done:
            p, feats = policy.probabilities(obs)
            action = int(rng.choice(NUM_ACTIONS, p=p))
            steps.append((feats, p, action))
            obs, reward, terminated, truncated, _ = env.step(action)
            margin += reward
            done = terminated or truncated
        advantage = margin - baseline
        baseline += 0.02 * advantage
        for feats, p, action in steps:
            policy.theta += lr * advantage * (feats[action] - p @ feats)
        margins.append(margin)
    return float(np.mean(margins[-max(1, rounds // 4) :]))


def evaluate(agent: Callable[[Mapping[str, np.ndarray]], int], rules: str, deals: int, seed: int) -> tuple[float, float, float]:
    """The agent (as an SDK bot) against RandomBot on ``deals`` paired deals: mean point
    margin per game, its standard error, and the share of games won."""

    async def run() -> tuple[list[int], int]:
        table = RuleSet.build(rules)
        margins, wins = [], 0
        for i in range(deals):
            for agent_seat in (0, 1):
                players = [RandomBot(seed=seed + i), RandomBot(seed=seed + i)]
                players[agent_seat] = PolicyBot(agent, name="agent")
                record = await play_local(table, players, seed=seed + i)
                margins.append(record.totals[agent_seat] - record.totals[1 - agent_seat])
                wins += record.winner == agent_seat
        return margins, wins

    margins, wins = asyncio.run(run())
    m = np.array(margins, dtype=float)
    return float(m.mean()), float(m.std(ddof=1) / np.sqrt(len(m))), wins / len(m)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000, help="training rounds (episodes)")
    parser.add_argument("--games", type=int, default=200, help="evaluation games (paired: an even number)")
    parser.add_argument("--rules", default="scopa", help="a two-player preset (scopa, quindici, escoba, cirulla, frac)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", metavar="FILE.npy", help="keep the trained weights (for TrainedAgent)")
    args = parser.parse_args()
    if RuleSet.build(args.rules).players != 2:
        parser.error(f"{args.rules} is not a two-player game; the evaluation pairs one agent with one bot")
    deals = max(1, args.games // 2)

    policy = LinearPolicy()
    before, before_se, _ = evaluate(policy.best, args.rules, deals, 10_000 + args.seed)
    print(f"untrained agent vs random: {before:+.2f} ± {before_se:.2f} points per game")
    start = time.perf_counter()
    last = train(policy, args.rules, args.rounds, args.seed)
    print(f"trained on {args.rounds} rounds in {time.perf_counter() - start:.1f} s; "
          f"mean round margin over the last quarter: {last:+.2f}")
    after, se, won = evaluate(policy.best, args.rules, deals, 10_000 + args.seed)
    print(f"margin vs random: {after:+.2f} ± {se:.2f} points per game over {2 * deals} games "
          f"({deals} paired deals), {won:.0%} won")
    if args.save:
        np.save(args.save, policy.theta)
        print(f"weights saved to {args.save}")


if __name__ == "__main__":
    main()
