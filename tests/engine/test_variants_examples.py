"""A worked example per variant V1-V13 (RULES.md §6), presets, and refused combinations."""

from __future__ import annotations

import pytest
from conftest import c, cs, deal_order, m, masks, position

from scopa.engine import (
    AssoPigliaTutto,
    CaptureMode,
    Category,
    DeclarationKind,
    Declare,
    EndReason,
    GameState,
    Phase,
    Play,
    Preset,
    RuleSet,
    RuleSetError,
    score_round,
    view,
)
from scopa.engine.cards import SETTE_COPPE, parse_cards
from scopa.engine.scoring import primiera_sum


def _bd(score, side):
    return dict(score.breakdown[side])


# ---------------------------------------------------------------- V1 max two


def test_V1_max_two_cards_per_sum_capture():
    """V1: a sum capture takes at most two table cards (here A+2+3 is not allowed)."""
    table = "Ad 2s 3b 4c"
    full = position(RuleSet.build(), hands=["6c", "Rb"], table=table)
    assert masks(full.capture_options(0, c("6c"))) == cs("2s 4c", "Ad 2s 3b")
    two = position(RuleSet.build(max_two=True), hands=["6c", "Rb"], table=table)
    assert masks(two.capture_options(0, c("6c"))) == cs("2s 4c")
    # combines with other variants: by fifteen, a 4 needs 11 = A+4+6 (three cards): none
    q = position(RuleSet.build("quindici", max_two=True), hands=["4c", "Rb"], table="Ad 4s 6c")
    assert q.capture_options(0, c("4c")) == []
    assert masks(position(RuleSet.build("quindici"), hands=["4c", "Rb"], table="Ad 4s 6c")
                 .capture_options(0, c("4c"))) == cs("Ad 4s 6c")


# ---------------------------------------------------------------- V2 ponino


def test_V2_four_cavalli_double_the_scope():
    """V2: a side with all four Cavalli doubles its scopa points for the round."""
    rules = RuleSet.build(ponino=True)
    score = score_round(rules, [m("Cd Cc Cs Cb"), m("Ad")], [2, 1])
    assert _bd(score, 0).get(Category.SCOPE) == 2 and _bd(score, 0).get(Category.PONINO) == 2
    plain = score_round(RuleSet.build(), [m("Cd Cc Cs Cb"), m("Ad")], [2, 1])
    assert score.points[0] == plain.points[0] + 2
    assert Category.PONINO not in _bd(score, 1)
    three = score_round(rules, [m("Cd Cc Cs"), m("Cb")], [2, 1])
    assert Category.PONINO not in _bd(three, 0) and Category.PONINO not in _bd(three, 1)
    off = score_round(RuleSet.build(), [m("Cd Cc Cs Cb"), m("Ad")], [2, 1])
    assert Category.PONINO not in _bd(off, 0)


# ---------------------------------------------------------------- V3 napola


def test_V3_napola_run_A_to_5_of_denari_scores_5():
    """V3: Asso, 2, 3 of Denari score 3; each further card of the unbroken run one more."""
    rules = RuleSet.build(napola=True)

    def napola(text):
        return _bd(score_round(rules, [m(text), 0], [0, 0]), 0).get(Category.NAPOLA)

    assert napola("Ad 2d 3d 4d 5d") == 5
    assert napola("Ad 2d 3d") == 3
    assert napola("Ad 2d 3d 5d 6d") == 3  # the run breaks at 4
    assert napola("Ad 2d 4d 5d") is None
    assert napola("Ad 2d 3d 4d 5d 6d 7d Fd Cd Rd") == 10
    assert Category.NAPOLA not in _bd(score_round(RuleSet.build(), [m("Ad 2d 3d 4d 5d"), 0], [0, 0]), 0)


# ---------------------------------------------------------------- V4 / V5 deal sizes


def test_V4_scopone_deals_nine_each_four_on_table_no_later_deal():
    """V4: 4 players in two teams, 9 cards each, 4 on the table, no later deal, target 21."""
    rules = RuleSet.build("scopone")
    assert rules.players == 4 and rules.has_teams and rules.target == 21
    s = GameState.new(rules, 0)
    s.apply(deal_order(rules, 0, table="Ad 2d 3d 4d"))
    assert [h.bit_count() for h in s.hands] == [9, 9, 9, 9]
    assert s.table.bit_count() == 4 and s.stock == []
    plays = 0
    while not s.history:
        hand_total = s.in_hands
        s.apply(s.legal_plays()[0], s.to_move)
        plays += 1
        if not s.history:
            assert s.in_hands == hand_total - 1  # never refilled
    assert plays == 36


def test_V5_scopone_scientifico_ten_each_empty_table():
    """V5: 10 cards each, none on the table (so R10 cannot void a deal); target 21."""
    rules = RuleSet.build("scopone-scientifico")
    assert rules.players == 4 and rules.has_teams and rules.target == 21
    s = GameState.new(rules, 3)
    s.apply(deal_order(rules, 3, hands={0: "Rd Rc Rs Rb"}))
    assert s.phase is Phase.PLAY
    assert [h.bit_count() for h in s.hands] == [10, 10, 10, 10]
    assert s.table == 0 and s.stock == []
    assert all(p.capture == 0 for p in s.legal_plays())  # first card goes to the table


# ---------------------------------------------------------------- V6 / V7


def test_V6_quindici_seven_takes_eight_not_the_other_seven():
    """V6: played + captured total 15: a 7 takes an 8; R13 does not apply (7 takes no 7)."""
    rules = RuleSet.build("quindici")
    s = position(rules, hands=["7c", "Rb"], table="7s Fd")
    assert masks(s.capture_options(0, c("7c"))) == cs("Fd")
    s.apply(Play(c("7c"), m("Fd")), 0)
    assert s.piles[0] == m("7c Fd") and s.table == m("7s")
    # a king takes {5} or {A, 4}; 'fewest' keeps only {5}
    k = position(rules, hands=["Rc", "2b"], table="5d Ad 4s")
    assert masks(k.capture_options(0, c("Rc"))) == cs("5d", "Ad 4s")
    few = position(RuleSet.build("quindici", capture_mode="fewest"), hands=["Rc", "2b"], table="5d Ad 4s")
    assert masks(few.capture_options(0, c("Rc"))) == cs("5d")


def test_V7_escoba_sevens_points():
    """V7: one point for the most sevens, one more for all four; a tie gives nobody."""
    rules = RuleSet.build("escoba")
    assert rules.quindici and rules.target == 21
    three = score_round(rules, [m("7d 7c 7s"), m("7b")], [0, 0])
    assert _bd(three, 0).get(Category.SEVENS) == 1 and Category.ALL_SEVENS not in _bd(three, 0)
    four = score_round(rules, [m("7d 7c 7s 7b"), m("Ad")], [0, 0])
    assert _bd(four, 0).get(Category.SEVENS) == 1 and _bd(four, 0).get(Category.ALL_SEVENS) == 1
    tie = score_round(rules, [m("7d 7c"), m("7s 7b")], [0, 0])
    assert Category.SEVENS not in _bd(tie, 0) and Category.SEVENS not in _bd(tie, 1)
    plain = score_round(RuleSet.build("quindici"), [m("7d 7c 7s 7b"), m("Ad")], [0, 0])
    assert Category.SEVENS not in _bd(plain, 0) and Category.ALL_SEVENS not in _bd(plain, 0)


# ---------------------------------------------------------------- V8 trentino


def test_V8_trentino_points():
    """V8: Asso, 2, 3 of Denari are worth 1, 2 and 3 extra points to whoever takes each."""
    rules = RuleSet.build("trentino")
    assert rules.players == 4 and rules.hand_size == 9 and rules.target == 21
    score = score_round(rules, [m("Ad 3d"), m("2d")], [0, 0])
    assert _bd(score, 0).get(Category.TRENTINO) == 4
    assert _bd(score, 1).get(Category.TRENTINO) == 2


def test_V8_trentino_all_three_win_at_once():
    """V8: a side that captures A, 2 and 3 of Denari wins the game at once."""
    rules = RuleSet.build("trentino")
    s = position(rules, hands=["Rb", "Rc", "3c 4b", "Rs"], table="3d 5s", dealer=1, to_move=2,
                 piles=["Ad 2d", ""], last_capturer=0)
    s.apply(Play(c("3c"), m("3d")), 2)
    assert s.phase is Phase.OVER and s.winner == 0 and s.end_reason is EndReason.TRENTINO
    # the other side taking the 3 wins nothing
    t = position(rules, hands=["Rb", "3c 4b", "Rc", "Rs"], table="3d 5s", dealer=0, to_move=1,
                 piles=["Ad 2d", ""], last_capturer=0)
    t.apply(Play(c("3c"), m("3d")), 1)
    assert t.phase is Phase.PLAY and t.winner is None


# ---------------------------------------------------------------- V9 / V10 asso piglia tutto


def test_V9_ace_sweeps_the_table_and_scores_a_scopa():
    """V9: an ace takes every card on the table, which counts as a scopa."""
    rules = RuleSet.build(asso_piglia_tutto="simple")
    s = position(rules, hands=["Ac 2c", "Rb 2b"], table="5d 2s Fs Ad")
    assert s.capture_options(0, c("Ac")) == [m("5d 2s Fs Ad")]
    s.apply(Play(c("Ac"), m("5d 2s Fs Ad")), 0)
    assert s.table == 0 and s.scope == [1, 0]
    # on an empty table the ace is laid down
    s.apply(Play(c("Rb"), 0), 1)
    e = position(rules, hands=["Ac 2c", "Rb 2b"], table="")
    assert e.legal_plays() == [Play(c("Ac"), 0), Play(c("2c"), 0)]


def test_V9_ace_sweep_on_last_play_is_no_scopa():
    """V9 with R18: the round's last play takes the table but scores no scopa."""
    rules = RuleSet.build(asso_piglia_tutto="simple")
    s = position(rules, hands=["", "Ac"], table="5d 2s", dealer=1, to_move=1)
    s.apply(Play(c("Ac"), m("5d 2s")), 1)
    assert Category.SCOPE not in s.history[-1].breakdown[1]
    assert s.history[-1].cards == (0, 3)


def test_V10_not_when_an_ace_lies_on_the_table_nor_as_first_card():
    """V10: with an ace on the table, or as the round's first card, the ace captures only
    by R13 (another ace); otherwise it sweeps like V9."""
    rules = RuleSet.build(asso_piglia_tutto=AssoPigliaTutto.TRADITIONAL)
    on_table = position(rules, hands=["Ac", "Rb"], table="Ad 5s 2c")
    assert masks(on_table.capture_options(0, c("Ac"))) == cs("Ad")
    first = position(rules, hands=["Ac", "Rb"], table="5s 2c", plays=0)
    assert first.legal_plays() == [Play(c("Ac"), 0)]
    later = position(rules, hands=["Ac 2c", "Rb 2b"], table="5s 2d", plays=3)
    assert later.capture_options(0, c("Ac")) == [m("5s 2d")]
    later.apply(Play(c("Ac"), m("5s 2d")), 0)
    assert later.scope == [1, 0]
    simple = position(RuleSet.build(asso_piglia_tutto="simple"), hands=["Ac", "Rb"], table="5s 2c", plays=0)
    assert simple.capture_options(0, c("Ac")) == [m("5s 2c")]


# ---------------------------------------------------------------- V11 / V12


def test_V11_re_bello_is_worth_a_point():
    """V11: the king of Denari is worth 1 extra point."""
    on = score_round(RuleSet.build(re_bello=True), [m("Rd"), m("Rc")], [0, 0])
    assert _bd(on, 0).get(Category.RE_BELLO) == 1 and Category.RE_BELLO not in _bd(on, 1)
    off = score_round(RuleSet.build(), [m("Rd"), m("Rc")], [0, 0])
    assert Category.RE_BELLO not in _bd(off, 0)


def test_V12_frac_points_only_from_the_sixteen_honour_cards():
    """V12: aces, Fanti, Cavalli and kings score 1 each; nothing else scores."""
    rules = RuleSet.build("frac")
    p0 = m("Ad Fd Cd Rd 7d 7c 7s 7b 6d 5d 2d 3d 4d")
    p1 = m(" ".join(f"{r}{s}" for s in "dcsb" for r in "A234567FCR" if f"{r}{s}" not in
                    {"Ad", "Fd", "Cd", "Rd", "7d", "7c", "7s", "7b", "6d", "5d", "2d", "3d", "4d"}))
    score = score_round(rules, [p0, p1], [3, 0])
    assert _bd(score, 0) == {Category.HONOURS: 4}
    assert _bd(score, 1) == {Category.HONOURS: 12}
    assert sum(score.points) == 16


def test_V12_frac_captures_are_free():
    """V12: captures follow R15 'free': an equal card or any set summing to the value."""
    rules = RuleSet.build("frac")
    assert rules.capture_mode is CaptureMode.FREE
    s = position(rules, hands=["6c", "Rb"], table="6d 2s 4c Ad 5b")
    assert masks(s.capture_options(0, c("6c"))) == cs("6d", "2s 4c", "Ad 5b")


# ---------------------------------------------------------------- V13 Cirulla


def _cirulla_deal(table: str, dealer: int = 1) -> GameState:
    rules = RuleSet.build("cirulla")
    s = GameState.new(rules, dealer)
    s.apply(deal_order(rules, dealer, table=table))
    return s


def test_V13_dealer_bonus_15_and_30():
    """V13: a 15 table gives the dealer's side the cards and 1 scopa; 30 gives 2."""
    s = _cirulla_deal("5d 4c 3s 3b", dealer=1)
    assert s.phase is Phase.PLAY and s.table == 0
    assert s.piles == [0, m("5d 4c 3s 3b")] and s.scope == [0, 1] and s.dealer_bonus == 1
    s = _cirulla_deal("Rd Cd Fs 3b", dealer=0)
    assert s.piles == [m("Rd Cd Fs 3b"), 0] and s.scope == [2, 0] and s.dealer_bonus == 2
    s = _cirulla_deal("7d 2d 3s Ab")  # 13: no bonus
    assert s.table == m("7d 2d 3s Ab") and s.scope == [0, 0] and s.dealer_bonus == 0


def test_V13_dealer_bonus_with_wild_seven_of_coppe():
    """V13: the 7 of Coppe is any value 1-10 for the dealer's count."""
    s = _cirulla_deal("7c 2d 3s Ab")  # 6 + wild 9 = 15
    assert s.dealer_bonus == 1 and s.scope == [0, 1] and s.table == 0
    s = _cirulla_deal("7c Rd Cd Ad")  # 20 + wild 10 = 30
    assert s.dealer_bonus == 2 and s.scope == [0, 2]
    s = _cirulla_deal("7c Rd Cd Fs")  # 27 + wild 3 = 30
    assert s.dealer_bonus == 2
    s = _cirulla_deal("7c 5d 5s 5b")  # 15 + 1..10 = 16..25: neither 15 nor 30
    assert s.dealer_bonus == 0 and s.table == m("7c 5d 5s 5b")
    s = _cirulla_deal("7s 2d 3s Ab")  # 13 and no wild
    assert s.dealer_bonus == 0


def test_V13_two_aces_redeal_and_kings_do_not():
    """V13: two or more aces on the initial table: redeal (instead of R10's kings)."""
    s = _cirulla_deal("Ad Ac 5s 6b")
    assert s.phase is Phase.DEAL and s.round_no == 0 and s.dealer == 1
    s = _cirulla_deal("Rd Rc Rs 2b")  # 32: no bonus, and three kings are fine here
    assert s.phase is Phase.PLAY and s.table == m("Rd Rc Rs 2b")


def test_V13_declarations_under_ten_and_tris():
    """V13: hand under 10 -> 3 points, three of a value -> 10; only the larger applies;
    declaring shows the hand to everyone."""
    rules = RuleSet.build("cirulla")
    s = position(rules, hands=["Ac 2c 3s", "5c 5d 5s"], table="Rd", fresh=True)
    assert s.legal_declarations() == [Declare(DeclarationKind.UNDER_TEN)]
    assert s.legal_actions()[0] == Declare(DeclarationKind.UNDER_TEN)
    assert set(view(s, 1).declared_hands) == set()
    s.apply(Declare(DeclarationKind.UNDER_TEN), 0)
    assert s.declared == [3, 0] and s.to_move == 0  # declaring is not the turn's play
    assert dict(view(s, 1).declared_hands) == {0: tuple(parse_cards("Ac 2c 3s"))}
    s.apply(Play(c("Ac"), m("Rd")), 0)  # ace takes all (no ace on the table)
    assert s.legal_declarations() == [Declare(DeclarationKind.TRIS)]
    s.apply(Declare(DeclarationKind.TRIS), 1)
    assert s.declared == [3, 10]
    aces = position(rules, hands=["Ac Ad As", "Rb"], table="Rd", fresh=True)
    assert aces.legal_declarations() == [Declare(DeclarationKind.TRIS)]  # larger only
    nothing = position(rules, hands=["Ac 2c Rs", "Rb"], table="Rd", fresh=True)
    assert nothing.legal_declarations() == []


def test_V13_declarations_with_wild_seven_of_coppe():
    """V13: the 7 of Coppe is wild for the bonuses, keeps the chosen value for captures in
    that hand, and still scores as the 7 of Coppe."""
    rules = RuleSet.build("cirulla")
    s = position(rules, hands=["7c 4d 4s", "Rb Cb Fb"], table="4b Fc", fresh=True,
                 stock="Ad 2d 3d 5d 6d 2s", dealer=1)
    assert masks(s.capture_options(0, c("7c"))) == cs("Fc")  # as a 7: by fifteen
    assert s.legal_declarations() == [Declare(DeclarationKind.TRIS, 4)]
    s.apply(Declare(DeclarationKind.TRIS, 4), 0)
    assert s.declared == [10, 0]
    assert masks(s.capture_options(0, c("7c"))) == cs("4b")  # now worth 4
    s.apply(Play(c("7c"), m("4b")), 0)
    assert s.piles[0] == m("7c 4b") and s.piles[0] >> SETTE_COPPE & 1
    assert primiera_sum(s.piles[0] | m("Ad As Ab")) == 21 + 16 + 16 + 16
    under = position(rules, hands=["7c Ac 2d", "Rb"], table="Rd", fresh=True)
    assert under.legal_declarations() == [Declare(DeclarationKind.UNDER_TEN, w) for w in range(1, 7)]


def _play_card(s: GameState, card: str) -> None:
    s.apply(next(p for p in s.legal_plays() if p.card == c(card)), s.to_move)


def test_V13_declarations_only_on_first_turn_of_a_fresh_hand():
    """V13 (engine choice): a declaration is made at the seat's first turn of a freshly
    dealt hand, including a later deal (R11), and is offered in legal_actions."""
    rules = RuleSet.build("cirulla")
    s = position(rules, hands=["Ac 2c 3s", "Rb Cb Fb"], table="5d 6d", fresh=True,
                 stock="Ad 2d 3d 4b 5b 6b", dealer=1)
    assert Declare(DeclarationKind.UNDER_TEN) in s.legal_actions()
    _play_card(s, "3s")
    _play_card(s, "Rb")
    assert s.to_move == 0 and s.legal_declarations() == []
    assert not any(isinstance(a, Declare) for a in s.legal_actions())
    for card in ("2c", "Cb", "Ac", "Fb"):
        _play_card(s, card)
    assert s.hands[0] == m("Ad 2d 3d")  # a fresh hand after the later deal
    assert Declare(DeclarationKind.UNDER_TEN) in s.legal_actions()


def test_V13_three_ways_to_capture_and_free_choice():
    """V13: equal value, sum, or by fifteen; any valid capture, even one with more cards."""
    rules = RuleSet.build("cirulla")
    s = position(rules, hands=["5c", "Rb"], table="5d 2s 3b Fc")
    assert masks(s.capture_options(0, c("5c"))) == cs("5d", "2s 3b", "2s Fc", "5d 2s 3b")


def test_V13_ace_takes_the_table_unless_an_ace_is_on_it():
    """V13: an ace takes the whole table unless an ace lies on it; the take-all is not a
    scopa (engine's documented Ligurian choice) unless it is also a capture by value or
    by fifteen."""
    rules = RuleSet.build("cirulla")
    s = position(rules, hands=["Ac 2c", "Rb 2b"], table="5d 2s")
    assert s.capture_options(0, c("Ac")) == [m("5d 2s")]
    s.apply(Play(c("Ac"), m("5d 2s")), 0)
    assert s.table == 0 and s.scope == [0, 0] and s.piles[0] == m("Ac 5d 2s")
    fifteen = position(rules, hands=["Ac 2c", "Rb 2b"], table="5d 9s")  # 1 + 14 = 15
    fifteen.apply(Play(c("Ac"), m("5d 9s")), 0)
    assert fifteen.scope == [1, 0]
    with_ace = position(rules, hands=["Ac", "Rb"], table="Ad 5s Fs 2c")
    assert masks(with_ace.capture_options(0, c("Ac"))) == cs("Ad", "Ad 5s Fs")


def test_V13_piccola_and_grande():
    """V13: A-2-3 of Denari 3 points, +1 per further card up to the 6; F-C-R of Denari 5."""
    rules = RuleSet.build("cirulla")

    def extras(text):
        bd = _bd(score_round(rules, [m(text), 0], [0, 0]), 0)
        return bd.get(Category.PICCOLA), bd.get(Category.GRANDE)

    assert extras("Ad 2d 3d") == (3, None)
    assert extras("Ad 2d 3d 4d 5d") == (5, None)
    assert extras("Ad 2d 3d 4d 5d 6d 7d") == (6, None)
    assert extras("Ad 2d 4d") == (None, None)
    assert extras("Fd Cd Rd") == (None, 5)
    assert extras("Fd Cd") == (None, None)


def test_V13_all_denari_win_at_once():
    """V13: a side that captures all ten Denari wins the game at once."""
    rules = RuleSet.build("cirulla")
    s = position(rules, hands=["Rc Fb", "Rb Cb"], table="Rd 5s", piles=["Ad 2d 3d 4d 5d 6d 7d Fd Cd", ""],
                 last_capturer=0)
    s.apply(Play(c("Rc"), m("Rd")), 0)
    assert s.phase is Phase.OVER and s.winner == 0 and s.end_reason is EndReason.ALL_DENARI
    assert RuleSet.build("cirulla").target == 51


# ---------------------------------------------------------------- presets and combinations


def test_presets_build_with_their_rules():
    """§6: every named preset builds and carries its variant's options."""
    expect = {
        Preset.SCOPA: dict(players=2, target=11),
        Preset.SCOPONE: dict(players=4, hand_size=9, table_cards=4, target=21),
        Preset.SCOPONE_SCIENTIFICO: dict(players=4, hand_size=10, table_cards=0, target=21),
        Preset.QUINDICI: dict(quindici=True),
        Preset.ESCOBA: dict(quindici=True, escoba=True, target=21),
        Preset.CIRULLA: dict(cirulla=True, target=51),
        Preset.FRAC: dict(frac=True, capture_mode=CaptureMode.FREE),
        Preset.TRENTINO: dict(trentino=True, players=4, hand_size=9, target=21),
    }
    assert set(expect) == set(Preset)
    for preset, fields in expect.items():
        r = RuleSet.build(preset.value)
        assert r.preset is preset
        for k, v in fields.items():
            assert getattr(r, k) == v, (preset, k)
    # free combination of the optional extras where they make sense
    r = RuleSet.build("scopa", re_bello=True, napola=True, ponino=True, max_two=True,
                      asso_piglia_tutto="traditional", target=31, refill_each_turn=True)
    assert r.re_bello and r.napola and r.ponino and r.max_two and r.target == 31


@pytest.mark.parametrize(
    "preset,options",
    [
        ("cirulla", {"quindici": True}),
        ("cirulla", {"napola": True}),
        ("cirulla", {"asso_piglia_tutto": "simple"}),
        ("frac", {"napola": True}),
        ("frac", {"capture_mode": "traditional"}),
        ("quindici", {"asso_piglia_tutto": "traditional"}),
        ("trentino", {"players": 2}),
        (None, {"escoba": True}),
        (None, {"hand_size": 4}),  # a stock of 28 does not divide into deals of 8
        (None, {"target": 17}),
        (None, {"players": 5}),
        (None, {"colour": "red"}),
        ("briscola", {}),
    ],
)
def test_nonsensical_combinations_are_refused(preset, options):
    """§6: combinations that make no sense raise RuleSetError with a message."""
    with pytest.raises(RuleSetError) as info:
        RuleSet.build(preset, **options)
    assert str(info.value)
