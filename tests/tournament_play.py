"""Drives a tournament director through its rounds for the tournament tests: everyone
comes to their table, each game ends with the points a test's function gives."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scopa.engine.rules import Preset
from scopa.server.tournament import Director, Entrant, Format, Pairing, Settings, Step, TieBreak

Points = Callable[[Pairing], tuple[int, int]]


def director_with(
    entrants: Sequence[Entrant], fmt: Format, *, preset: Preset = Preset.SCOPA, rounds: int = 0,
    ratings: Sequence[float] = (), seed: int = 7, tie_break: TieBreak = TieBreak.REMATCH, grace: float = 60.0,
) -> Director:
    """A started tournament of these entrants (best seed first unless ``ratings`` say otherwise)."""
    settings = Settings("Coppa", preset, fmt, cap=max(len(entrants), 2), rounds=rounds, grace=grace,
                        tie_break=tie_break)  # fmt: skip
    director, _ = Director.create("t1", settings, entrants[0].members[0], seed, now=0.0)
    for i, entrant in enumerate(entrants):
        director.register(entrant, ratings[i] if ratings else 2000.0 - i, now=1.0)
    director.start(entrants[0].members[0], now=2.0)
    return director


def play_open_games(director: Director, points: Points, now: float) -> list[Step]:
    """Every open game's players come, then each game ends with ``points(game)``."""
    steps = []
    games = director.state.open_games()
    for game in games:
        for side in game.sides:
            for player in director.state.entrant(side).members:
                director.arrive(player, now)
    for game in games:
        steps.append(director.finish_game(game.key, points(game), now))
    return steps
