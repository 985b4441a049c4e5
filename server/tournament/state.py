"""A tournament's state as the fold of its events: :func:`apply` one event at a time,
:func:`rebuild` from a journal.  Pure: no clock, no randomness, no decisions (those were
made by the director and are in the events)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .events import (
    Arrived, Created, Event, Finished, Forfeited, GameFinished, Registered, Replayed, RoundPaired, Started,
    Unregistered,
)  # fmt: skip
from .values import Entrant, GameKey, GameResult, Pairing, Phase, Settings, TournamentError


@dataclass(frozen=True)
class RoundState:
    number: int
    games: tuple[Pairing, ...]
    byes: tuple[str, ...]
    slots: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class TournamentState:
    tournament: str
    settings: Settings
    creator: str
    seed: int
    phase: Phase = Phase.REGISTERING
    entrants: tuple[Entrant, ...] = ()
    ratings: tuple[float, ...] = ()  # one per entrant, at registration
    seeds: tuple[str, ...] = ()
    rounds: tuple[RoundState, ...] = ()
    results: tuple[GameResult, ...] = ()
    deadlines: tuple[tuple[GameKey, float], ...] = ()
    arrived: frozenset[tuple[GameKey, str]] = field(default_factory=frozenset)
    cancelled: bool = False

    def entrant(self, name: str) -> Entrant:
        for e in self.entrants:
            if e.name == name:
                return e
        raise TournamentError("not_registered", f"{name} is not in this tournament")

    def entrant_of(self, player: str) -> Entrant | None:
        """The entrant this player plays for (None: not registered)."""
        return next((e for e in self.entrants if player in e.members), None)

    @property
    def byes(self) -> tuple[str, ...]:
        return tuple(name for r in self.rounds for name in r.byes)

    @property
    def current(self) -> RoundState | None:
        return self.rounds[-1] if self.rounds else None

    def result(self, key: GameKey) -> GameResult | None:
        return next((r for r in self.results if r.key == key), None)

    def open_games(self) -> tuple[Pairing, ...]:
        """The games of the current round that have no result yet."""
        done = {r.key for r in self.results}
        return tuple(g for g in (self.current.games if self.current else ()) if g.key not in done)

    def deadline(self, key: GameKey) -> float:
        return dict(self.deadlines)[key]

    def is_last(self, key: GameKey) -> bool:
        """Whether no replay of this game follows it in the current round."""
        games = self.current.games if self.current else ()
        return not any(g.key.round == key.round and g.key.table == key.table and g.key.replay > key.replay
                       for g in games)  # fmt: skip


def apply(state: TournamentState | None, event: Event) -> TournamentState:
    """The state after one more event (``state`` None: before the first, a Created)."""
    if isinstance(event, Created):
        return TournamentState(event.tournament, event.settings, event.creator, event.seed)
    if state is None:
        raise TournamentError("bad_journal", f"a tournament's journal starts with Created, not {event!r}")
    if isinstance(event, Registered):
        return replace(state, entrants=(*state.entrants, event.entrant), ratings=(*state.ratings, event.rating))
    if isinstance(event, Unregistered):
        keep = [i for i, e in enumerate(state.entrants) if e.name != event.entrant]
        return replace(
            state, entrants=tuple(state.entrants[i] for i in keep), ratings=tuple(state.ratings[i] for i in keep)
        )
    if isinstance(event, Started):
        return replace(state, phase=Phase.RUNNING, seeds=event.seeds)
    if isinstance(event, RoundPaired):
        new = RoundState(event.number, event.games, event.byes, event.slots)
        return replace(
            state, rounds=(*state.rounds, new),
            deadlines=(*state.deadlines, *((g.key, event.deadline) for g in event.games)),
        )  # fmt: skip
    if isinstance(event, Replayed):
        last = state.rounds[-1]
        rounds = (*state.rounds[:-1], replace(last, games=(*last.games, event.game)))
        return replace(state, rounds=rounds, deadlines=(*state.deadlines, (event.game.key, event.deadline)))
    if isinstance(event, Arrived):
        return replace(state, arrived=state.arrived | {(event.game, event.player)})
    if isinstance(event, (GameFinished, Forfeited)):
        game = next(g for g in state.current.games if g.key == event.game) if state.current else None
        if game is None:
            raise TournamentError("bad_journal", f"no game {event.game} in the current round")
        if isinstance(event, GameFinished):
            result = GameResult(game.key, game.first, game.second, event.points)
        else:
            result = GameResult(game.key, game.first, game.second, (0, 0), event.absent)
        return replace(state, results=(*state.results, result))
    return replace(state, phase=Phase.FINISHED, cancelled=event.cancelled)


def rebuild(events: Iterable[Event]) -> TournamentState:
    """The state a journal of events leads to."""
    state: TournamentState | None = None
    for event in events:
        state = apply(state, event)
    if state is None:
        raise TournamentError("bad_journal", "a tournament's journal has no events")
    return state
