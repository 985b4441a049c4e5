"""Swiss pairing speed: one round's maximum-weight matching (networkx) for tournaments of
several sizes, after three rounds of random results.

    python benchmarks/tournament_pairing.py [--sizes 16,64,128,256]

Prints the seconds one pairing takes for each size; the last line is a JSON object
mapping each size to its seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from scopa.server.tournament import pair_swiss


def pairing_seconds(size: int, seed: int = 1) -> float:
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(size)]
    halves = {name: rng.randrange(0, 7) for name in names}
    ranking = sorted(names, key=lambda name: -halves[name])
    met: set[frozenset[str]] = set()
    for _ in range(3):
        order = names[:]
        rng.shuffle(order)
        met |= {frozenset(order[i : i + 2]) for i in range(0, size - 1, 2)}
    start = time.perf_counter()
    pair_swiss(ranking, halves, met, set())
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16,64,128,256", help="entrant counts, comma-separated")
    args = parser.parse_args()
    figures = {}
    for size in (int(s) for s in args.sizes.split(",")):
        figures[size] = round(pairing_seconds(size), 4)
        print(f"{size:4d} entrants: {figures[size]:.4f} s per Swiss round's pairing")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
