"""Round-robin (the circle method, Scopone's fixed pairs entered as teams) and knockout
(a seeded bracket with byes, a drawn game played again, standings without Buchholz)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa.engine.rules import Preset
from scopa.server.tournament import (
    Director, Entrant, Format, OpenTable, Pairing, Phase, RankKey, Settings, TieBreak, TournamentError, bracket_order,
    first_slots, ranked_by, round_robin,
)  # fmt: skip
from tournament_play import Points, director_with, play_open_games

pytestmark = pytest.mark.unit

TEAMS = [Entrant.team("Sud", "ada", "bea"), Entrant.team("Nord", "cal", "dan"),
         Entrant.team("Est", "eva", "fil"), Entrant.team("Ovest", "gio", "ivo")]  # fmt: skip


def better_seed_wins(seeds: tuple[str, ...]) -> Points:
    def points(game: Pairing) -> tuple[int, int]:
        return (21, 12) if seeds.index(game.first) < seeds.index(game.second) else (12, 21)

    return points


def test_a_scopone_round_robin_of_four_teams() -> None:
    director = director_with(TEAMS, Format.ROUND_ROBIN, preset=Preset.SCOPONE)
    met: list[frozenset[str]] = []
    while director.state.phase is not Phase.FINISHED:
        current = director.state.current
        assert current is not None and current.byes == ()
        assert sorted(n for g in current.games for n in g.sides) == sorted(t.name for t in TEAMS)
        met += [frozenset(g.sides) for g in current.games]
        play_open_games(director, better_seed_wins(director.state.seeds), now=float(current.number))
    assert len(director.state.rounds) == 3
    assert sorted(map(sorted, met)) == sorted(sorted((a.name, b.name)) for i, a in enumerate(TEAMS) for b in TEAMS[i + 1:])
    assert director.state.rounds[0].games[0].sides == ("Sud", "Ovest")
    assert [(r.entrant, r.match_points, r.game_points) for r in director.standings()] == [
        ("Sud", 3.0, 63), ("Nord", 2.0, 54), ("Est", 1.0, 45), ("Ovest", 0.0, 36)]


def test_the_first_round_tables_seat_team_members_opposite() -> None:
    # R5: partners sit opposite, the first team on seats 0 and 2
    settings = Settings("Coppa", Preset.SCOPONE, Format.ROUND_ROBIN, cap=4)
    director, _ = Director.create("t1", settings, "ada", seed=1, now=0.0)
    for i, team in enumerate(TEAMS):
        director.register(team, 2000.0 - i, now=0.0)
    step = director.start("ada", now=5.0)
    opened = [e for e in step.effects if isinstance(e, OpenTable)]
    assert [(t.preset, t.seats, t.deadline) for t in opened] == [
        (Preset.SCOPONE, ("ada", "gio", "bea", "ivo"), 65.0),
        (Preset.SCOPONE, ("cal", "eva", "dan", "fil"), 65.0)]


def test_a_scopone_tournament_takes_teams_of_two_only() -> None:
    settings = Settings("Coppa", Preset.SCOPONE, Format.ROUND_ROBIN, cap=4)
    director, _ = Director.create("t1", settings, "ada", seed=1, now=0.0)
    with pytest.raises(TournamentError) as refused:
        director.register(Entrant.player("ada"), 1500.0, now=0.0)
    assert refused.value.code == "bad_entrant"
    assert director.state.entrants == ()


@given(n=st.integers(2, 16))
def test_round_robin_everyone_meets_everyone_exactly_once(n: int) -> None:
    names = [f"p{i}" for i in range(n)]
    rounds = round_robin(names)
    pairs = [frozenset(p) for r in rounds for p in r.pairs]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    assert len(rounds) == (n if n % 2 else n - 1)
    for r in rounds:
        seated = [x for p in r.pairs for x in p] + ([r.bye] if r.bye else [])
        assert sorted(seated) == sorted(names)


def test_the_bracket_places_the_two_best_seeds_in_opposite_halves() -> None:
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert first_slots(list("ABCDEF")) == ("A", None, "D", "E", "B", None, "C", "F")


def test_a_knockout_of_six_gives_the_two_best_seeds_a_bye() -> None:
    director = director_with([Entrant.player(n) for n in "ABCDEF"], Format.KNOCKOUT)
    seeds = director.state.seeds
    assert seeds == tuple("ABCDEF")
    first = director.state.current
    assert first is not None
    assert [g.sides for g in first.games] == [("D", "E"), ("C", "F")]
    assert first.byes == ("A", "B")
    # the lower seed wins every game: E and F go through
    play_open_games(director, lambda g: (5, 11), now=10.0)
    second = director.state.current
    assert second is not None and second.number == 2
    assert [g.sides for g in second.games] == [("A", "E"), ("B", "F")]
    assert second.byes == ()
    play_open_games(director, lambda g: (11, 5), now=20.0)
    final = director.state.current
    assert final is not None and [g.sides for g in final.games] == [("A", "B")]
    play_open_games(director, lambda g: (3, 11), now=30.0)
    assert director.state.phase is Phase.FINISHED
    assert [r.entrant for r in director.standings()][:2] == ["B", "A"]


@pytest.mark.parametrize(("tie_break", "decider"), [(TieBreak.REMATCH, False), (TieBreak.DECIDING_ROUND, True)])
def test_a_drawn_knockout_game_is_played_again(tie_break: TieBreak, decider: bool) -> None:
    director = director_with([Entrant.player(n) for n in "AB"], Format.KNOCKOUT, tie_break=tie_break)
    steps = play_open_games(director, lambda g: (11, 11), now=10.0)
    again = [e for e in steps[-1].effects if isinstance(e, OpenTable)]
    assert [(t.game.round, t.game.table, t.game.replay, t.seats, t.decider) for t in again] == [
        (1, 1, 1, ("A", "B"), decider)]
    assert [g.key.replay for g in director.state.open_games()] == [1]
    play_open_games(director, lambda g: (2, 3), now=20.0)
    assert director.state.phase is Phase.FINISHED
    assert director.standings()[0].entrant == "B"


@pytest.mark.parametrize(("tie_break", "decider"), [(TieBreak.REMATCH, False), (TieBreak.DECIDING_ROUND, True)])
def test_a_knockout_game_neither_side_came_to_is_played_again_once(tie_break: TieBreak, decider: bool) -> None:
    """A tie by no-shows is a tie: the tie-break's game, with a new grace period; when
    neither comes to that one either, the better seed goes through (the bracket goes on)."""
    director = director_with([Entrant.player(n) for n in "AB"], Format.KNOCKOUT, tie_break=tie_break, grace=60.0)
    assert director.state.seeds == ("A", "B")
    step = director.tick(62.0)  # the grace period is over: nobody came
    again = [e for e in step.effects if isinstance(e, OpenTable)]
    assert [(t.game.replay, t.seats, t.decider, t.deadline) for t in again] == [(1, ("A", "B"), decider, 122.0)]
    assert director.state.phase is Phase.RUNNING and director.due() == 122.0
    director.tick(122.0)  # nobody came again: A, the better seed, goes through and wins
    assert director.state.phase is Phase.FINISHED
    assert [(r.entrant, r.losses) for r in director.standings()] == [("A", 2), ("B", 2)]  # a no-show loses


def test_a_knockout_game_one_side_came_to_is_won_by_it() -> None:
    director = director_with([Entrant.player(n) for n in "AB"], Format.KNOCKOUT)
    director.arrive("B", 10.0)
    director.tick(62.0)
    assert director.state.phase is Phase.FINISHED and director.standings()[0].entrant == "B"


def test_a_knockout_ranks_by_the_round_reached_before_match_points() -> None:
    director = director_with([Entrant.player(n) for n in "ABCD"], Format.KNOCKOUT)
    first = director.state.current
    assert first is not None and [g.sides for g in first.games] == [("A", "D"), ("B", "C")]
    play_open_games(director, lambda g: (11, 11) if g.first == "A" else (11, 2), now=10.0)  # A and D draw
    play_open_games(director, lambda g: (11, 11), now=20.0)  # and again
    play_open_games(director, lambda g: (11, 4), now=30.0)  # then A goes through: 1 + ½ + ½ match points
    final = director.state.current
    assert final is not None and [g.sides for g in final.games] == [("A", "B")]
    play_open_games(director, lambda g: (5, 11), now=40.0)  # B wins the final with 2 match points
    assert director.state.phase is Phase.FINISHED
    assert [(r.entrant, r.match_points) for r in director.standings()] == [
        ("B", 2.0), ("A", 2.0), ("D", 1.0), ("C", 0.0)]


def test_a_knockout_ranks_its_losers_of_a_round_by_seed_never_by_buchholz() -> None:
    """A knockout of four where the better seed always wins: the losers of round 1 (seeds
    3 and 4, 0 match points and 12 game points each) are ranked by seed, although seed 4
    lost to the winner (a Buchholz of 2) and seed 3 to the finalist (1): the opponents a
    bracket gives count for nothing there.  A Swiss tournament ranks by Buchholz."""
    director = director_with([Entrant.player(n) for n in "ABCD"], Format.KNOCKOUT)
    seeds = director.state.seeds
    while director.state.phase is not Phase.FINISHED:
        play_open_games(director, better_seed_wins(seeds), now=3.0)
    rows = director.standings()
    assert [r.entrant for r in rows] == list(seeds)
    assert [(r.match_points, r.game_points, r.buchholz) for r in rows[2:]] == [(0, 12, 1.0), (0, 12, 2.0)]
    assert ranked_by(Format.KNOCKOUT) == (RankKey.ROUND_REACHED, RankKey.MATCH_POINTS, RankKey.GAME_POINTS, RankKey.SEED)
    assert ranked_by(Format.SWISS) == ranked_by(Format.ROUND_ROBIN) == (
        RankKey.MATCH_POINTS, RankKey.BUCHHOLZ, RankKey.GAME_POINTS, RankKey.SEED)
