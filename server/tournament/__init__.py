"""Tournaments and quick play, the pure core: no I/O, no clock, no server.

Owns: a tournament's values (:mod:`.values`), its events and their fold (:mod:`.events`,
:mod:`.state`), the pairing of each format (:mod:`.swiss` through networkx's
maximum-weight matching, :mod:`.round_robin` by the circle method, :mod:`.knockout` a
seeded bracket with byes, and :mod:`.rounds` choosing among them), the standings
(:mod:`.standings`), the :class:`Director` that
turns commands into events and effects (:mod:`.director`, :mod:`.effects`), and quick
play's waiting pool (:mod:`.quick_pool`).

Must never: do I/O, read a clock (every command takes ``now``), draw randomness other
than from a tournament's seed, or import anything of ``scopa.server`` outside this
package.  The server journals the events, rebuilds a :class:`Director` from them on
restart (or on another member of a cluster), and carries out the effects: opening
tables, seating players, forfeiting seats, announcing and recording.

Public names: ``AnnounceRound``, ``AnnounceStandings``, ``Arrived``, ``Created``,
``Director``, ``Effect``, ``Entrant``, ``Event``, ``Finished``, ``ForfeitSeats``,
``Forfeited``, ``Format``, ``GameFinished``, ``GameKey``, ``GameResult``, ``KnockoutRound``,
``NextRound``, ``OpenTable``, ``Pairing``, ``Phase``, ``QuickBotGame``, ``QuickEffect``,
``QuickEntry``, ``QuickPaired``, ``QuickPool``, ``QuickWaiting``, ``RankKey``, ``RecordResults``,
``Registered``, ``Replayed``, ``RoundPaired``, ``RoundRobinRound``, ``RoundState``,
``Settings``, ``StandingRow``, ``Started``, ``Step``, ``SwissRound``, ``TellNoTable``, ``TieBreak``,
``TournamentError``, ``TournamentState``, ``Unregistered``, ``apply``, ``bracket_order``,
``closest_tables``, ``first_slots``, ``goes_through``, ``knocked_out``, ``knockout_round``, ``match_halves``,
``next_round``, ``next_slots``, ``no_table``, ``NoTableKind``, ``pair_swiss``, ``ranked_by``, ``rebuild``, ``replays``, ``round_robin``,
``seats_per_side``, ``standings``, ``still_in``, ``table_size``, ``tournament_standings``."""

from .director import Director, Step
from .effects import (
    AnnounceRound, AnnounceStandings, Effect, ForfeitSeats, NoTableKind, OpenTable, RecordResults, TellNoTable,
)  # fmt: skip
from .events import (
    Arrived, Created, Event, Finished, Forfeited, GameFinished, Registered, Replayed, RoundPaired, Started,
    Unregistered,
)  # fmt: skip
from .knockout import KnockoutRound, bracket_order, first_slots, goes_through, knockout_round, next_slots
from .quick_pool import QuickBotGame, QuickEffect, QuickEntry, QuickPaired, QuickPool, QuickWaiting, closest_tables
from .round_robin import RoundRobinRound, round_robin
from .rounds import NextRound, knocked_out, next_round, no_table, replays, still_in
from .standings import match_halves, ranked_by, standings, tournament_standings
from .state import RoundState, TournamentState, apply, rebuild
from .swiss import SwissRound, pair_swiss
from .values import (
    Entrant, Format, GameKey, GameResult, Pairing, Phase, RankKey, Settings, StandingRow, TieBreak, TournamentError,
    seats_per_side, table_size,
)  # fmt: skip

__all__ = [
    "AnnounceRound", "AnnounceStandings", "Arrived", "Created", "Director", "Effect", "Entrant", "Event",
    "Finished", "ForfeitSeats", "Forfeited", "Format", "GameFinished", "GameKey", "GameResult", "KnockoutRound",
    "NextRound", "NoTableKind", "OpenTable", "Pairing", "Phase", "QuickBotGame", "QuickEffect", "QuickEntry", "QuickPaired",
    "QuickPool", "QuickWaiting", "RankKey", "RecordResults", "Registered", "Replayed", "RoundPaired", "RoundRobinRound",
    "RoundState", "Settings", "StandingRow", "Started", "Step", "SwissRound", "TellNoTable", "TieBreak", "TournamentError",
    "TournamentState", "Unregistered", "apply", "bracket_order", "closest_tables", "first_slots", "goes_through",
    "knocked_out", "knockout_round", "match_halves", "next_round", "next_slots", "no_table", "pair_swiss", "ranked_by", "rebuild", "replays",
    "round_robin", "seats_per_side", "standings", "still_in", "table_size", "tournament_standings",
]  # fmt: skip
