"""The director: a tournament's commands in, its events and effects out, sans I/O.

Each command takes ``now`` from the server's clock, checks itself against the state
(a refused command raises :class:`TournamentError` and changes nothing), and returns a
:class:`Step`: the events to journal (already folded into the director's state) and the
effects for the server to carry out.  The same events folded again rebuild the same
director (:meth:`Director.rebuild`); the seed decides every tie of the seeding, so a
tournament is deterministic given its seed, its entrants and its games' results."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from .effects import AnnounceRound, AnnounceStandings, Effect, ForfeitSeats, OpenTable, RecordResults, TellNoTable
from .events import (
    Arrived, Created, Event, Finished, Forfeited, GameFinished, Registered, Replayed, RoundPaired, Started,
    Unregistered,
)  # fmt: skip
from .rounds import knocked_out, next_round, no_table, replays, still_in
from .standings import tournament_standings
from .state import TournamentState, apply, rebuild
from .values import Entrant, GameKey, Pairing, Phase, Settings, StandingRow, TournamentError


@dataclass(frozen=True)
class Step:
    events: tuple[Event, ...] = ()
    effects: tuple[Effect, ...] = ()


class Director:
    """One tournament.  Build it with :meth:`create` or :meth:`rebuild`."""

    def __init__(self, state: TournamentState) -> None:
        self._state = state
        self._events: list[Event] = []
        self._effects: list[Effect] = []

    @property
    def state(self) -> TournamentState:
        return self._state

    @classmethod
    def create(cls, tournament: str, settings: Settings, creator: str, seed: int, now: float) -> tuple[Director, Step]:
        event = Created(tournament, settings, creator, seed, now)
        director = cls(apply(None, event))
        return director, Step((event,))

    @classmethod
    def rebuild(cls, events: Iterable[Event]) -> Director:
        return cls(rebuild(events))

    def standings(self) -> tuple[StandingRow, ...]:
        return tournament_standings(self._state)

    # -- commands ------------------------------------------------------------------------

    def register(self, entrant: Entrant, rating: float, now: float) -> Step:
        s = self._state
        self._registering()
        if len(entrant.members) != s.settings.team_size:
            raise TournamentError("bad_entrant", f"this game's entrants are {s.settings.team_size} player(s)")
        if any(e.name == entrant.name or set(e.members) & set(entrant.members) for e in s.entrants):
            raise TournamentError("already_registered", f"{entrant.name} is already in this tournament")
        if len(s.entrants) >= s.settings.cap:
            raise TournamentError("tournament_full", f"{s.settings.name} is full")
        return self._step(Registered(entrant, rating, now))

    def unregister(self, player: str, now: float) -> Step:
        self._registering()
        entrant = self._state.entrant_of(player)
        if entrant is None:
            raise TournamentError("not_registered", f"{player} is not in this tournament")
        return self._step(Unregistered(entrant.name, now))

    def start(self, by: str | None, now: float) -> Step:
        """The creator (``by``; None: the server itself) starts the tournament now."""
        self._registering()
        if by is not None and by != self._state.creator:
            raise TournamentError("not_allowed", "only the tournament's creator starts it")
        if len(self._state.entrants) < 2:
            raise TournamentError("too_few_entrants", "a tournament needs at least 2 entrants to start")
        self._begin(now)
        return self._flush()

    def tick(self, now: float) -> Step:
        """What time alone does: the start time comes, a grace period ends."""
        s = self._state
        if s.phase is Phase.REGISTERING and s.settings.starts_at is not None and now >= s.settings.starts_at:
            if len(s.entrants) < 2:
                self._emit(Finished(now, cancelled=True))
                self._effects.append(RecordResults(s.tournament, tournament_standings(self._state), cancelled=True))
            else:
                self._begin(now)
        elif s.phase is Phase.RUNNING:
            for game in s.open_games():
                if s.deadline(game.key) > now:
                    continue
                absent = self._absent_players(game)
                if absent:
                    sides = tuple(side for side in game.sides if set(s.entrant(side).members) & set(absent))
                    self._emit(Forfeited(game.key, sides, now))
                    self._effects.append(ForfeitSeats(s.tournament, game.key, absent))
            self._after_results(now)
        return self._flush()

    def arrive(self, player: str, now: float) -> Step:
        """The player sat at their table of the current round."""
        game = self._game_of(player)
        if (game.key, player) in self._state.arrived:
            return Step()
        return self._step(Arrived(game.key, player, now))

    def finish_game(self, game: GameKey, points: tuple[int, int], now: float) -> Step:
        if not any(g.key == game for g in self._state.open_games()):
            raise TournamentError("no_such_game", f"no game {game} is being played")
        if len(points) != 2 or any(not isinstance(p, int) or p < 0 for p in points):
            raise TournamentError("bad_points", "a game's result is two non-negative scores")
        self._emit(GameFinished(game, points, now))
        self._after_results(now)
        return self._flush()

    def due(self) -> float | None:
        """When :meth:`tick` has something to do next (None: only a command can change it)."""
        s = self._state
        if s.phase is Phase.REGISTERING:
            return s.settings.starts_at
        waits = [s.deadline(g.key) for g in s.open_games() if self._absent_players(g)]
        return min(waits) if waits else None

    def resume(self) -> Step:
        """After a rebuild: the tables of the games without a result (the server opens
        those it has not restored itself)."""
        s = self._state
        return Step((), tuple(self._open_table(g, s.deadline(g.key)) for g in s.open_games()))

    # -- inside --------------------------------------------------------------------------

    def _registering(self) -> None:
        if self._state.phase is not Phase.REGISTERING:
            raise TournamentError("tournament_started", "registration is closed")

    def _emit(self, event: Event) -> None:
        self._state = apply(self._state, event)
        self._events.append(event)

    def _step(self, event: Event) -> Step:
        self._emit(event)
        return self._flush()

    def _flush(self) -> Step:
        step = Step(tuple(self._events), tuple(self._effects))
        self._events.clear()
        self._effects.clear()
        return step

    def _game_of(self, player: str) -> Pairing:
        entrant = self._state.entrant_of(player)
        for game in self._state.open_games():
            if entrant is not None and entrant.name in game.sides:
                return game
        raise TournamentError("no_table", f"{player} has no table in this round")

    def _absent_players(self, game: Pairing) -> tuple[str, ...]:
        s = self._state
        return tuple(
            p for side in game.sides for p in s.entrant(side).members if (game.key, p) not in s.arrived
        )  # fmt: skip

    def _open_table(self, game: Pairing, deadline: float) -> OpenTable:
        s = self._state
        first, second = s.entrant(game.first).members, s.entrant(game.second).members
        seats = tuple(p for pair in zip(first, second) for p in pair)
        return OpenTable(
            s.tournament, game.key, s.settings.preset, seats, deadline, game.decider, s.settings.bots_allowed
        )

    def _begin(self, now: float) -> None:
        s = self._state
        rng = random.Random(s.seed)
        draw = [rng.random() for _ in s.entrants]
        order = sorted(range(len(s.entrants)), key=lambda i: (-s.ratings[i], draw[i]))
        self._emit(Started(tuple(s.entrants[i].name for i in order), now))
        self._after_results(now)

    def _after_results(self, now: float) -> None:
        s = self._state
        if s.phase is not Phase.RUNNING or s.open_games():
            return
        again = replays(s)
        deadline = now + s.settings.grace
        for game in again:
            self._emit(Replayed(game, deadline, now))
            self._effects.append(self._open_table(game, deadline))
        if again:
            return
        out = knocked_out(s)
        following = next_round(s)
        if following is None:
            return self._finish(now, out, still_in(s))
        number, games, byes = following.number, following.games, following.byes
        self._emit(RoundPaired(number, games, byes, deadline, now, following.slots))
        self._effects.append(AnnounceRound(s.tournament, number, games, byes))
        for name in (*(loser for loser, _ in out), *byes):  # out, then the byes: told as said again later
            told = no_table(self._state, name)
            if told is not None:
                self._effects.append(told)
        self._effects.extend(self._open_table(g, deadline) for g in games)
        self._effects.append(AnnounceStandings(s.tournament, tournament_standings(self._state)))

    def _finish(self, now: float, out: tuple[tuple[str, str], ...] = (), left: tuple[str, ...] = ()) -> None:
        """The tournament is over: its final standings; those knocked out by its last
        round are told so, and those still in (``left``) their final place."""
        last = self._state.current.number if self._state.current is not None else 1
        self._emit(Finished(now))
        rows = tournament_standings(self._state)
        tid = self._state.tournament
        rank = {r.entrant: r.rank for r in rows}
        self._effects.extend(TellNoTable(tid, loser, "knocked_out", last, by=by, place=rank[loser]) for loser, by in out)
        self._effects.extend(TellNoTable(tid, name, "finished", last, place=rank[name]) for name in left)
        self._effects.append(AnnounceStandings(tid, rows, final=True))
        self._effects.append(RecordResults(tid, rows))
