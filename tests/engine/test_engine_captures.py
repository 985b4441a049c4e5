"""R13-R17 (and V1, V6, V9, V10, V13 captures): the engine's capture options equal a
brute-force reading of RULES.md on random tables, for every capture mode."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.engine import CARDS, RuleSet
from scopa.engine.captures import CaptureRules
from scopa.engine.cards import mask_of

RULESETS = [
    RuleSet.build(capture_mode=mode, max_two=two, asso_piglia_tutto=apt)
    for mode in ("traditional", "fewest", "free")
    for two in (False, True)
    for apt in ("off", "simple", "traditional")
] + [
    RuleSet.build("quindici", capture_mode=mode, max_two=two)
    for mode in ("traditional", "fewest", "free")
    for two in (False, True)
] + [RuleSet.build("cirulla"), RuleSet.build("frac")]


def reference_options(rules: RuleSet, table: list, value: int, first_play: bool) -> set[frozenset]:
    """RULES.md R13-R17, V1, V6, V9, V10, V13 by brute force over all subsets."""
    if not table:
        return set()
    subsets = [frozenset(s) for k in range(1, len(table) + 1) for s in combinations(table, k)]

    def total(s):
        return sum(CARDS[x].value for x in s)

    ace_on_table = any(CARDS[x].value == 1 for x in table)
    everything = frozenset(table)
    limit = 2 if rules.max_two else 40
    if rules.cirulla:
        if value == 1 and not ace_on_table:  # V13: the sweep, or any fifteen instead
            return {everything} | {s for s in subsets if total(s) + value == 15 and len(s) <= limit}
        return {s for s in subsets if (total(s) == value or total(s) + value == 15) and len(s) <= limit}
    apt = rules.asso_piglia_tutto.value
    if value == 1 and (apt == "simple" or (apt == "traditional" and not ace_on_table and not first_play)):
        return {everything}
    mode = rules.capture_mode.value
    if rules.quindici:
        sets = {s for s in subsets if total(s) + value == 15 and len(s) <= limit}
        if mode == "fewest" and sets:
            least = min(len(s) for s in sets)
            sets = {s for s in sets if len(s) == least}
        return sets
    equal = {s for s in subsets if len(s) == 1 and total(s) == value}
    sums = {s for s in subsets if len(s) >= 2 and total(s) == value and len(s) <= limit}
    if mode == "free":
        return equal | sums
    if equal:
        return equal
    if mode == "fewest" and sums:
        least = min(len(s) for s in sums)
        sums = {s for s in sums if len(s) == least}
    return sums


@settings(max_examples=600, deadline=None)
@given(
    rules=st.sampled_from(RULESETS),
    table=st.lists(st.integers(0, 39), min_size=0, max_size=9, unique=True),
    value=st.integers(1, 10),
    first_play=st.booleans(),
)
def test_R13_R17_capture_options_match_the_rules(rules, table, value, first_play):
    """R13 equal first, R14 sums, R15 modes, R16 compulsory, R17 discard (and V1, V6,
    V9, V10, V13): options equal a brute-force reading of the rule text."""
    got = CaptureRules(rules).options(mask_of(table), value, first_play)
    assert len(got) == len(set(got)), "duplicate capture options"
    got_sets = {frozenset(x for x in range(40) if mask >> x & 1) for mask in got}
    assert got_sets == reference_options(rules, table, value, first_play)


def _consistency_game(rules: RuleSet, seed: int) -> int:
    """Play a seeded game; at every turn legal_plays must be exactly one Play per
    (card, capture option) and push must equal apply.  Returns the number of turns."""
    from conftest import random_turns, snapshot

    from scopa.engine import Play

    turns = 0
    for s, rng in random_turns(rules, 1, seed):
        seat = s.to_move
        expected = set()
        hand = s.hands[seat]
        for card in range(40):
            if hand >> card & 1:
                opts = s.capture_options(seat, card)
                expected |= {Play(card, o) for o in opts} if opts else {Play(card, 0)}
        plays = s.legal_plays()
        assert len(plays) == len(set(plays)) and set(plays) == expected
        actions = s.legal_actions()
        action = actions[rng.randrange(len(actions))]
        if isinstance(action, Play):
            pushed = s.copy()
            pushed.push(action)
            s.apply(action, seat)
            assert snapshot(pushed) == snapshot(s)
        else:
            s.apply(action, seat)
        turns += 1
    return turns


@settings(max_examples=25, deadline=None)
@given(
    rules=st.sampled_from([RuleSet.build(p) for p in ("scopa", "quindici", "cirulla", "frac", "scopone")]
                          + [RuleSet.build(capture_mode="fewest", max_two=True, asso_piglia_tutto="traditional"),
                             RuleSet.build(players=3, capture_mode="free", asso_piglia_tutto="simple")]),
    seed=st.integers(0, 2**31 - 1),
)
def test_R13_R17_legal_plays_list_every_option_once_and_push_equals_apply(rules, seed):
    """R13-R17: legal_plays is one Play per capture option (or one discard) for every
    card in hand, including a Cirulla wild 7 (V13); the fast push equals apply."""
    assert _consistency_game(rules, seed) > 0


def test_cached_tables_share_their_templates() -> None:
    """Two table multisets cached for the same rules hold one copy of a template they
    both have (a sweep, a value group taken whole), not one each."""
    caps = CaptureRules(RuleSet.build("scopa", asso_piglia_tutto="simple"))
    from scopa.engine.captures import value_counts

    one = caps.by_value(value_counts(mask_of([CARDS[0], CARDS[4 * 4]])) << 1)  # an ace and a five
    other = caps.by_value(value_counts(mask_of([CARDS[0], CARDS[4 * 5]])) << 1)  # an ace and a six
    assert one[1] == other[1] != ()  # the ace sweeps either table
    assert one[1] is other[1]
