"""Swiss tournaments: the pairing (no pair meets twice, one bye a round to the
lowest-ranked entrant without one, score groups first, neighbours in the standings
next) and the standings (match points, Buchholz, game points)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.server.tournament import Entrant, Format, Pairing, Phase, pair_swiss
from tournament_play import director_with, play_open_games

pytestmark = pytest.mark.unit

NINE = "ABCDEFGHI"  # seeds 1 to 9 (ratings 2000, 1999, ... 1992)

# Each round's tables as worked out by hand from the rules, and each game's points.
ROUNDS = [
    {("A", "B"): (11, 6), ("C", "D"): (9, 9), ("E", "F"): (8, 11), ("G", "H"): (11, 6)},
    {("A", "F"): (9, 11), ("G", "I"): (11, 4), ("C", "E"): (11, 7), ("D", "B"): (10, 11)},
    {("G", "F"): (10, 10), ("C", "A"): (8, 11), ("H", "B"): (11, 9), ("I", "D"): (3, 11)},
    {("F", "H"): (11, 7), ("G", "A"): (9, 11), ("C", "I"): (11, 2), ("D", "E"): (10, 11)},
]
BYES = ["I", "H", "E", "B"]
# rank, entrant, match points, Buchholz, game points, wins, draws, losses, byes
FINAL = [
    (1, "F", 3.5, 9.5, 43, 3, 1, 0, 0),
    (2, "A", 3.0, 10.5, 42, 3, 0, 1, 0),
    (3, "G", 2.5, 9.5, 41, 2, 1, 1, 0),
    (4, "C", 2.5, 7.5, 39, 2, 1, 1, 0),
    (5, "H", 2.0, 8.0, 24, 1, 0, 2, 1),
    (6, "E", 2.0, 7.5, 26, 1, 0, 2, 1),
    (7, "B", 2.0, 6.5, 26, 1, 0, 2, 1),
    (8, "D", 1.5, 7.5, 40, 1, 1, 2, 0),
    (9, "I", 1.0, 6.5, 9, 0, 0, 3, 1),
]


def test_nine_players_over_four_rounds_give_the_hand_computed_standings() -> None:
    director = director_with([Entrant.player(n) for n in NINE], Format.SWISS, rounds=4, seed=7)
    for number, (games, bye) in enumerate(zip(ROUNDS, BYES), start=1):
        current = director.state.current
        assert current is not None and current.number == number
        assert [g.sides for g in current.games] == list(games)
        assert current.byes == (bye,)
        play_open_games(director, lambda g: games[g.sides], now=10.0 * number)
    assert director.state.phase is Phase.FINISHED
    rows = [(r.rank, r.entrant, r.match_points, r.buchholz, r.game_points, r.wins, r.draws, r.losses, r.byes)
            for r in director.standings()]  # fmt: skip
    assert rows == FINAL


def _swiss(names: list[str], rounds: int, data: st.DataObject) -> list[tuple[list[tuple[str, str]], str | None]]:
    """Plays a Swiss tournament with results drawn by hypothesis; each round's pairs and bye."""
    director = director_with([Entrant.player(n) for n in names], Format.SWISS, rounds=rounds,
                             seed=data.draw(st.integers(0, 2**32)))  # fmt: skip
    played = []
    while director.state.phase is not Phase.FINISHED:
        current = director.state.current
        assert current is not None
        played.append(([g.sides for g in current.games], current.byes[0] if current.byes else None))

        def points(game: Pairing) -> tuple[int, int]:
            return (data.draw(st.integers(0, 15)), data.draw(st.integers(0, 15)))

        play_open_games(director, points, now=float(len(played)))
    return played


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 12), data=st.data())
def test_swiss_never_pairs_two_entrants_twice_while_rounds_allow_it(n: int, data: st.DataObject) -> None:
    # with n entrants and at most n/2 rounds a rematch-free round always exists (a
    # graph of degree < n/2 has a perfect matching in its complement, Dirac)
    names = [f"p{i}" for i in range(n)]
    rounds = data.draw(st.integers(1, max(1, n // 2)))
    seen: set[frozenset[str]] = set()
    for pairs, _ in _swiss(names, rounds, data):
        for pair in pairs:
            assert frozenset(pair) not in seen
            seen.add(frozenset(pair))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 12), data=st.data())
def test_every_entrant_plays_exactly_once_a_round_or_has_the_one_bye(n: int, data: st.DataObject) -> None:
    names = [f"p{i}" for i in range(n)]
    rounds = _swiss(names, data.draw(st.integers(1, n - 1)), data)
    byes = [bye for _, bye in rounds if bye is not None]
    for pairs, bye in rounds:
        seated = [name for pair in pairs for name in pair] + ([bye] if bye else [])
        assert sorted(seated) == sorted(names)
        assert (bye is not None) == (n % 2 == 1)
    assert len(byes) == len(set(byes))  # fewer rounds than entrants: nobody has a second bye


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    halves = {"a": 2, "b": 2, "c": 0, "d": 0, "e": 0}
    paired = pair_swiss(["a", "b", "c", "d", "e"], halves, met=set(), had_bye={"e"})
    assert paired.bye == "d"
    assert paired.pairs == (("a", "b"), ("c", "e"))


def test_a_pair_that_met_meets_the_next_nearest_instead() -> None:
    halves = {"a": 2, "b": 2, "c": 2, "d": 2}
    paired = pair_swiss(["a", "b", "c", "d"], halves, met={frozenset("ab")}, had_bye=set())
    assert paired.pairs == (("a", "c"), ("b", "d"))


def test_the_same_two_meet_again_only_when_no_other_pairing_exists() -> None:
    halves = {"a": 2, "b": 0, "c": 1, "d": 1}
    paired = pair_swiss(["a", "c", "d", "b"], halves, met={frozenset("ac"), frozenset("ad"), frozenset("ab")},
                        had_bye=set())  # fmt: skip
    assert paired.pairs == (("a", "c"), ("d", "b"))


def test_a_second_bye_is_worse_than_a_rematch() -> None:
    # c leads and never had a bye; a and b each had one and have met: c sits out, a and b meet again.
    halves = {"c": 2, "a": 2, "b": 2}
    paired = pair_swiss(["c", "a", "b"], halves, met={frozenset("ab")}, had_bye={"a", "b"})
    assert paired.bye == "c"
    assert paired.pairs == (("a", "b"),)
