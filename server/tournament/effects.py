"""What the director asks the server to do: the server carries these out (tables, seats,
messages, records) and the director never does any of it itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scopa.engine.rules import Preset

from .values import GameKey, Pairing, StandingRow


@dataclass(frozen=True)
class OpenTable:
    """Create a table for this game and seat these players (seat order: the first side's
    players on seats 0 and 2, the second side's on 1 and 3); a bot may stand in for a
    player who leaves only when the tournament allows bots."""

    tournament: str
    game: GameKey
    preset: Preset
    seats: tuple[str, ...]
    deadline: float  # a seat still empty then is forfeited (the director says so)
    decider: bool = False  # a knockout tie's deciding round: the table plays one deal
    bots_allowed: bool = False


@dataclass(frozen=True)
class ForfeitSeats:
    """Close this game's table: the players of ``absent`` did not come and lose."""

    tournament: str
    game: GameKey
    absent: tuple[str, ...]  # players


@dataclass(frozen=True)
class AnnounceRound:
    tournament: str
    number: int
    games: tuple[Pairing, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class AnnounceStandings:
    tournament: str
    rows: tuple[StandingRow, ...]
    final: bool = False


NoTableKind = Literal["knocked_out", "bye", "finished"]


@dataclass(frozen=True)
class TellNoTable:
    """Tell an entrant what a round means for it when it gives it no table: knocked out
    (``round`` the round it lost, ``by`` who went through, ``place`` the place it shares
    with the others out in that round), a bye (``round`` the round it sits out, worth
    ``points``), or the tournament over (``round`` its last, ``place`` its final one)."""

    tournament: str
    entrant: str
    kind: NoTableKind
    round: int
    by: str | None = None
    place: int | None = None
    points: float | None = None


@dataclass(frozen=True)
class RecordResults:
    """The tournament is over: keep its final standings with the records; its games count
    for ratings like any other."""

    tournament: str
    rows: tuple[StandingRow, ...]
    cancelled: bool = False


Effect = OpenTable | ForfeitSeats | AnnounceRound | AnnounceStandings | TellNoTable | RecordResults
