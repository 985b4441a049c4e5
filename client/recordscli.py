"""The game-record subcommands of `scopa`: ``replay`` (a record file: step through it,
print it, or check it against the rules)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape

from scopa.protocol.record import RecordError, load_record
from scopa.protocol.record_replay import RecordMismatch, Step, plain_log, replay_steps

from .render import DeckStyle

COMMANDS: tuple[str, ...] = ("replay",)

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT = 0, 1, 2


def add_subcommands(sub: Any) -> None:
    """Add ``replay`` to the `scopa` command's subparsers."""
    replay = sub.add_parser("replay", help="step through a game record (or print or check it)")
    replay.add_argument("file", metavar="FILE", help="a game record (docs/RECORDS.md)")
    how = replay.add_mutually_exclusive_group()
    how.add_argument("--plain", action="store_true", help="print the game as a log")
    how.add_argument("--check", action="store_true",
                     help="replay every action through the rules: exit 0 when the record is consistent, "
                          "1 with the first difference when it is not")
    replay.add_argument("--deck", choices=[s.value for s in DeckStyle], default="italian",
                        help="card style of the step-through viewer")


def run(args: argparse.Namespace, console: Console) -> int:
    if args.command == "replay":
        return replay(args, console)
    console.print(f"[red]unknown command {args.command}[/red]")
    return EXIT_BAD_INPUT


def replay(args: argparse.Namespace, console: Console) -> int:
    try:
        record = load_record(args.file)
    except RecordError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        return EXIT_BAD_INPUT
    if args.check:
        steps = 0
        try:
            for _ in replay_steps(record):
                steps += 1
        except RecordMismatch as exc:
            console.print(f"[red]inconsistent:[/red] {escape(str(exc))}", highlight=False)
            return EXIT_MISMATCH
        console.print(f"consistent: {len(record.rounds)} rounds, {steps} steps, result "
                      f"{'-'.join(map(str, record.result.totals))} ({record.result.reason.value})", highlight=False)
        return EXIT_OK
    if args.plain or not sys.stdout.isatty():
        try:
            for line in plain_log(record):
                console.print(line, highlight=False, markup=False)
        except RecordMismatch as exc:
            console.print(f"[red]the record stops making sense here: {escape(str(exc))}[/red]", highlight=False)
            return EXIT_MISMATCH
        return EXIT_OK
    from .replay_app import ReplayApp

    steps: list[Step] = []
    problem: RecordMismatch | None = None
    try:
        for step in replay_steps(record):
            steps.append(step)
    except RecordMismatch as exc:
        problem = exc
    if not steps:
        console.print(f"[red]nothing to show: {escape(str(problem))}[/red]")
        return EXIT_MISMATCH
    ReplayApp(record, steps, problem, DeckStyle(args.deck)).run()
    return EXIT_OK if problem is None else EXIT_MISMATCH
