"""RULES.md §8: every worked example E1-E8 as a test named with its id."""

from __future__ import annotations

from conftest import c, cs, deal_order, m, masks, position

from scopa.engine import CARDS, CaptureMode, GameState, Category, Phase, Play, RuleSet, score_round
from scopa.engine.cards import PRIMIERA


def plays_by_card(state) -> dict[str, set[frozenset[str]]]:
    """Legal plays grouped by card name: card -> set of capture sets (empty set = laid down)."""
    out: dict[str, set[frozenset[str]]] = {}
    for p in state.legal_plays():
        out.setdefault(str(CARDS[p.card]), set()).update(masks([p.capture]) if p.capture else {frozenset()})
    return out


def test_E1_legal_moves_table_2_4_5_hand_A_5_6():
    """E1 (R13, R14, R17): A is laid down; 5 takes the 5 (not 2+...); 6 takes 2+4."""
    s = position(RuleSet.build(), hands=["Ac 5c 6c", "Rb"], table="2d 4d 5d")
    got = plays_by_card(s)
    assert got == {
        "Ac": {frozenset()},
        "5c": cs("5d"),
        "6c": cs("2d 4d"),
    }


def test_E2_six_must_take_the_six():
    """E2 (R13): table 2, 4, 6; a 6 played must take the 6, never 2+4."""
    s = position(RuleSet.build(), hands=["6c", "Rb"], table="2d 4s 6d")
    assert masks(s.capture_options(0, c("6c"))) == cs("6d")
    assert plays_by_card(s)["6c"] == cs("6d")


def test_E3_cavallo_takes_the_cavallo_never_5_plus_4():
    """E3 (R13): table Cavallo, 5, 4; a Cavallo played takes the Cavallo, never 5+4."""
    s = position(RuleSet.build(), hands=["Cc", "Rb"], table="Cd 5s 4b")
    assert plays_by_card(s)["Cc"] == cs("Cd")


def test_E4_capture_modes():
    """E4 (R15): the three capture modes on tables A,2,4,6 and A,2,3,4 with a 6 played."""
    table1 = "Ad 2s 4b 6d"
    table2 = "Ad 2s 3b 4c"
    expected = {
        CaptureMode.TRADITIONAL: (cs("6d"), cs("2s 4c", "Ad 2s 3b")),
        CaptureMode.FEWEST: (cs("6d"), cs("2s 4c")),
        CaptureMode.FREE: (cs("6d", "2s 4b"), cs("2s 4c", "Ad 2s 3b")),
    }
    for mode, (first, second) in expected.items():
        rules = RuleSet.build(capture_mode=mode)
        s1 = position(rules, hands=["6c", "Rb"], table=table1)
        assert plays_by_card(s1)["6c"] == first, mode
        s2 = position(rules, hands=["6c", "Rb"], table=table2)
        assert plays_by_card(s2)["6c"] == second, mode


def test_E5_last_play_sweep_is_not_a_scopa():
    """E5 (R18): the dealer's last card of the last hand clears the table: cards taken,
    no scopa point."""
    rules = RuleSet.build()
    s = position(rules, hands=["", "5c"], table="2d 3d", dealer=1, to_move=1,
                 piles=["Ac", "Ab"], last_capturer=0)
    s.apply(Play(c("5c"), m("2d 3d")), 1)
    assert s.history, "the round must have been scored"
    score = s.history[-1]
    assert Category.SCOPE not in score.breakdown[1]
    assert s.scope == [0, 0]
    assert not s.last_scopa
    # the cards were taken all the same
    assert score.cards == (1, 4)
    assert s.piles[1] == m("Ab 5c 2d 3d")


def test_E6_card_tie_and_missing_suit_primiera():
    """E6 (R21): a 20-20 split gives nobody carte; three sevens but no Bastoni cannot
    win primiera."""
    rules = RuleSet.build()
    non_bastoni = [f"{r}{s}" for s in "dcs" for r in "A234567FCR"]
    keep_for_1 = {"Fd", "Fc", "Fs", "Cd", "Cc", "Cs", "Rd", "Rc", "Rs", "2d"}
    side0 = [x for x in non_bastoni if x not in keep_for_1]  # 20 cards, 7d 7c 7s among them
    side1 = sorted(keep_for_1) + [f"{r}b" for r in "A234567FCR"]
    assert len(side0) == 20 and len(side1) == 20
    score = score_round(rules, [m(" ".join(side0)), m(" ".join(side1))], [0, 0])
    assert Category.CARTE not in score.breakdown[0]
    assert Category.CARTE not in score.breakdown[1]
    assert score.primiera[0] == 0  # no Bastoni: cannot win primiera
    assert score.primiera[1] == PRIMIERA[2] + PRIMIERA[10] * 2 + PRIMIERA[7]
    assert score.breakdown[1].get(Category.PRIMIERA) == 1
    assert Category.PRIMIERA not in score.breakdown[0]


def test_E7_quindici_captures():
    """E7 (V6): table 8, a 7 takes the 8; table 5, A, 4, a king takes {5} or {A, 4}."""
    rules = RuleSet.build("quindici")
    s = position(rules, hands=["7c", "Rb"], table="Fd")
    assert plays_by_card(s)["7c"] == cs("Fd")
    s = position(rules, hands=["Rc", "2b"], table="5d Ad 4s")
    assert plays_by_card(s)["Rc"] == cs("5d", "Ad 4s")


def test_E8_three_kings_on_the_initial_table_are_redealt():
    """E8 (R10): an initial table with three kings is void; the same dealer deals again."""
    rules = RuleSet.build()
    s = GameState.new(rules, 1)
    s.apply(deal_order(rules, 1, table="Rd Rc Rs 2d"))
    assert s.phase is Phase.DEAL
    assert s.round_no == 0 and s.dealer == 1
    assert s.hands == [0, 0] and s.table == 0
    good = deal_order(rules, 1, table="Rd Rc 2s 2d")
    s.apply(good)
    assert s.phase is Phase.PLAY and s.dealer == 1 and s.round_no == 1
    assert s.table == m("Rd Rc 2s 2d")
