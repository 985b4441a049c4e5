"""The `scopa` command: `local`, `serve`, `play`, `bot`, `arena`."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Sequence

from rich.console import Console

from scopa.engine import RuleSetError

from .options import add_rules_arguments, rules_from_args
from .render import DeckStyle


def _display_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("display (RULES.md §7)")
    g.add_argument("--deck", choices=[s.value for s in DeckStyle], default="italian",
                   help="Italian card names and suits, or the French (classic) deck")
    g.add_argument("--no-autoplay", action="store_true",
                   help="do not play a forced last card automatically")
    g.add_argument("--delay", type=float, default=0.0, metavar="S",
                   help="seconds to pause after each shown event (slower animation)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scopa", description="Scopa: play, host and script the Italian card game.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    local = sub.add_parser("local", help="play in this terminal against bots (no server needed)")
    local.add_argument("--seats", metavar="KINDS",
                       help="who sits where, e.g. human,greedy or human,greedy,human,random "
                            "(kinds: human, random, greedy, expert, greedy-v1, or the levels easy, medium, hard); all bots = watch a game")
    local.add_argument("--seed", type=int, help="seed for a reproducible game")
    local.add_argument("--record", metavar="FILE", help="write the game's record to FILE (docs/RECORDS.md)")
    add_rules_arguments(local)
    _display_arguments(local)

    from scopa.client import recordscli  # game records: replay, games, record, leaderboard

    recordscli.add_subcommands(sub)

    from scopa.client import netcli  # the network subcommands live with the network client

    netcli.add_subcommands(sub, add_rules_arguments, _display_arguments)
    from scopa.client import arena_cli

    arena_cli.add_subcommand(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    console = Console()
    try:
        if args.command == "local":
            return _local(args, console)
        if args.command == "arena":
            from scopa.client import arena_cli

            return arena_cli.run(args, console)
        if args.command in recordscli_commands():
            from scopa.client import recordscli

            return recordscli.run(args, console)
        from scopa.client import netcli

        return netcli.run(args, console)
    except RuleSetError as exc:
        console.print(f"[red]Those rules do not work:[/red] {exc}")
        return 2
    except (KeyboardInterrupt, EOFError):
        console.print("\n[dim]bye[/dim]")
        return 130


def _local(args: argparse.Namespace, console: Console) -> int:
    from .local import parse_seats, run_local_game

    rules = rules_from_args(args)
    try:
        kinds = parse_seats(args.seats, rules.players)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    record_to = Path(args.record) if args.record else None
    if record_to is not None and (record_to.is_dir() or not record_to.parent.is_dir()):
        console.print(f"[red]cannot write a record to {record_to}: no such folder, or it is a folder[/red]")
        return 2
    asyncio.run(run_local_game(rules, kinds, args.seed, DeckStyle(args.deck),
                               not args.no_autoplay, args.delay, console, record_to))
    return 0


def recordscli_commands() -> tuple[str, ...]:
    from scopa.client.recordscli import COMMANDS

    return COMMANDS


if __name__ == "__main__":
    sys.exit(main())
