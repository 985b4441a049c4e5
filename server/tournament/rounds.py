"""What comes after a round, from a tournament's state: the next round's tables by its
format (or None: the tournament is over), a knockout round's drawn games to play again,
and what the running round means for an entrant it gives no table.  Pure functions of
the state; the director turns them into events and effects."""

from __future__ import annotations

from dataclasses import dataclass

from .effects import TellNoTable
from .knockout import first_slots, goes_through, knockout_round, next_slots
from .round_robin import round_robin
from .standings import match_halves, tournament_standings
from .state import TournamentState
from .swiss import pair_swiss
from .values import Format, GameKey, GameResult, Pairing, Phase, TieBreak


@dataclass(frozen=True)
class NextRound:
    number: int
    games: tuple[Pairing, ...]
    byes: tuple[str, ...]
    slots: tuple[str | None, ...] = ()  # knockout: the round's places in bracket order


def next_round(s: TournamentState) -> NextRound | None:
    """The next round of a tournament whose current round is over (None: it is over)."""
    number = len(s.rounds) + 1
    slots: tuple[str | None, ...] = ()
    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    byes: tuple[str, ...]
    if s.settings.format is Format.SWISS:
        if number > s.settings.rounds:
            return None
        ranking = [row.entrant for row in tournament_standings(s)]
        met = {frozenset((r.first, r.second)) for r in s.results}
        paired = pair_swiss(ranking, match_halves(s.seeds, s.results, s.byes), met, set(s.byes))
        pairs, byes = paired.pairs, (paired.bye,) if paired.bye is not None else ()
    elif s.settings.format is Format.ROUND_ROBIN:
        schedule = round_robin(s.seeds)
        if number > len(schedule):
            return None
        bye = schedule[number - 1].bye
        pairs, byes = schedule[number - 1].pairs, (bye,) if bye is not None else ()
    else:
        slots = first_slots(s.seeds) if s.current is None else _advance(s)
        if len(slots) == 1:
            return None
        ko = knockout_round(slots)
        pairs, byes = ko.pairs, ko.byes
    games = tuple(Pairing(GameKey(number, i), a, b) for i, (a, b) in enumerate(pairs, start=1))
    return NextRound(number, games, byes, slots)


def replays(s: TournamentState) -> tuple[Pairing, ...]:
    """A finished knockout round's tied games, to be played again by the same two by the
    tournament's tie-break (a rematch, or a deciding round): a drawn game, every time,
    and a game neither side came to, once (the last game of each table decides; after a
    second game neither came to, the better seed goes through: :func:`goes_through`)."""
    if s.settings.format is not Format.KNOCKOUT or s.current is None:
        return ()
    out = []
    for game in s.current.games:
        result = s.result(game.key)
        if result is None or not s.is_last(game.key) or result.winner is not None:
            continue
        nobody_came = len(result.forfeited) == 2
        if not nobody_came or not _nobody_came_before(s, game):
            key = GameKey(game.key.round, game.key.table, game.key.replay + 1)
            out.append(Pairing(key, game.first, game.second, s.settings.tie_break is TieBreak.DECIDING_ROUND))
    return tuple(out)


def knocked_out(s: TournamentState) -> tuple[tuple[str, str], ...]:
    """A finished knockout round's losers, each with the entrant who went through instead
    (none in another format, or before the first round)."""
    if s.settings.format is not Format.KNOCKOUT or s.current is None:
        return ()
    out = []
    for result in _deciding(s):
        winner = goes_through(result, s.seeds)
        out.append((result.second if winner == result.first else result.first, winner))
    return tuple(out)


def still_in(s: TournamentState) -> tuple[str, ...]:
    """The entrants not knocked out once the current round is over: in a knockout those
    who go through it (before the first round: every entrant), else every entrant."""
    if s.settings.format is not Format.KNOCKOUT:
        return tuple(e.name for e in s.entrants)
    return tuple(x for x in (_advance(s) if s.current is not None else first_slots(s.seeds)) if x is not None)


def no_table(s: TournamentState, entrant: str) -> TellNoTable | None:
    """What the running tournament says to ``entrant`` while it gives it no table: a bye
    in the current round (worth a win), or, in a knockout, that it is out (the round it
    lost, who went through, and the place it shares with the others out then: after those
    still in the round that followed).  None: it has a table, or the tournament is not
    running (its end tells every entrant its final place).  Read from the state alone,
    so a restarted server says it again as the director first said it."""
    if s.phase is not Phase.RUNNING or s.current is None:
        return None
    if entrant in s.current.byes:
        return TellNoTable(s.tournament, entrant, "bye", s.current.number, points=1.0)
    if s.settings.format is not Format.KNOCKOUT:
        return None
    for lost, following in zip(s.rounds, s.rounds[1:]):
        if entrant in lost.slots and entrant not in following.slots:
            games = [r for r in s.results if r.key.round == lost.number and entrant in (r.first, r.second)]
            deciding = max(games, key=lambda r: r.key.replay)
            place = sum(1 for name in following.slots if name is not None) + 1
            return TellNoTable(s.tournament, entrant, "knocked_out", lost.number, by=goes_through(deciding, s.seeds),
                               place=place)  # fmt: skip
    return None


def _nobody_came_before(s: TournamentState, game: Pairing) -> bool:
    """Whether an earlier game of this table was one neither side came to."""
    return any(len(r.forfeited) == 2 for r in s.results
               if r.key.round == game.key.round and r.key.table == game.key.table and r.key.replay < game.key.replay)


def _deciding(s: TournamentState) -> list[GameResult]:
    """The current round's deciding results (each table's last game), in bracket order."""
    assert s.current is not None
    number = s.current.number
    return sorted((r for r in s.results if r.key.round == number and s.is_last(r.key)), key=lambda r: r.key)


def _advance(s: TournamentState) -> tuple[str | None, ...]:
    assert s.current is not None
    return next_slots(s.current.slots, [goes_through(r, s.seeds) for r in _deciding(s)])
