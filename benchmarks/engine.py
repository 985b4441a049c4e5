"""Engine speed: random-vs-random 2-player rounds with full scoring, on one core.

    python benchmarks/engine.py [--seconds S] [--checked]

Prints rounds per second; the last line is a JSON object with ``rounds_per_s``.
``--checked`` applies every play through ``GameState.apply`` (re-validated, as the game
master does) instead of the trusted ``push`` that bots use when searching.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

from scopa.engine import Deal, GameState, Phase, RuleSet


def run(seconds: float, checked: bool, seed: int = 1) -> dict[str, float]:
    rules = RuleSet.build()
    rng = random.Random(seed)
    rand = rng.random
    play_phase = Phase.PLAY
    order = list(range(40))
    rounds = plays = 0
    state = GameState.new(rules, 0)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if state.phase is Phase.OVER:
            state = GameState.new(rules, rng.randrange(2))
        keys = [rand() for _ in order]  # a fast fair shuffle: sort by random keys
        state.apply(Deal(tuple(sorted(order, key=keys.__getitem__))))
        if state.phase is not Phase.PLAY:
            continue  # R10 void deal: deal again
        legal_plays = state.legal_plays
        do = state.apply if checked else state.push
        while state.phase is play_phase:
            legal = legal_plays()
            do(legal[int(rand() * len(legal))])
            plays += 1
        rounds += 1
        if not rounds & 63 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "rounds": rounds,
        "seconds": round(elapsed, 3),
        "rounds_per_s": round(rounds / elapsed, 1),
        "plays_per_s": round(plays / elapsed, 1),
        "checked": checked,
    }


def copy_cost(samples: int = 20000) -> float:
    """Microseconds to copy a mid-round state (a searching bot copies before each try)."""
    rules = RuleSet.build()
    state = GameState.new(rules, 0)
    state.apply(Deal(tuple(random.Random(5).sample(range(40), 40))))
    while state.phase is Phase.PLAY and state.plays < 9:
        state.push(state.legal_plays()[0])
    start = time.perf_counter()
    for _ in range(samples):
        state.copy()
    return (time.perf_counter() - start) / samples * 1e6


def warm_up(seconds: float) -> None:
    """Fill the capture-template cache, as any long-running process will have it."""
    run(seconds, checked=False, seed=99)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--checked", action="store_true", help="validate every play (GameState.apply)")
    ap.add_argument("--no-accelerator", action="store_true",
                    help="measure the pure-Python engine even if the C accelerator is built")
    ap.add_argument("--warmup", type=float, default=3.0,
                    help="seconds of play before measuring (fills the capture-template cache, as in any long-running bot or server)")
    args = ap.parse_args()
    from scopa.engine import speedups

    if args.no_accelerator and speedups.IMPLEMENTATION != "python":  # the twin is chosen at import
        os.environ["SCOPA_SPEEDUPS"] = "python"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    if args.warmup > 0:
        warm_up(args.warmup)
    result = run(args.seconds, args.checked)
    result["copy_us"] = round(copy_cost(), 2)
    result["c_accelerator"] = speedups.IMPLEMENTATION == "c"
    print(f"{result['rounds']} rounds in {result['seconds']} s: "
          f"{result['rounds_per_s']:.0f} rounds/s, {result['plays_per_s']:.0f} plays/s; "
          f"copying a state: {result['copy_us']} us; C accelerator: {result['c_accelerator']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
