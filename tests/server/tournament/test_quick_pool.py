"""Quick play's pool: people asking for the same game are seated together as soon as
the pool's wave comes, closest ratings first; bots after ``bot_after`` seconds."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa.engine.rules import Preset
from scopa.server.tournament import (
    QuickBotGame, QuickEntry, QuickPaired, QuickPool, QuickWaiting, TournamentError, closest_tables,
)  # fmt: skip

from paths import ROOT

pytestmark = pytest.mark.unit


def entry(player: str, rating: float = 1500.0, since: float = 0.0, preset: Preset = Preset.SCOPA,
          bot_after: float | None = None) -> QuickEntry:  # fmt: skip
    return QuickEntry(player, preset, rating, since, bot_after)


def test_two_people_are_paired_within_a_second_of_the_second_asking() -> None:
    pool = QuickPool()
    assert pool.join(entry("ada", since=0.0)) == [QuickWaiting("ada", Preset.SCOPA, 0)]
    assert pool.wave(5.0) == []  # alone: nobody to play with
    assert pool.join(entry("bea", since=7.0)) == [QuickWaiting("ada", Preset.SCOPA, 1),
                                                  QuickWaiting("bea", Preset.SCOPA, 1)]  # fmt: skip
    due = pool.due()
    assert due is not None and 7.0 <= due <= 8.0
    assert pool.wave(due) == [QuickPaired(Preset.SCOPA, ("ada", "bea"))]
    assert pool.waiting(Preset.SCOPA) == ()
    assert pool.due() is None


def test_four_waiting_are_paired_by_rating() -> None:
    pool = QuickPool()
    for name, rating in (("ada", 1200.0), ("bea", 1810.0), ("cal", 1250.0), ("dan", 1790.0)):
        pool.join(entry(name, rating, since=0.1))
    paired = pool.wave(1.0)
    assert paired == [QuickPaired(Preset.SCOPA, ("ada", "cal")), QuickPaired(Preset.SCOPA, ("bea", "dan"))]


def test_different_games_are_never_mixed_and_scopone_needs_four() -> None:
    pool = QuickPool()
    pool.join(entry("ada", preset=Preset.SCOPONE))
    pool.join(entry("bea", preset=Preset.SCOPA))
    pool.join(entry("cal", preset=Preset.SCOPONE))
    pool.join(entry("dan", preset=Preset.SCOPONE))
    assert pool.wave(10.0) == []
    effects = pool.join(entry("eva", preset=Preset.SCOPONE, since=10.0))
    assert QuickWaiting("eva", Preset.SCOPONE, 3) in effects
    assert pool.wave(11.0) == [QuickPaired(Preset.SCOPONE, ("ada", "cal", "dan", "eva"))]
    assert [e.player for e in pool.waiting(Preset.SCOPA)] == ["bea"]


def test_bot_after_gives_a_game_against_bots_and_the_others_hear_the_new_count() -> None:
    pool = QuickPool()
    pool.join(entry("ada", preset=Preset.SCOPONE, since=0.0, bot_after=20.0))
    pool.join(entry("bea", preset=Preset.SCOPONE, since=5.0))
    assert pool.due() == 20.0
    assert pool.wave(19.9) == []
    assert pool.wave(20.0) == [QuickBotGame(Preset.SCOPONE, "ada"), QuickWaiting("bea", Preset.SCOPONE, 0)]


def test_leaving_is_one_command_and_leaving_twice_is_refused() -> None:
    pool = QuickPool()
    pool.join(entry("ada"))
    pool.join(entry("bea", preset=Preset.ESCOBA))
    assert pool.leave("ada") == []
    with pytest.raises(TournamentError) as caught:
        pool.leave("ada")
    assert caught.value.code == "not_waiting"
    with pytest.raises(TournamentError) as caught:
        pool.join(entry("bea"))
    assert caught.value.code == "already_waiting"
    assert pool.wave(100.0) == []


@given(ratings=st.lists(st.integers(0, 3000), min_size=2, max_size=9), size=st.sampled_from([2, 4]))
def test_the_tables_are_as_many_as_possible_with_the_least_rating_spread(ratings: list[int], size: int) -> None:
    entries = [entry(f"p{i}", float(r)) for i, r in enumerate(ratings)]
    tables = closest_tables(entries, size)
    assert len(tables) == len(entries) // size
    spread = sum(max(e.rating for e in t) - min(e.rating for e in t) for t in tables)
    # any other cut of the sorted ratings into tables is no closer
    ranked = sorted(float(r) for r in ratings)
    left_out = len(ranked) - len(tables) * size
    best = min(_spread_without(ranked, skip, size) for skip in _skips(len(ranked), left_out))
    assert spread == best


def _skips(n: int, k: int) -> list[tuple[int, ...]]:
    return list(combinations(range(n), k))


def _spread_without(ranked: list[float], skip: tuple[int, ...], size: int) -> float:
    rest = [r for i, r in enumerate(ranked) if i not in skip]
    return sum(rest[i + size - 1] - rest[i] for i in range(0, len(rest), size))


def test_the_protocol_states_the_pools_gather_time() -> None:
    doc = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    assert f"waits at least\n[{QuickPool().gather:g} s]" in doc
