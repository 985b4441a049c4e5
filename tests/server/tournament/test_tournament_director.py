"""The director: registration until the start, a scheduled or manual start, forfeits
after the grace period, and a tournament rebuilt from its events (a server restart)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.engine.rules import Preset
from scopa.server.tournament import (
    AnnounceRound, AnnounceStandings, Director, Entrant, Finished, ForfeitSeats, Forfeited, Format, OpenTable,
    Phase, RecordResults, Settings, TournamentError,
)  # fmt: skip
from tournament_play import director_with, play_open_games

pytestmark = pytest.mark.unit


def fresh(cap: int = 4, starts_at: float | None = None, fmt: Format = Format.ROUND_ROBIN) -> Director:
    settings = Settings("Coppa", Preset.SCOPA, fmt, cap=cap, rounds=1 if fmt is Format.SWISS else 0,
                        starts_at=starts_at, grace=30.0)  # fmt: skip
    director, step = Director.create("t1", settings, "ada", seed=3, now=0.0)
    assert len(step.events) == 1
    return director


def refused(code: str, command: object) -> None:
    assert callable(command)
    with pytest.raises(TournamentError) as caught:
        command()
    assert caught.value.code == code


def test_players_register_and_unregister_until_the_start() -> None:
    director = fresh(cap=3)
    for name in ("ada", "bea", "cal"):
        director.register(Entrant.player(name), 1500.0, now=1.0)
    refused("tournament_full", lambda: director.register(Entrant.player("dan"), 1500.0, now=1.0))
    refused("already_registered", lambda: director.register(Entrant.player("bea"), 1500.0, now=1.0))
    director.unregister("bea", now=2.0)
    refused("not_registered", lambda: director.unregister("bea", now=2.0))
    director.register(Entrant.player("dan"), 1500.0, now=3.0)
    assert [e.name for e in director.state.entrants] == ["ada", "cal", "dan"]
    refused("not_allowed", lambda: director.start("cal", now=4.0))
    director.start("ada", now=4.0)
    refused("tournament_started", lambda: director.unregister("cal", now=5.0))
    refused("tournament_started", lambda: director.register(Entrant.player("eva"), 1500.0, now=5.0))


def test_a_refused_command_changes_nothing() -> None:
    director = fresh(cap=2)
    director.register(Entrant.player("ada"), 1500.0, now=1.0)
    before = director.state
    refused("too_few_entrants", lambda: director.start("ada", now=2.0))
    assert director.state is before
    director.register(Entrant.player("bea"), 1500.0, now=1.0)
    director.start("ada", now=2.0)
    before = director.state
    key = before.open_games()[0].key
    refused("bad_points", lambda: director.finish_game(key, (11, -1), 3.0))
    assert director.state is before


def test_the_start_time_starts_it_and_pairs_the_first_round() -> None:
    director = fresh(starts_at=100.0)
    for name in ("ada", "bea", "cal", "dan"):
        director.register(Entrant.player(name), 1500.0, now=1.0)
    assert director.due() == 100.0
    assert director.tick(99.0).events == ()
    step = director.tick(100.0)
    assert director.state.phase is Phase.RUNNING
    kinds = [type(e) for e in step.effects]
    assert kinds == [AnnounceRound, OpenTable, OpenTable, AnnounceStandings]
    assert {t.deadline for t in step.effects if isinstance(t, OpenTable)} == {130.0}


def test_a_start_time_with_one_entrant_cancels_the_tournament() -> None:
    director = fresh(starts_at=100.0)
    director.register(Entrant.player("ada"), 1500.0, now=1.0)
    step = director.tick(100.0)
    assert step.events == (Finished(100.0, cancelled=True),)
    assert [type(e) for e in step.effects] == [RecordResults]
    assert director.state.phase is Phase.FINISHED


def test_a_player_who_does_not_come_within_the_grace_period_loses_by_forfeit() -> None:
    director = director_with([Entrant.player(n) for n in ("ada", "bea")], Format.SWISS, rounds=1, grace=30.0)
    (game,) = director.state.open_games()
    director.arrive("ada", now=10.0)
    assert director.due() == 32.0  # started at 2.0
    assert director.tick(31.9).events == ()
    step = director.tick(32.0)
    assert step.events[0] == Forfeited(game.key, ("bea",), 32.0)
    assert ForfeitSeats("t1", game.key, ("bea",)) in step.effects
    assert director.state.phase is Phase.FINISHED
    rows = director.standings()
    assert [(r.entrant, r.match_points, r.wins, r.losses, r.game_points) for r in rows] == [
        ("ada", 1.0, 1, 0, 0), ("bea", 0.0, 0, 1, 0)]


def test_nobody_forfeits_when_everyone_came() -> None:
    director = director_with([Entrant.player(n) for n in ("ada", "bea")], Format.SWISS, rounds=1, grace=30.0)
    director.arrive("ada", now=10.0)
    director.arrive("bea", now=11.0)
    assert director.due() is None
    assert director.tick(500.0).events == ()
    assert director.state.open_games() != ()


def test_a_tournament_rebuilt_from_its_events_goes_on_the_same_way() -> None:
    names = [Entrant.player(n) for n in "ABCDEFG"]
    settings = Settings("Coppa", Preset.SCOPA, Format.SWISS, cap=8, rounds=3, grace=30.0)
    director, step = Director.create("t1", settings, "A", seed=11, now=0.0)
    journal = list(step.events)
    for i, entrant in enumerate(names):
        journal += director.register(entrant, 1500.0 + (i % 3), now=1.0).events
    journal += director.start("A", now=2.0).events
    games = director.state.open_games()
    journal += director.arrive("A", now=3.0).events
    journal += director.finish_game(games[0].key, (11, 4), now=4.0).events

    restarted = Director.rebuild(journal)
    assert restarted.state == director.state
    reopened = restarted.resume().effects
    assert [t.game for t in reopened if isinstance(t, OpenTable)] == [g.key for g in games[1:]]
    for d in (director, restarted):
        play_open_games(d, lambda g: (11, 9), now=50.0)
        play_open_games(d, lambda g: (7, 11), now=60.0)
    assert restarted.state == director.state
    assert restarted.standings() == director.standings()


def test_the_same_seed_gives_the_same_seeding_and_another_seed_may_not() -> None:
    def seeds(seed: int) -> tuple[str, ...]:
        return director_with([Entrant.player(n) for n in "ABCDEFGH"], Format.KNOCKOUT,
                             ratings=[1500.0] * 8, seed=seed).state.seeds  # fmt: skip

    assert seeds(5) == seeds(5)
    assert len({seeds(s) for s in range(6)}) > 1


def test_an_unknown_game_or_a_player_without_a_table_is_refused() -> None:
    director = director_with([Entrant.player(n) for n in ("ada", "bea", "cal")], Format.SWISS, rounds=2)
    bye = director.state.current.byes[0]  # type: ignore[union-attr]
    refused("no_table", lambda: director.arrive(bye, now=5.0))
    refused("no_table", lambda: director.arrive("zed", now=5.0))
    game = director.state.open_games()[0]
    director.finish_game(game.key, (11, 3), now=6.0)
    refused("no_such_game", lambda: director.finish_game(game.key, (11, 3), now=7.0))


@settings(max_examples=30, deadline=None)
@given(fmt=st.sampled_from(list(Format)), n=st.integers(2, 9), data=st.data())
def test_the_events_rebuild_the_same_tournament_after_every_step(fmt: Format, n: int, data: st.DataObject) -> None:
    """A restart may come between any two commands: the journal so far rebuilds the same state."""
    settings_ = Settings("Coppa", Preset.SCOPA, fmt, cap=n, rounds=min(3, n - 1), grace=30.0)
    director, step = Director.create("t1", settings_, "p0", seed=data.draw(st.integers(0, 99)), now=0.0)
    journal = list(step.events)
    for i in range(n):
        journal += director.register(Entrant.player(f"p{i}"), float(data.draw(st.integers(1000, 1010))), 1.0).events
    journal += director.start("p0", now=2.0).events
    now = 2.0
    while director.state.phase is Phase.RUNNING:
        now += 40.0
        game = director.state.open_games()[0]
        for player in game.sides:
            if data.draw(st.booleans()):
                journal += director.arrive(player, now - 39.0).events
                assert Director.rebuild(journal).state == director.state
        if data.draw(st.booleans()):
            journal += director.finish_game(game.key, (data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))),
                                            now).events  # fmt: skip
        else:
            journal += director.tick(now).events  # the grace period is over: forfeits for who did not come
        assert Director.rebuild(journal).state == director.state
    assert director.state.phase is Phase.FINISHED
