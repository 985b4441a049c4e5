"""`scopa local`: a game in this terminal against bots (or watched, or hot-seat)."""

from __future__ import annotations

import asyncio
import random
from typing import Sequence

from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console
from rich.text import Text

from scopa.engine import Event, GameRecord, LocalGame, RuleSet
from scopa.engine.player import Player

from scopa.protocol.record import PlayerKind, RecordPlayer, build_record

from ..seats import bot_number, record_strategy, seat_bot
from .human import TerminalPlayer
from .recordfile import write_record
from .tablewords import Leaving
from ..text import DeckStyle, event_line, local_bot_name, person_name, tr


def build_players(
    kinds: Sequence[str], console: Console, style: DeckStyle, autoplay: bool, delay: float, seed: int,
    names: Sequence[str] = (),
) -> list[Player]:
    humans = kinds.count("human")
    players: list[Player] = []
    for i, kind in enumerate(kinds):
        if kind == "human":
            name = person_name(names, kinds[:i].count("human"), i, humans > 1)
            players.append(TerminalPlayer(name, console, style, autoplay, delay))
        else:
            players.append(seat_bot(kind, i, seed, local_bot_name(kind, bot_number(list(kinds), i))))
    return players


async def run_local_game(
    rules: RuleSet,
    kinds: Sequence[str],
    seed: int | None = None,
    style: DeckStyle = DeckStyle.ITALIAN,
    autoplay: bool = True,
    delay: float = 0.0,
    console: Console | None = None,
    record_to: Path | None = None,
    names: Sequence[str] = (),
) -> GameRecord | None:
    """Play one local game; with no human seat every public event is printed;
    ``record_to``: write the game's record there (docs/RECORDS.md); ``names``: the
    people's, seat by seat.  A person may leave at the move prompt (``esci``, ``q``,
    after a question): the game ends there, unrecorded (None)."""
    console = console or Console()
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    players = build_players(kinds, console, style, autoplay, delay, seed, names)
    master = LocalGame(rules, players, seed)
    game = asyncio.ensure_future(master.run())
    left: list[bool] = []  # a person left (yes, asked)

    def leave() -> None:
        left.append(True)
        game.cancel()

    for player in players:
        if isinstance(player, TerminalPlayer):
            player.leaving = Leaving(lambda: tr("Leave the game? It ends here: a local game is not kept."), leave)
    if "human" not in kinds:
        names = tuple(p.name for p in players)

        async def show(event: Event) -> None:
            line = event_line(event, names, style)
            if line is not None:
                console.print(line)
                if delay:
                    await asyncio.sleep(delay)

        master.observers.append(show)
    try:
        record = await game
    except asyncio.CancelledError:
        if not left:
            raise  # not a person leaving: this coroutine itself is cancelled
        console.print(Text(tr("Game left.")))
        console.print(Text(tr("Seed {seed}: replay with --seed {seed}", seed=seed), style="dim"))
        if record_to is not None:
            console.print(Text(tr("no record written: the game was left before its end"), style="dim"))
        return None
    console.print(Text(tr("Seed {seed}: replay with --seed {seed}", seed=seed), style="dim"))
    if record_to is not None:
        seats = [
            RecordPlayer(seat=i, name=getattr(p, "name", f"seat {i}"), side=rules.side_of(i),
                         kind=PlayerKind.PERSON if kind == "human" else PlayerKind.BOT,
                         strategy=None if kind == "human" else record_strategy(kind))
            for i, (kind, p) in enumerate(zip(kinds, players))
        ]
        write_record(build_record(rules, seed, master.first_dealer, master.actions, seats,
                                  played_at=datetime.now(timezone.utc).replace(microsecond=0)), record_to)
        console.print(Text(tr("record written to {path}", path=record_to), style="dim"))
    return record
