"""The engine's accelerated functions and their twins: each twin of ``expand_plays`` (the C
one in ``_speedups.c`` when built, and the pure-Python one) lists exactly the plays the
capture rules allow (R13-R17, V1, V6, V9/V10, V13), in the same order; each twin of
``templates_by_sum`` lists every selection of table values the rules choose from, in the
same order.  The twin in use is the C one whenever the C is required
(``SCOPA_REQUIRE_C=1``, as CI sets it)."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from conftest import random_turns

from scopa.engine import Play, RuleSet
from scopa.engine.actions import LAID
from scopa.engine.captures import CaptureRules, value_counts
from scopa.engine.cards import SETTE_COPPE, VALUE_MASK, mask_of
from scopa.engine.selections import TEMPLATES_BY_SUM, Template
from scopa.engine.speedups import EXPAND_PLAYS, ExpandPlays

RULES = [
    RuleSet.build(),
    RuleSet.build(capture_mode="fewest", max_two=True),
    RuleSet.build(capture_mode="free", asso_piglia_tutto="traditional"),
    RuleSet.build("quindici"),
    RuleSet.build("cirulla"),
    RuleSet.build("scopone"),
]
TWINS = sorted(EXPAND_PLAYS)


def _by_rules(caps: CaptureRules, hand: int, table: int, first_play: bool, wild: int) -> list[Play]:
    """The plays as the capture rules list them, one card at a time (the reference)."""
    out = []
    for card in range(40):
        if hand >> card & 1:
            value = wild if wild and card == SETTE_COPPE else card // 4 + 1
            options = caps.options(table, value, first_play)
            out.extend(Play(card, m) for m in options) if options else out.append(Play(card, 0))
    return out


def _twin_plays(twin: ExpandPlays, caps: CaptureRules, hand: int, table: int, first_play: bool, wild: int) -> list[Play]:
    by_value = caps.by_value(value_counts(table) << 1 | first_play)
    return twin(hand, table, by_value, wild, SETTE_COPPE, Play, LAID)


@pytest.mark.parametrize("twin", TWINS)
@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_each_twin_lists_the_plays_the_capture_rules_allow_in_games(rules: RuleSet, twin: str) -> None:
    checked = 0
    for s, rng in random_turns(rules, 15, seed=11):
        seat = s.to_move
        plays = _twin_plays(EXPAND_PLAYS[twin], s.caps, s.hands[seat], s.table, s.plays == 0, s.wild[seat])
        assert plays == _by_rules(s.caps, s.hands[seat], s.table, s.plays == 0, s.wild[seat])
        assert plays == s.legal_plays()
        assert all(type(p) is Play for p in plays)
        checked += 1
        s.apply(rng.choice(s.legal_actions()))
    assert checked > 300


@pytest.mark.parametrize("twin", TWINS)
def test_each_twin_gives_a_card_laid_on_the_table_its_one_shared_play(twin: str) -> None:
    """A turn waiting for its answer keeps its legal plays: a card that captures nothing
    is the same play object in every list, not a new one each time."""
    caps = CaptureRules(RuleSet.build("scopone"))
    hand, table = mask_of([0, 8, 39]), mask_of([4])  # an ace, a three, a king; a two on the table
    first = _twin_plays(EXPAND_PLAYS[twin], caps, hand, table, False, 0)
    again = _twin_plays(EXPAND_PLAYS[twin], caps, hand, table, False, 0)
    assert first == [Play(0), Play(8), Play(39)]
    assert all(p is LAID[p.card] for p in first + again)


@settings(max_examples=300, deadline=None)
@given(rules=st.sampled_from(RULES), hand=st.integers(0, (1 << 40) - 1), table=st.integers(0, (1 << 40) - 1),
       first_play=st.booleans(), wild=st.sampled_from([0, *range(1, 11)]))
def test_the_twins_agree_value_for_value_on_any_hand_and_table(
        rules: RuleSet, hand: int, table: int, first_play: bool, wild: int) -> None:
    """Beyond what games reach (big hands, crowded tables with some cards of a value
    taken, a wild 7 of any value): every twin gives the rules' list, as Play values."""
    hand &= ~table
    caps = CaptureRules(rules)
    expected = _by_rules(caps, hand, table, first_play, wild)
    for twin in TWINS:
        plays = _twin_plays(EXPAND_PLAYS[twin], caps, hand, table, first_play, wild)
        assert plays == expected, twin
        assert all(type(p) is Play for p in plays), twin


def _brute_force_by_sum(counts: int, max_cards: int, max_sum: int) -> list[list[tuple[Template, int]]]:
    """Every choice of how many table cards of each value to take, as (template, cards), by sum, sorted."""
    out: list[list[tuple[Template, int]]] = [[] for _ in range(max_sum + 1)]
    have = [(counts >> (4 * (v - 1))) & 15 for v in range(1, 11)]
    for taken in product(*(range(h + 1) for h in have)):
        total, size = sum(v * k for v, k in zip(range(1, 11), taken)), sum(taken)
        if not size or total > max_sum or size > max_cards:
            continue
        whole = sum(VALUE_MASK[v] for v, k in zip(range(1, 11), taken) if k and k == have[v - 1])
        some = tuple((v, k) for v, k in zip(range(1, 11), taken) if k and k != have[v - 1])
        out[total].append(((whole, some), size))
    return [sorted(group) for group in out]


@settings(max_examples=200, deadline=None)
@given(table=st.integers(0, (1 << 40) - 1), max_cards=st.sampled_from([1, 2, 3, 40]), max_sum=st.sampled_from([10, 14]))
def test_templates_by_sum_twins_list_every_selection_of_table_values_in_one_order(
        table: int, max_cards: int, max_sum: int) -> None:
    """R13-R15, V6: each twin of ``templates_by_sum`` lists, for every sum a capture may
    need, each multiset of table values with at most ``max_cards`` cards once, as its
    template and card count; the twins agree on the order too, and hand back the
    templates the shared dict holds."""
    counts = value_counts(table)
    expected = _brute_force_by_sum(counts, max_cards, max_sum)
    results = {}
    for twin in sorted(TEMPLATES_BY_SUM):
        shared: dict[Any, Any] = {}
        templates, sizes = results[twin] = TEMPLATES_BY_SUM[twin](counts, max_cards, max_sum, shared)
        assert len(templates) == len(sizes) == max_sum + 1, twin
        assert [sorted(zip(t, n)) for t, n in zip(templates, sizes)] == expected, twin
        assert all(shared[t] is t for group in templates for t in group), twin
    assert len({repr(r) for r in results.values()}) == 1


def test_templates_by_sum_twins_refuse_what_is_no_table() -> None:
    for twin in TEMPLATES_BY_SUM.values():
        with pytest.raises((ValueError, OverflowError)):
            twin(1 << 40, 40, 10, {})
        with pytest.raises(ValueError):
            twin(0x11, 40, 41, {})
