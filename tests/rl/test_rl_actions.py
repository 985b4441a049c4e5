"""scopa.rl.actions: the 63 action ids choose exactly the engine's legal moves, on every
preset (R13-R17 captures, V1-V13 variants, V13 declarations), and round-trip."""

from __future__ import annotations

from itertools import combinations

import pytest
from conftest import c, drive, m, position

from scopa.engine import CaptureMode, Declare, Play, Preset, RuleSet
from scopa.engine.state import declarations_for
from scopa.rl.actions import (
    DECLARE_BASE,
    DONE,
    NUM_ACTIONS,
    IllegalActionError,
    Selection,
    declaration_action,
    declaration_of,
    decode_actions,
    encode_move,
)

RULE_SETS = [RuleSet.build(p) for p in Preset] + [
    RuleSet.build("scopa", players=3),
    RuleSet.build("scopa", players=4, teams=False),
    RuleSet.build("scopa", players=6, capture_mode="free"),
    RuleSet.build("scopa", capture_mode="fewest", max_two=True),
    RuleSet.build("scopa", asso_piglia_tutto="traditional", refill_each_turn=True),
    RuleSet.build("quindici", capture_mode="free"),
]


def every_path(legal: list) -> dict[object, list[int]]:
    """Walk every allowed decision from the start: each finished move and its path."""
    out: dict[object, list[int]] = {}
    stack: list[tuple[Selection, list[int]]] = [(Selection.start(legal), [])]
    while stack:
        sel, path = stack.pop()
        allowed = sel.allowed()
        assert allowed and all(0 <= a < NUM_ACTIONS for a in allowed)
        assert sum(sel.mask()) == len(allowed)
        for a in allowed:
            nxt = sel.advance(a)
            if isinstance(nxt, Selection):
                stack.append((nxt, path + [a]))
            else:
                assert nxt not in out, f"{nxt} reached by two paths"
                out[nxt] = path + [a]
    return out


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.describe())
def test_every_legal_move_has_one_path_and_round_trips(rules: RuleSet) -> None:
    """The masks reach exactly the engine's legal moves, each by one path of at most
    2 + (cards taken) decisions, and encode/decode round-trip on each of them."""
    seen = {"decisions": 0, "multi": 0, "declarations": 0}

    def check(state, _action) -> None:
        legal = state.legal_actions()
        if not legal:
            return
        paths = every_path(legal)
        assert set(paths) == set(legal)
        for move in legal:
            seq = encode_move(move, legal)
            assert seq == paths[move]
            assert decode_actions(seq, legal) == move
            if isinstance(move, Play):
                assert 1 <= len(seq) <= 2 + move.capture.bit_count()
                seen["multi"] += len(seq) > 1
            else:
                assert len(seq) == 1 and seq[0] >= DECLARE_BASE
                seen["declarations"] += 1
        seen["decisions"] += 1

    for seed in range(4):
        drive(rules, seed, kinds=("random", "greedy"), hook=check)
    assert seen["decisions"] > 100
    if rules.cirulla:
        assert seen["declarations"] > 0
    if rules.cirulla or rules.quindici or rules.capture_mode is CaptureMode.FREE:
        assert seen["multi"] > 0  # the multi-decision captures were exercised


def test_every_declaration_of_every_three_card_hand_has_its_own_id() -> None:
    """V13: every declaration any 3-card hand allows maps to one id in 41..62 and back."""
    ids: dict[int, Declare] = {}
    for hand in combinations(range(40), 3):
        for d in declarations_for(sum(1 << x for x in hand)):
            a = declaration_action(d)
            assert DECLARE_BASE <= a < NUM_ACTIONS
            assert declaration_of(a) == d
            assert ids.setdefault(a, d) == d
    assert len(ids) > 10


def test_cirulla_capture_that_extends_another_needs_done() -> None:
    """V13: a 5 on table 5c 5s takes {5c}, {5s} or {5c 5s} (15); {5c} ends with DONE."""
    s = position(RuleSet.build("cirulla"), hands=["5d", "Rb"], table="5c 5s")
    legal = [p for p in s.legal_actions() if p.card == c("5d")]
    assert {p.capture for p in legal} == {m("5c"), m("5s"), m("5c 5s")}
    assert encode_move(Play(c("5d"), m("5c")), legal) == [c("5d"), c("5c"), DONE]
    assert encode_move(Play(c("5d"), m("5c 5s")), legal) == [c("5d"), c("5c"), c("5s")]
    assert encode_move(Play(c("5d"), m("5s")), legal) == [c("5d"), c("5s")]
    after_card = Selection.start(legal).advance(c("5d"))
    assert isinstance(after_card, Selection) and after_card.allowed() == [c("5c"), c("5s")]


def test_free_mode_choice_E4() -> None:
    """E4 (R15 free): a 6 on A 2 4 6 takes {6} or {2 4}: the second table card is never
    asked for, since one move is left after the first."""
    s = position(RuleSet.build(capture_mode="free"), hands=["6c", "Rb"], table="Ad 2s 4b 6d")
    legal = s.legal_actions()
    assert encode_move(Play(c("6c"), m("2s 4b")), legal) == [c("6c"), c("2s")]
    assert encode_move(Play(c("6c"), m("6d")), legal) == [c("6c"), c("6d")]


def test_masked_or_out_of_range_actions_are_refused() -> None:
    s = position(RuleSet.build(), hands=["6c 3d", "Rb"], table="2d 4s 6d")
    sel = Selection.start(s.legal_actions())
    for bad in (c("Rb"), DONE, DECLARE_BASE, -1, NUM_ACTIONS, 10**9):
        with pytest.raises(IllegalActionError):
            sel.advance(bad)
    assert sel.allowed() == [c("3d"), c("6c")]
    with pytest.raises(IllegalActionError):
        encode_move(Play(c("6c"), m("2d 4s")), s.legal_actions())  # R13: the 6 must take the 6
    with pytest.raises(IllegalActionError):
        decode_actions([c("6c"), c("6d")], s.legal_actions())  # one decision too many
