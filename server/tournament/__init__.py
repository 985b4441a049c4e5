"""Tournaments and quick play, the pure core: no I/O, no clock, no server.

Owns: a tournament's values (:mod:`.values`), its events and their fold (:mod:`.events`,
:mod:`.state`), the pairing of each format (:mod:`.swiss` through networkx's
maximum-weight matching, :mod:`.round_robin` by the circle method, :mod:`.knockout` a
seeded bracket with byes), the standings (:mod:`.standings`), the :class:`Director` that
turns commands into events and effects (:mod:`.director`, :mod:`.effects`), and quick
play's waiting pool (:mod:`.quick_pool`).

Must never: do I/O, read a clock (every command takes ``now``), draw randomness other
than from a tournament's seed, or import anything of ``scopa.server`` outside this
package.  The server journals the events, rebuilds a :class:`Director` from them on
restart (or on another member of a cluster), and carries out the effects: opening
tables, seating players, forfeiting seats, announcing and recording."""

from .director import Director, Step
from .effects import AnnounceRound, AnnounceStandings, Effect, ForfeitSeats, OpenTable, RecordResults
from .events import (
    Arrived, Created, Event, Finished, Forfeited, GameFinished, Registered, Replayed, RoundPaired, Started,
    Unregistered,
)  # fmt: skip
from .quick_pool import QuickBotGame, QuickEffect, QuickEntry, QuickPaired, QuickPool, QuickWaiting
from .standings import standings, tournament_standings
from .state import TournamentState, apply, rebuild
from .values import (
    Entrant, Format, GameKey, GameResult, Pairing, Phase, Settings, StandingRow, TieBreak, TournamentError,
)  # fmt: skip

__all__ = [
    "AnnounceRound", "AnnounceStandings", "Arrived", "Created", "Director", "Effect", "Entrant", "Event",
    "Finished", "ForfeitSeats", "Forfeited", "Format", "GameFinished", "GameKey", "GameResult", "OpenTable",
    "Pairing", "Phase", "QuickBotGame", "QuickEffect", "QuickEntry", "QuickPaired", "QuickPool", "QuickWaiting",
    "RecordResults", "Registered", "Replayed", "RoundPaired", "Settings", "StandingRow", "Started", "Step",
    "TieBreak", "TournamentError", "TournamentState", "Unregistered", "apply", "rebuild", "standings", "tournament_standings",
]  # fmt: skip
