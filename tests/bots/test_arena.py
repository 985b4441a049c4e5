"""The arena: paired deals (each shuffle twice, seats swapped), the interval, the report,
bots by name, ``module:Class`` and ``file.py:Class``, and results independent of workers."""

from __future__ import annotations

import math
import statistics
import textwrap
from pathlib import Path

import pytest

from scopa.bots import Bot
from scopa.bots.arena import (
    ArenaError,
    bot_factory,
    deal_order,
    format_report,
    mean_interval,
    percentile,
    play_deal,
    play_round,
    run_arena,
)
from scopa.engine import Deal, GameState, Phase, Play, RuleSet
from scopa.engine.scoring import Category


class Recorder(Bot):
    """Plays the first legal move and remembers the hands it was dealt."""

    seen: list[tuple[int, tuple[int, ...]]] = []

    def __init__(self, name: str | None = None, seed: int | None = None) -> None:
        super().__init__(name)

    def pick(self, view, legal):
        Recorder.seen.append((view.seat, tuple(view.hand)))
        return legal[0]


def test_interval_is_mean_plus_minus_z_sd_over_root_n() -> None:
    values = [1.0, 2.0, 3.0, 4.0, -2.0]
    ci = mean_interval(values)
    sd = math.sqrt(sum((v - 1.6) ** 2 for v in values) / 4)
    half = 1.959963984540054 * sd / math.sqrt(5)
    assert ci.mean == pytest.approx(1.6)
    assert ci.low == pytest.approx(1.6 - half)
    assert ci.high == pytest.approx(1.6 + half)
    assert mean_interval([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0) or mean_interval([2.0, 2.0, 2.0]).low == 2.0
    with pytest.raises(ValueError):
        mean_interval([])


def test_percentile_nearest_rank() -> None:
    data = list(range(1, 101))
    assert percentile(data, 0.95) == 95
    assert percentile([5.0], 0.95) == 5.0
    assert percentile([3, 1, 2], 0.5) == 2


def test_deal_order_is_reproducible_and_never_void() -> None:
    rules = RuleSet.build("scopa")
    for index in range(30):
        order = deal_order(7, index, rules, dealer=index % 2)
        assert order == deal_order(7, index, rules, dealer=index % 2)
        assert sorted(order) == list(range(40))
        s = GameState.new(rules, index % 2)
        s.apply(Deal(order))
        assert s.phase is Phase.PLAY  # R10: a void deal is shuffled again
    assert deal_order(7, 0, rules, 0) != deal_order(8, 0, rules, 0)


def test_each_deal_is_played_twice_with_the_seats_swapped() -> None:
    """A holds in the second game exactly the cards B held in the first."""
    rules = RuleSet.build("scopa")
    a_hands: list[list[tuple[int, ...]]] = [[], []]
    b_hands: list[list[tuple[int, ...]]] = [[], []]

    class A(Recorder):
        def pick(self, view, legal):
            a_hands[game[0]].append((view.seat, tuple(view.hand)))
            return legal[0]

    class B(Recorder):
        def pick(self, view, legal):
            b_hands[game[0]].append((view.seat, tuple(view.hand)))
            return legal[0]

    game = [0]
    order = deal_order(1, 0, rules, 0)
    out0 = play_round(rules, order, 0, [A(), B()], a_side=0)
    game[0] = 1
    out1 = play_round(rules, order, 0, [B(), A()], a_side=1)
    assert a_hands[0] == b_hands[1] and b_hands[0] == a_hands[1]
    assert {s for s, _ in a_hands[0]} == {0} and {s for s, _ in a_hands[1]} == {1}
    # the same deterministic bot on both sides: the swapped game mirrors the first
    assert out0.margin == -out1.margin


def test_play_deal_margin_is_the_mean_of_both_games_and_symmetric() -> None:
    rules = RuleSet.build("scopa")
    d = play_deal(rules, bot_factory("greedy-v1"), bot_factory("random"), seed=3, index=4)
    assert d.margin == (d.games[0].margin + d.games[1].margin) / 2
    for g in d.games:
        assert g.margin == g.a_points - g.b_points
        assert g.a_ms and g.b_ms  # both bots moved and were timed
    # deterministic bots: swapping A and B swaps the two games
    first, second = bot_factory("greedy-v1"), bot_factory("greedy")
    d = play_deal(rules, first, second, seed=3, index=4)
    mirrored = play_deal(rules, second, first, seed=3, index=4)
    assert [g.margin for g in mirrored.games] == [-g.margin for g in reversed(d.games)]


def test_a_rounds_categories_add_up_to_its_margin_and_mirror_with_the_sides() -> None:
    """R1-R5, R18: each category either side scored, as A's points less B's."""
    rules = RuleSet.build("scopa")
    first, second = bot_factory("greedy-v1"), bot_factory("greedy")  # deterministic: the mirror holds
    d = play_deal(rules, first, second, seed=3, index=4)
    mirrored = play_deal(rules, second, first, seed=3, index=4)
    names = {Category.CARTE, Category.DENARI, Category.SETTEBELLO, Category.PRIMIERA, Category.SCOPE}
    for g, m in zip(d.games, reversed(mirrored.games)):
        assert g.categories and {k for k, _ in g.categories} <= names
        assert sum(v for _, v in g.categories) == g.margin
        assert dict(m.categories) == {k: -v for k, v in g.categories}


def test_the_same_seeded_bot_on_both_sides_draws_differently() -> None:
    """A bot against itself is a real sanity check, not a mirror: A and B get other seeds."""
    rules = RuleSet.build("scopa")
    margins = [play_deal(rules, bot_factory("random"), bot_factory("random"), 0, i).margin for i in range(6)]
    assert any(m != 0 for m in margins)


def test_scopone_teams_are_made_of_the_same_bot() -> None:
    rules = RuleSet.build("scopone")
    seats: dict[str, set[int]] = {"A": set(), "B": set()}

    def factory(label: str):
        class Tagged(Bot):
            def pick(self, view, legal):
                seats[label].add(view.seat)
                return legal[0]

        return lambda seed: Tagged(label)

    d = play_deal(rules, factory("A"), factory("B"), seed=0, index=0)
    assert seats == {"A": {0, 1, 2, 3}, "B": {0, 1, 2, 3}}  # each sat on both teams
    assert len(d.games) == 2
    with pytest.raises(ArenaError, match="two sides"):
        play_deal(RuleSet.build(players=3), factory("A"), factory("B"), 0, 0)


def test_report_counts_rounds_and_prints_a_table() -> None:
    rules = RuleSet.build("scopa")
    report = run_arena("greedy-v1", "random", rules, deals=6, seed=2)
    s = report.summary()
    assert s["deals"] == 6 and s["rounds"] == 12
    assert s["wins"] + s["draws"] + s["losses"] == 12
    margins = [d.margin for d in report.deals]
    assert s["margin"] == pytest.approx(statistics.fmean(margins))
    assert s["ci95"][0] <= s["margin"] <= s["ci95"][1]
    assert sum(s["categories"].values()) == pytest.approx(s["margin"])  # the margin, category by category
    text = format_report(s)
    assert "greedy-v1 (A) vs random (B)" in text and "95% CI" in text and "p95" in text
    assert f"carte {s['categories']['carte']:+.3f}" in text


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    rules = RuleSet.build("scopa")
    one = run_arena("random", "greedy", rules, deals=4, seed=5, workers=1)
    two = run_arena("random", "greedy", rules, deals=4, seed=5, workers=2)
    assert [d.margin for d in one.deals] == [d.margin for d in two.deals]
    assert [d.index for d in two.deals] == [0, 1, 2, 3]


def test_bots_by_module_and_by_file(tmp_path: Path) -> None:
    path = tmp_path / "mybot.py"
    path.write_text(textwrap.dedent("""
        from scopa.bots import Bot

        class Last(Bot):
            def pick(self, view, legal):
                return legal[-1]
    """))
    rules = RuleSet.build("scopa")
    report = run_arena(f"{path}:Last", "scopa.bots:GreedyBot", rules, deals=2, seed=1)
    assert report.summary()["rounds"] == 4
    for bad in ("nosuchbot", "scopa.bots:Nothing", f"{tmp_path / 'missing.py'}:X"):
        with pytest.raises(ArenaError):
            bot_factory(bad)


def test_an_illegal_answer_is_reported_with_the_bot() -> None:
    class Cheat(Bot):
        def pick(self, view, legal):
            return Play(view.hand[0], 1 << 39 if not (view.hand[0] == 39) else 1)

    rules = RuleSet.build("scopa")
    with pytest.raises(ArenaError, match="not a legal move"):
        play_round(rules, deal_order(0, 0, rules, 0), 0, [Cheat("cheat"), Cheat("cheat")], 0)


def test_an_interrupted_run_keeps_the_deals_played() -> None:
    rules = RuleSet.build("scopa")

    def stop_after_two(report) -> None:
        if len(report.deals) == 2:
            raise KeyboardInterrupt

    report = run_arena("random", "greedy-v1", rules, deals=5, seed=1, progress=stop_after_two)
    s = report.summary()
    assert s["deals"] == 2 and s["planned"] == 5
    assert "interrupted: 2 of 5 deals played" in format_report(s)


def test_an_asynchronous_player_plays_in_the_arena() -> None:
    from scopa.engine import Player

    class AsyncFirst(Player):
        async def choose(self, view, legal):
            return legal[0]

    rules = RuleSet.build("scopa")
    out = play_round(rules, deal_order(0, 0, rules, 0), 0, [AsyncFirst(), AsyncFirst()], 0)
    assert out.a_ms and out.b_ms
