"""Screen expert variants deal by deal against the arena's own deals.

    python benchmarks/arena_deals.py play A B --deals 200 [--start 0] [--seed 1] [--rules scopa] --out A.jsonl
    python benchmarks/arena_deals.py compare BASE.jsonl OTHER.jsonl ...

``play`` plays the deals ``start .. start+deals-1`` of ``scopa arena A B --seed SEED``
(the arena's ``play_deal``: the same shuffles, seats swapped, seeds) and appends one
JSON line per deal (its index, A's margin per round, A's CPU ms per move, A's margin in
each scoring category in each of its two rounds), so a run can be stopped and resumed
and variants compared on the very same deals.  A and B are
what the arena takes, or ``expert:KEY=VALUE,...`` for an expert built with those
arguments (``budget``, ``leaves``, ``infer``, ``learnt``, ``model``, ``replies``, ``adapt``; 0/1 for
the flags), e.g. ``expert:budget=5000,model=0,replies=0``.

``compare`` prints each file's margin with its 95% interval and CPU ms (median, p99)
and its margin per round in each category (where the file holds them), then each other
file's paired difference from the first over the deals both played.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

from scopa.bots import ExpertBot
from scopa.bots.arena import BotFactory, bot_factory, category_means, percentile, play_deal
from scopa.engine import RuleSet

_INT = ("budget", "leaves")
_FLAGS = ("infer", "learnt", "model", "replies", "adapt")


def factory(spec: str) -> BotFactory:
    if not spec.startswith("expert:"):
        return bot_factory(spec)
    kwargs: dict[str, int | bool] = {}
    for item in spec[len("expert:"):].split(","):
        key, _, value = item.partition("=")
        if key in _INT:
            kwargs[key] = int(value)
        elif key in _FLAGS:
            kwargs[key] = value not in ("0", "false", "no")
        else:
            raise SystemExit(f"unknown expert argument {key!r}")
    return lambda seed: ExpertBot(name=spec, seed=seed, **kwargs)  # type: ignore[arg-type]


def interval(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.959963984540054 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return f"{m:+.3f} [{m - h:+.3f}, {m + h:+.3f}] over {len(xs)} deals"


def play(a: argparse.Namespace) -> None:
    rules = RuleSet.build(a.rules)
    fa, fb = factory(a.a), factory(a.b)
    with a.out.open("a", encoding="utf-8") as f:
        for i in range(a.start, a.start + a.deals):
            d = play_deal(rules, fa, fb, a.seed, i)
            ms = [round(t, 2) for g in d.games for t in g.a_ms]
            categories = [dict(g.categories) for g in d.games]
            f.write(json.dumps({"deal": i, "margin": d.margin, "ms": ms, "categories": categories}) + "\n")
            f.flush()


def compare(files: list[Path]) -> None:
    runs = [{r["deal"]: r for r in map(json.loads, p.read_text(encoding="utf-8").splitlines())} for p in files]
    for p, run in zip(files, runs):
        ms = [t for r in run.values() for t in r["ms"]]
        print(f"{p}: {interval([r['margin'] for r in run.values()])}; "
              f"CPU ms per move median {percentile(ms, 0.5):.0f}, p99 {percentile(ms, 0.99):.0f}")
        means = category_means([g for r in run.values() for g in r.get("categories", ())])
        if means:
            print("  by category, per round: " + ", ".join(f"{k} {v:+.3f}" for k, v in means.items()))
    base = runs[0]
    for p, run in zip(files[1:], runs[1:]):
        both = sorted(set(base) & set(run))
        if len(both) > 1:
            print(f"{p} - {files[0]}: {interval([run[i]['margin'] - base[i]['margin'] for i in both])}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    pl = sub.add_parser("play")
    pl.add_argument("a")
    pl.add_argument("b")
    pl.add_argument("--deals", type=int, default=200)
    pl.add_argument("--start", type=int, default=0)
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--rules", default="scopa")
    pl.add_argument("--out", type=Path, required=True)
    cp = sub.add_parser("compare")
    cp.add_argument("files", type=Path, nargs="+")
    a = p.parse_args()
    if a.command == "play":
        play(a)
    else:
        compare(a.files)


if __name__ == "__main__":
    main()
