"""`scopa local`: a game in this terminal against bots (or watched, or hot-seat)."""

from __future__ import annotations

import asyncio
import random
from typing import Sequence

from datetime import datetime, timezone
from pathlib import Path

from pydantic import TypeAdapter, ValidationError
from rich.console import Console

from scopa.engine import Event, GameRecord, LocalGame, RuleSet
from scopa.engine.player import Player

from scopa.bots import STRATEGIES
from scopa.bots.loader import load_bot_class
from scopa.bots.registry import make_player
from scopa.protocol.record import PlayerKind, RecordPlayer, Strategy, build_record

from .human import TerminalPlayer
from .recordfile import write_record
from .render import DeckStyle, event_line

SEAT_KINDS = ("human", *STRATEGIES)
_STRATEGY: TypeAdapter[str] = TypeAdapter(Strategy)


def parse_seats(spec: str | None, players: int) -> list[str]:
    """``human,greedy`` → one kind per seat; default: you against greedy bots.  A seat may
    also be your own bot, ``module:Class`` or ``path/to/file.py:Class`` (kept as written)."""
    if not spec:
        return ["human"] + ["greedy"] * (players - 1)
    kinds = [k.strip() if ":" in k else k.strip().lower() for k in spec.split(",") if k.strip()]
    bad = [k for k in kinds if ":" not in k and k not in SEAT_KINDS]
    if bad:
        raise ValueError(f"unknown seat kind {bad[0]!r}; use: {', '.join(SEAT_KINDS)}, "
                         f"or your own bot as MODULE:CLASS or FILE.py:CLASS")
    for k in kinds:
        if ":" in k:
            load_bot_class(k)  # a clear ValueError now rather than mid-game
    if len(kinds) != players:
        raise ValueError(f"--seats names {len(kinds)} seats but the table has {players} players "
                         f"(set --players or --rules to match)")
    return kinds


def build_players(
    kinds: Sequence[str], console: Console, style: DeckStyle, autoplay: bool, delay: float, seed: int
) -> list[Player]:
    humans = kinds.count("human")
    players: list[Player] = []
    for i, kind in enumerate(kinds):
        if kind == "human":
            name = "You" if humans == 1 else f"Player {i + 1}"
            players.append(TerminalPlayer(name, console, style, autoplay, delay))
        else:
            players.append(seat_bot(kind, i, seed))
    return players


def seat_bot(kind: str, seat: int, seed: int) -> Player:
    """The bot of a seat: a built-in kind, or a bot class named ``MODULE:CLASS``."""
    label = kind.rpartition(":")[2] if ":" in kind else kind.capitalize()
    return make_player(kind, f"{label} {seat + 1}", seed=seed * 100 + seat)


def record_strategy(kind: str) -> str | None:
    """How a record names a bot seat's strategy (a file's folders left out)."""
    if ":" not in kind:
        return kind
    module, _, cls = kind.rpartition(":")
    try:
        return _STRATEGY.validate_python(f"{Path(module).name}:{cls}")
    except ValidationError:  # a name the record format cannot hold
        return None


async def run_local_game(
    rules: RuleSet,
    kinds: Sequence[str],
    seed: int | None = None,
    style: DeckStyle = DeckStyle.ITALIAN,
    autoplay: bool = True,
    delay: float = 0.0,
    console: Console | None = None,
    record_to: Path | None = None,
) -> GameRecord:
    """Play one local game; with no human seat every public event is printed;
    ``record_to``: write the game's record there (docs/RECORDS.md)."""
    console = console or Console()
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    players = build_players(kinds, console, style, autoplay, delay, seed)
    master = LocalGame(rules, players, seed)
    if "human" not in kinds:
        names = tuple(p.name for p in players)

        async def show(event: Event) -> None:
            line = event_line(event, names, style)
            if line is not None:
                console.print(line)
                if delay:
                    await asyncio.sleep(delay)

        master.observers.append(show)
    record = await master.run()
    console.print(f"[dim]seed {seed}: replay with --seed {seed}[/dim]")
    if record_to is not None:
        seats = [
            RecordPlayer(seat=i, name=getattr(p, "name", f"seat {i}"), side=rules.side_of(i),
                         kind=PlayerKind.PERSON if kind == "human" else PlayerKind.BOT,
                         strategy=None if kind == "human" else record_strategy(kind))
            for i, (kind, p) in enumerate(zip(kinds, players))
        ]
        write_record(build_record(rules, seed, master.first_dealer, master.actions, seats,
                                  played_at=datetime.now(timezone.utc).replace(microsecond=0)), record_to)
        console.print(f"[dim]record written to {record_to}[/dim]")
    return record
