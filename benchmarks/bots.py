"""Bot thinking time: CPU milliseconds per searched move of the expert (or any built-in
bot) against greedy-v1, to calibrate ``scopa.bots.expert.DEFAULT_BUDGET``.

    python benchmarks/bots.py [--bot expert] [--rules scopa] [--rounds 4] [--budget N]

Moves with one legal choice are not counted.  The last line is a JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from scopa.bots import ExpertBot, make_bot
from scopa.bots.arena import percentile
from scopa.engine import Deal, GameState, Phase, RuleSet, view


def run(bot_name: str, preset: str, rounds: int, budget: int | None) -> dict[str, object]:
    rules = RuleSet.build(preset)
    bot = ExpertBot(seed=1, budget=budget) if bot_name == "expert" and budget else make_bot(bot_name, seed=1)
    other = make_bot("greedy-v1")
    times: list[float] = []
    nodes = 0
    for r in range(rounds):
        state = GameState.new(rules, r % rules.players)
        rng = random.Random(r)
        while state.phase is Phase.DEAL:
            order = list(range(40))
            rng.shuffle(order)
            state.apply(Deal(tuple(order)))
        while state.phase is Phase.PLAY:
            seat = state.to_move
            legal = state.legal_actions()
            v = view(state, seat)
            if state.side[seat] == 0 and len(legal) > 1:
                t0 = time.process_time()
                action = bot.pick(v, legal)
                times.append((time.process_time() - t0) * 1000)
                nodes += getattr(bot, "last_nodes", 0)
            else:
                action = (bot if state.side[seat] == 0 else other).pick(v, legal)
            state.apply(action, seat)
    return {
        "bot": bot_name,
        "rules": preset,
        "moves": len(times),
        "ms_mean": sum(times) / len(times) if times else 0.0,
        "ms_median": percentile(times, 0.5),
        "ms_p95": percentile(times, 0.95),
        "ms_p99": percentile(times, 0.99),
        "us_per_play": 1000 * sum(times) / nodes if nodes else None,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bot", default="expert")
    p.add_argument("--rules", default="scopa")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--budget", type=int, help="expert: plays per decision (default: the bot's own)")
    a = p.parse_args()
    result = run(a.bot, a.rules, a.rounds, a.budget)
    print(f"{result['bot']} on {result['rules']}: {result['moves']} searched moves, "
          f"CPU ms per move mean {result['ms_mean']:.1f}, median {result['ms_median']:.1f}, "
          f"p95 {result['ms_p95']:.1f}, p99 {result['ms_p99']:.1f}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
