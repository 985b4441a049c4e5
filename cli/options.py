"""Turning command-line table options into a RuleSet (shared by `local`, `play`, `bot`)."""

from __future__ import annotations

import argparse

from scopa.client.text import coerce
from scopa.engine import Preset, RuleSet, RuleSetError


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("table rules")
    g.add_argument("--rules", metavar="PRESET", choices=[p.value for p in Preset],
                   help="a classic game: " + ", ".join(p.value for p in Preset))
    g.add_argument("--players", type=int, choices=(2, 3, 4, 6), help="number of players")
    g.add_argument("--target", type=int, choices=(11, 16, 21, 31, 51), help="points that end the game")
    g.add_argument("--capture-mode", choices=("traditional", "fewest", "free"),
                   help="which capture a player must take when several are possible: traditional (the equal card "
                        "first, then any sum), fewest (the capture with the fewest cards), free (any capture)")
    g.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="any RuleSet field, e.g. -o re_bello=true -o asso_piglia_tutto=simple "
                        "-o refill_each_turn=true -o teams=false")


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """Build the RuleSet; raises RuleSetError with a readable message."""
    options: dict[str, object] = {}
    for item in args.option:
        if "=" not in item:
            raise RuleSetError(f"--option wants NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        options[k.strip().replace("-", "_")] = coerce(v.strip())
    if args.players is not None:
        options["players"] = args.players
    if args.target is not None:
        options["target"] = args.target
    if args.capture_mode is not None:
        options["capture_mode"] = args.capture_mode
    return RuleSet.build(args.rules, **options)
