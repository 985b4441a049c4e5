"""`scopa arena BOT_A BOT_B`: two bots over paired deals, on this machine's cores."""

from __future__ import annotations

import argparse
import json
import os
import sys

from rich.console import Console

from scopa.bots import STRATEGIES
from scopa.bots.arena import ARENA_ONLY, ArenaError, Report, format_report, mean_interval, run_arena

from .options import add_rules_arguments, rules_from_args


def add_subcommand(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("arena", help="measure two bots against each other over paired deals")
    p.add_argument("bot_a", metavar="BOT_A", help=f"built-in name ({', '.join([*STRATEGIES, *ARENA_ONLY])}), "
                                                  "MODULE:CLASS or FILE.py:CLASS")
    p.add_argument("bot_b", metavar="BOT_B", help="the opponent, named the same ways")
    p.add_argument("--deals", type=int, default=200, metavar="N",
                   help="shuffles to play; each is played twice with the seats swapped (default 200)")
    p.add_argument("--seed", type=int, default=0, help="seed of the shuffles and of the bots")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="W",
                   help="processes to play in (default: every core)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--ceiling", action="store_true",
                   help="also play cheater (every hand in sight) against BOT_B on each deal and print "
                        "the share of the ceiling: (A - B) / (cheater - B)")
    add_rules_arguments(p)


def run(args: argparse.Namespace, console: Console) -> int:
    if args.rules is None:
        args.rules = "scopa"
    rules = rules_from_args(args)
    if args.deals < 1 or args.workers < 1:
        console.print("[red]--deals and --workers must be at least 1[/red]")
        return 2
    err = Console(file=sys.stderr)
    step = max(1, args.deals // 100)

    def progress(report: Report) -> None:
        done = len(report.deals)
        if done % step == 0 or done == args.deals:
            ci = mean_interval([d.margin for d in report.deals])
            err.print(f"[dim]{done}/{args.deals} deals: A margin {ci.mean:+.3f} "
                      f"[{ci.low:+.3f}, {ci.high:+.3f}][/dim]")

    try:
        report = run_arena(args.bot_a, args.bot_b, rules, args.deals, args.seed, args.workers,
                           progress=None if args.json else progress, ceiling=args.ceiling)
    except ArenaError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    summary = report.summary()
    if args.json:
        print(json.dumps(summary))
    else:
        console.print(format_report(summary), markup=False, highlight=False, soft_wrap=True)
    return 0
