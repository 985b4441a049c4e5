"""The network subcommands of `scopa` (serve, play, bot): filled in by the network issue."""

from __future__ import annotations

import argparse
from typing import Any, Callable

from rich.console import Console


def add_subcommands(sub: Any, add_rules: Callable[[argparse.ArgumentParser], None],
                    add_display: Callable[[argparse.ArgumentParser], None]) -> None:
    """No network subcommands yet."""


def run(args: argparse.Namespace, console: Console) -> int:
    console.print(f"[red]unknown command {args.command}[/red]")
    return 2
