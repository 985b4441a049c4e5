"""What happened to a tournament, in order: the journal keeps these and a tournament's
state is their fold (:func:`scopa.server.tournament.state.apply`), so a restarted server,
or the member taking over in a cluster, rebuilds it exactly.  Every decision (the seed
order, each round's tables) is in an event, never recomputed on replay."""

from __future__ import annotations

from dataclasses import dataclass

from .values import Entrant, GameKey, Pairing, Settings


@dataclass(frozen=True)
class Created:
    tournament: str
    settings: Settings
    creator: str
    seed: int
    at: float


@dataclass(frozen=True)
class Registered:
    entrant: Entrant
    rating: float
    at: float


@dataclass(frozen=True)
class Unregistered:
    entrant: str
    at: float


@dataclass(frozen=True)
class Started:
    seeds: tuple[str, ...]  # the entrants, best seed first
    at: float


@dataclass(frozen=True)
class RoundPaired:
    number: int
    games: tuple[Pairing, ...]
    byes: tuple[str, ...]
    deadline: float  # a player not at the table by then loses the game by forfeit
    at: float
    slots: tuple[str | None, ...] = ()  # knockout: the round's places in bracket order


@dataclass(frozen=True)
class Replayed:
    """A drawn knockout game is played again by the same two entrants."""

    game: Pairing
    deadline: float
    at: float


@dataclass(frozen=True)
class Arrived:
    """A player sat at their tournament table: no forfeit for them in that game."""

    game: GameKey
    player: str
    at: float


@dataclass(frozen=True)
class GameFinished:
    game: GameKey
    points: tuple[int, int]  # each side's game points, the game's first side first
    at: float


@dataclass(frozen=True)
class Forfeited:
    game: GameKey
    absent: tuple[str, ...]  # the entrants that did not come (they lose)
    at: float


@dataclass(frozen=True)
class Finished:
    at: float
    cancelled: bool = False  # the start time came with fewer than two entrants


Event = Created | Registered | Unregistered | Started | RoundPaired | Replayed | Arrived | GameFinished | Forfeited | Finished
