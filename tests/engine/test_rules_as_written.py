"""What the rule book (docs/RULES.md, `scopa rules`) says, checked against the engine:
each claim of the text next to the play that shows it (R13-R15, R20, R22, V6, V7, V13),
and rules that play as a preset being that preset (§6)."""

from __future__ import annotations

import pytest
from conftest import c, cs, m, masks, position

from scopa.client.text import BASICS, book, preset_rules, table_rules
from scopa.engine import (
    CaptureMode,
    DeclarationKind,
    Declare,
    EndReason,
    Phase,
    Play,
    Preset,
    RuleSet,
    RuleSetError,
    preset_of,
)


def flat(text: str) -> str:
    """The text with its line breaks as spaces, to look for a phrase."""
    return " ".join(text.split())


# ---------------------------------------------------------------- rules equal to a preset


@pytest.mark.parametrize("preset", list(Preset))
def test_rules_that_play_as_a_preset_are_that_preset_however_built(preset: Preset) -> None:
    """§6: the preset's options without its name, or with the name given as an option,
    are the preset itself: the same name, the same description, equal and interchangeable."""
    named = RuleSet.build(preset)
    unnamed = RuleSet.build(None, **named.model_dump(exclude={"preset"}))
    as_option = RuleSet.build(None, preset=preset.value)
    for rules in (unnamed, as_option):
        assert rules.preset is preset and rules == named and hash(rules) == hash(named)
        assert rules.describe() == named.describe() and not rules.describe().startswith("custom")
    assert preset_of(named) is preset


def test_default_rules_are_scopa_R5_R22() -> None:
    """The ordinary game (2 players, to 11) is `scopa`, whether the players are given or not."""
    for rules in (RuleSet(), RuleSet.build(None, players=2), RuleSet.build(None, target=11)):
        assert rules.preset is Preset.SCOPA and rules.describe() == "scopa, 2p, to 11"
    assert RuleSet.model_validate_json('{"preset": null}').preset is Preset.SCOPA  # an old journal's rules


def test_changed_rules_keep_their_base_and_other_rules_stay_custom() -> None:
    """Rules that differ from every preset are not renamed: a changed preset keeps the
    name it was built from, rules built from nothing are custom."""
    assert RuleSet.build("scopa", target=21).preset is Preset.SCOPA
    assert preset_of(RuleSet.build("scopa", target=21)) is None
    custom = RuleSet.build(None, players=4, target=11)
    assert custom.preset is None and custom.describe().startswith("custom, 4p teams")
    # a preset's options reached from another preset are that preset (scopone at 2 is scopa)
    assert RuleSet.build("scopone", players=2, hand_size=3, target=11).preset is Preset.SCOPA
    assert RuleSet.build("scopone", teams=True).preset is Preset.SCOPONE  # 4 players play in teams anyway (R5)


def test_a_preset_given_as_an_option_brings_its_rules_and_two_presets_are_refused() -> None:
    """`-o preset=NAME` is the preset with its own options (not only its name)."""
    cirulla = RuleSet.build(None, preset="cirulla", players=4)
    assert cirulla.cirulla and cirulla.target == 51 and cirulla.players == 4
    with pytest.raises(RuleSetError, match="two presets"):
        RuleSet.build("scopa", preset="cirulla")
    assert RuleSet.build("scopa", preset="scopa").preset is Preset.SCOPA


# ---------------------------------------------------------------- V13 Cirulla's ace


def test_V13_an_ace_may_take_a_fifteen_instead_of_the_sweep() -> None:
    """V13: with no ace on the table an ace may sweep, or take any valid capture instead,
    such as a fifteen (A + 5 + Cavallo), leaving the rest on the table."""
    rules = RuleSet.build("cirulla")
    s = position(rules, hands=["Ad 2b", "Rb 2s"], table="2c 3b 5s Cc")
    assert masks(s.capture_options(0, c("Ad"))) == cs("2c 3b 5s Cc", "5s Cc", "2c 3b Cc")
    assert s.explain(Play(c("Ad"), m("5s Cc")), 0) is None
    s.apply(Play(c("Ad"), m("5s Cc")), 0)
    assert s.table == m("2c 3b") and s.piles[0] == m("Ad 5s Cc") and s.scope == [0, 0]


def test_V13_the_aces_sweep_is_a_scopa_only_when_the_cards_make_fifteen_with_it() -> None:
    """V13/R18: the ace's sweep of 2+3+5+9 (20 with the ace) is no scopa; a sweep of cards
    that make 15 with the ace is a fifteen clearing the table, a scopa, and listed once."""
    rules = RuleSet.build("cirulla")
    sweep = position(rules, hands=["Ad 2b", "Rb 2s"], table="2c 3b 5s Cc")
    sweep.apply(Play(c("Ad"), m("2c 3b 5s Cc")), 0)
    assert sweep.table == 0 and sweep.scope == [0, 0]
    fifteen = position(rules, hands=["Ad 2b", "Rb 2s"], table="5s Cc")
    assert fifteen.capture_options(0, c("Ad")) == [m("5s Cc")]
    fifteen.apply(Play(c("Ad"), m("5s Cc")), 0)
    assert fifteen.scope == [1, 0]


def test_V13_a_wild_seven_of_coppe_declared_as_one_acts_as_an_ace() -> None:
    """V13: the 7 of Coppe keeps the value declared for it in that hand; as a 1 it sweeps
    the table as an ace does (and the book says so)."""
    rules = RuleSet.build("cirulla")
    s = position(rules, hands=["7c Ac 2d", "Rb Cb Fb"], table="4b Fs", fresh=True, dealer=1)
    s.apply(Declare(DeclarationKind.UNDER_TEN, 1), 0)
    assert m("4b Fs") in s.capture_options(0, c("7c"))
    assert "declared as 1 acts as an ace" in flat(book())


def test_V13_cirulla_refuses_a_capture_mode_it_would_ignore() -> None:
    """V13 has its own capture rule: `capture_mode` other than the default is refused."""
    for mode in ("fewest", "free"):
        with pytest.raises(RuleSetError, match="cirulla has its own capture rule"):
            RuleSet.build("cirulla", capture_mode=mode)


def test_V13_the_book_says_the_ace_may_take_a_fifteen_and_its_sweep_is_no_scopa() -> None:
    text = flat(preset_rules(Preset.CIRULLA))
    assert "may take a fifteen instead" in text and "not a scopa" in text


# ---------------------------------------------------------------- V6/V7 quindici and escoba


@pytest.mark.parametrize("preset", [Preset.QUINDICI, Preset.ESCOBA])
def test_V6_V7_games_by_fifteen_do_not_say_a_same_value_card_comes_first(preset: Preset) -> None:
    """V6/V7: R13 does not apply, so the rules of such a table never say it does, and the
    engine lets a 5 take an ace and a 9 although a 10 lies on the table."""
    text = preset_rules(preset)
    own = flat(text.split("## The cards")[0])  # the game's own rules, before the basics
    assert "same-value card must be taken first" not in own and "add up to 15" in own
    s = position(RuleSet.build(preset), hands=["5c", "Rb"], table="Rd Ad Cs")
    assert masks(s.capture_options(0, c("5c"))) == cs("Rd", "Ad Cs")


def test_V7_escoba_plays_to_21() -> None:
    """V7: the Spanish game's target is 21, and its text says so."""
    rules = RuleSet.build("escoba")
    assert rules.target == 21 and "21 points or more at the end of a round wins" in flat(table_rules(rules))
    for before, over in ((10, False), (17, True)):
        s = position(rules, hands=["", "Rc"], dealer=1, to_move=1, totals=[before, 0],
                     piles=["7d 7c 7s 7b 2d", ""], last_capturer=0)
        s.apply(Play(c("Rc"), 0), 1)  # the round ends; side 0 scores 6 (R21 and V7's sevens)
        assert s.totals[0] == before + 6 and s.totals[0] > 11
        assert (s.phase is Phase.OVER) is over


def test_R13_R15_the_basics_say_a_sum_may_not_be_taken_only_under_the_usual_capture_rule() -> None:
    """R13 binds under `traditional` and `fewest`; R15 `free`, frac, quindici and Cirulla
    let a sum be taken instead, and the basics say so where they state R13."""
    same_value = flat(BASICS.split("**Same value first.**")[1].split("**Sums.**")[0])
    assert "You may not take a sum instead" not in flat(BASICS)
    assert "`free` capture rule" in same_value and "Cirulla" in same_value
    free = position(RuleSet.build(capture_mode=CaptureMode.FREE), hands=["Cc", "Rb"], table="Cd 5s 4b")
    assert masks(free.capture_options(0, c("Cc"))) == cs("Cd", "5s 4b")


# ---------------------------------------------------------------- R20, R22, instant wins


def test_R20_the_book_says_leftovers_go_to_nobody_when_nobody_captured() -> None:
    """R20: with no capture all round the table's cards go to nobody (as the engine does)."""
    assert "if nobody captured anything in the round, they go to nobody" in flat(BASICS)
    s = position(RuleSet.build(), hands=["", "Rc"], table="Ad 5s", dealer=1, to_move=1)
    s.apply(Play(c("Rc"), 0), 1)
    assert s.piles == [0, 0]


@pytest.mark.parametrize("preset", list(Preset))
def test_R22_every_games_rules_say_a_tie_at_the_top_plays_on(preset: Preset) -> None:
    """R22: the table's rules name its target and say a tie at the top means another round."""
    text = flat(table_rules(RuleSet.build(preset)))
    assert f"{RuleSet.build(preset).target} points or more at the end of a round wins" in text
    assert "another round" in text


def test_V8_an_instant_win_ends_the_game_without_scoring_the_round() -> None:
    """V8/V13: a side taking Asso, 2 and 3 of Denari (trentino) wins at once; that round is
    not scored, and the book says so."""
    rules = RuleSet.build("trentino")
    s = position(rules, hands=["3c Rb", "Rs", "Rc", "Fs"], table="3d 5s", piles=["Ad 2d", "", "", ""])
    s.apply(Play(c("3c"), m("3d")), 0)
    assert s.phase is Phase.OVER and s.end_reason is EndReason.TRENTINO and s.winner == 0
    assert s.history == [] and s.totals == [0, 0]
    assert "without scoring that round" in flat(book())


def test_the_scopa_preset_does_not_point_at_text_that_is_not_there() -> None:
    """`scopa rules scopa` prints the game's own text before the basics: it says nothing
    of a game "above"."""
    assert "above" not in preset_rules(Preset.SCOPA).split("## The cards")[0]
