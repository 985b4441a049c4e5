"""A tournament as the wire shows it (PROTOCOL.md §16): its map, its games, its standings,
and what a round without a table means for an entrant."""

from __future__ import annotations

from datetime import UTC, datetime

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server.tournament import Pairing, StandingRow, TellNoTable, TournamentError, TournamentState, ranked_by


def error_code(refusal: TournamentError) -> ErrorCode:
    """The wire's code of a refusal of the core (one the wire does not name: ``bad_body``)."""
    try:
        return ErrorCode(refusal.code)
    except ValueError:
        return ErrorCode.BAD_BODY


def game_view(game: Pairing) -> wire.TournamentGame:
    return wire.TournamentGame(table=game.key.table, first=game.first, second=game.second, replay=game.key.replay,
                               decider=game.decider)


def info_view(state: TournamentState) -> wire.TournamentInfo:
    """A tournament's times are Unix times (server/club/tournaments.py)."""
    s = state.settings
    starts = None
    if s.starts_at is not None:
        starts = datetime.fromtimestamp(s.starts_at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return wire.TournamentInfo(
        id=state.tournament, name=s.name, creator=state.creator, preset=s.preset,
        format=wire.TournamentFormat(s.format.value), rounds=s.rounds, cap=s.cap, starts_at=starts,
        phase=wire.TournamentPhase(state.phase.value), round=state.current.number if state.current else 0,
        entrants=[e.name for e in state.entrants],
    )  # fmt: skip


def standings_view(tournament: str, state: TournamentState, rows: tuple[StandingRow, ...],
                   final: bool = False) -> wire.TournamentStandings:
    done = {r.key.round for r in state.results}
    played = max((r.number for r in state.rounds if r.number in done or not r.games), default=0)
    return wire.TournamentStandings(
        tournament=tournament, round=played, final=final,
        ranked_by=[wire.StandingsKey(k.value) for k in ranked_by(state.settings.format)],
        rows=[wire.StandingsRow(rank=r.rank, entrant=r.entrant, match_points=r.match_points, buchholz=r.buchholz,
                                game_points=r.game_points, played=r.played, wins=r.wins, draws=r.draws,
                                losses=r.losses, byes=r.byes) for r in rows],
    )  # fmt: skip


def no_table_view(state: TournamentState, told: TellNoTable) -> wire.TournamentNoTable:
    return wire.TournamentNoTable(tournament=state.tournament, name=state.settings.name, kind=told.kind,
                                  round=told.round, by=told.by, place=told.place, points=told.points)
