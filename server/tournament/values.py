"""The values of a tournament: its format, its entrants, its settings, a game's result
and a row of the standings.  All frozen; a tournament's events carry them."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from scopa.engine.rules import Preset, RuleSet


class Format(StrEnum):
    """How the entrants are paired, round after round."""

    SWISS = "swiss"  # a fixed number of rounds, neighbours in the standings meet, never twice
    ROUND_ROBIN = "round_robin"  # everyone meets everyone once
    KNOCKOUT = "knockout"  # a seeded bracket: the loser of a game is out


class TieBreak(StrEnum):
    """What a drawn knockout game leads to: the same two entrants play again."""

    REMATCH = "rematch"  # a whole new game
    DECIDING_ROUND = "deciding_round"  # one more deal decides


class RankKey(StrEnum):
    """What the standings rank by, in a format's order (``standings.ranked_by``): the
    first that differs decides, highest first (the better seed first)."""

    ROUND_REACHED = "round_reached"  # knockout: the round reached (its winner one past the final)
    MATCH_POINTS = "match_points"
    BUCHHOLZ = "buchholz"  # the match points of the opponents met
    GAME_POINTS = "game_points"
    SEED = "seed"


class Phase(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


class TournamentError(ValueError):
    """A command the tournament refuses; ``code`` says why and nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@cache
def table_size(preset: Preset) -> int:
    """How many people one table of this game seats."""
    return RuleSet.build(preset).players


def seats_per_side(preset: Preset) -> int:
    """How many players one entrant is in this game: 1, or 2 for the team games (Scopone
    with fixed pairs, entered as teams).  Every preset is a game of two sides."""
    return table_size(preset) // RuleSet.build(preset).num_sides


@dataclass(frozen=True)
class Entrant:
    """One player, or a team of two for the team games; ``name`` is how the standings
    call it (a player's name, or the team's name)."""

    name: str
    members: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.name or len(self.members) not in (1, 2) or len(set(self.members)) != len(self.members):
            raise TournamentError("bad_entrant", "an entrant is one player or a team of two different players")

    @classmethod
    def player(cls, name: str) -> Entrant:
        return cls(name, (name,))

    @classmethod
    def team(cls, name: str, first: str, second: str) -> Entrant:
        return cls(name, (first, second))


@dataclass(frozen=True)
class Settings:
    """What the creator chose.  ``rounds`` counts for Swiss only (round-robin and knockout
    have as many rounds as their entrants need); ``starts_at`` None: the creator starts
    it; ``grace`` is how long (seconds) a player has to come to a table before losing that
    game by forfeit."""

    name: str
    preset: Preset
    format: Format
    cap: int
    rounds: int = 0
    starts_at: float | None = None
    grace: float = 60.0
    bots_allowed: bool = False
    tie_break: TieBreak = TieBreak.REMATCH

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise TournamentError("bad_settings", "a tournament needs a name")
        if self.cap < 2:
            raise TournamentError("bad_settings", "a tournament needs room for at least 2 entrants")
        if self.format is Format.SWISS and not 1 <= self.rounds < self.cap:
            raise TournamentError("bad_settings", "a Swiss tournament has 1 to cap - 1 rounds")
        if self.grace <= 0:
            raise TournamentError("bad_settings", "the grace period is positive")

    @property
    def team_size(self) -> int:
        return seats_per_side(self.preset)


@dataclass(frozen=True, order=True)
class GameKey:
    """One game of a tournament: its round, its table in that round, and how many times
    the pair has played again after a drawn knockout game (0: the first game)."""

    round: int
    table: int
    replay: int = 0


@dataclass(frozen=True)
class Pairing:
    """Two entrants at one table, ``first`` in seat 0 (and 2 for teams)."""

    key: GameKey
    first: str
    second: str
    decider: bool = False  # a knockout tie's deciding round: one deal

    @property
    def sides(self) -> tuple[str, str]:
        return (self.first, self.second)


@dataclass(frozen=True)
class GameResult:
    """How a game ended: each side's game points; ``forfeited`` names the sides that did
    not come (they lose; a forfeit's game points are 0 - 0)."""

    key: GameKey
    first: str
    second: str
    points: tuple[int, int]
    forfeited: tuple[str, ...] = ()

    @property
    def winner(self) -> str | None:
        """The winning side, None on a draw (or when both sides forfeited)."""
        if self.forfeited:
            present = [s for s in (self.first, self.second) if s not in self.forfeited]
            return present[0] if len(present) == 1 else None
        if self.points[0] == self.points[1]:
            return None
        return self.first if self.points[0] > self.points[1] else self.second


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings.  Match points: a win 1, a draw ½, a loss 0, a bye 1."""

    rank: int
    entrant: str
    match_points: float
    buchholz: float
    game_points: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
