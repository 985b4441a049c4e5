"""Illegal actions raise the right typed error and leave the state unchanged (R7, R13-R17,
V13 declarations)."""

from __future__ import annotations

import pytest
from conftest import c, deal_order, m, position, snapshot

from scopa.engine import (
    BadDeclarationError,
    CardNotInHandError,
    Deal,
    DeclarationKind,
    Declare,
    GameState,
    IllegalCaptureError,
    IllegalMoveError,
    NotYourTurnError,
    Phase,
    Play,
    RuleSet,
    WrongPhaseError,
)


def _refused(state: GameState, action, seat, error: type[Exception]) -> None:
    before = snapshot(state)
    with pytest.raises(error) as info:
        state.apply(action, seat)
    assert isinstance(info.value, IllegalMoveError)
    assert str(info.value)  # says what was wrong
    assert snapshot(state) == before


def _pos():
    return position(RuleSet.build(), hands=["5b 9c Ac", "Rb 2b 3s"], table="5d 2d 3d",
                    stock="4d 4c 4s 4b 6d 6c")


def test_R8_not_your_turn():
    """R8/R7: only the seat to move may play."""
    s = _pos()
    _refused(s, Play(c("Rb"), 0), 1, NotYourTurnError)
    assert NotYourTurnError.code == "not_your_turn"


def test_R7_card_not_in_hand():
    """R7: a card from another hand, from the table or no card at all is refused."""
    s = _pos()
    _refused(s, Play(c("Rb"), 0), 0, CardNotInHandError)
    _refused(s, Play(c("5d"), 0), 0, CardNotInHandError)
    _refused(s, Play(40, 0), 0, CardNotInHandError)
    _refused(s, Play(-1, 0), None, CardNotInHandError)


def test_R13_R16_illegal_captures():
    """R13/R14/R16/R17: a wrong set, a sum instead of an equal card, a discard of a card
    that can capture, a capture by a card that cannot capture, cards not on the table."""
    s = _pos()
    _refused(s, Play(c("5b"), m("2d 3d")), 0, IllegalCaptureError)  # R13
    _refused(s, Play(c("5b"), 0), 0, IllegalCaptureError)  # R16
    _refused(s, Play(c("9c"), m("5d")), 0, IllegalCaptureError)  # R17: 9 takes nothing
    _refused(s, Play(c("5b"), m("5d 2d")), 0, IllegalCaptureError)
    _refused(s, Play(c("5b"), m("5c")), 0, IllegalCaptureError)  # not on the table
    s.apply(Play(c("5b"), m("5d")), 0)  # the legal one is accepted
    assert s.table == m("2d 3d")


def test_R9_wrong_phase():
    """R9/R7: no play before the deal, no deal during play, nothing after the end, and a
    deal must be a permutation of the 40 cards."""
    rules = RuleSet.build()
    s = GameState.new(rules, 0)
    _refused(s, Play(c("5b"), 0), 1, WrongPhaseError)
    _refused(s, Deal(tuple(range(39))), None, WrongPhaseError)
    _refused(s, Deal(tuple([0] * 40)), None, WrongPhaseError)
    p = _pos()
    _refused(p, deal_order(rules, 1), None, WrongPhaseError)
    over = _pos()
    over.phase = Phase.OVER
    _refused(over, Play(c("5b"), m("5d")), 0, WrongPhaseError)


def test_V13_bad_declarations():
    """V13: a declaration the hand does not support, one made after the first play of
    the hand, or one in a game that is not Cirulla is refused."""
    cir = RuleSet.build("cirulla")
    s = position(cir, hands=["Ac 2c 3s", "Rb Fb Cb"], table="5d", fresh=True)
    _refused(s, Declare(DeclarationKind.TRIS), 0, BadDeclarationError)
    _refused(s, Declare(DeclarationKind.UNDER_TEN, 3), 0, BadDeclarationError)  # no wild
    _refused(s, Declare(DeclarationKind.UNDER_TEN), 1, NotYourTurnError)
    s.apply(Declare(DeclarationKind.UNDER_TEN), 0)
    _refused(s, Declare(DeclarationKind.UNDER_TEN), 0, BadDeclarationError)  # only once
    late = position(cir, hands=["Ac 2c 3s", "Rb Fb Cb"], table="5d", fresh=False)
    _refused(late, Declare(DeclarationKind.UNDER_TEN), 0, BadDeclarationError)
    plain = position(RuleSet.build(), hands=["Ac 2c 3s", "Rb Fb Cb"], table="5d", fresh=True)
    _refused(plain, Declare(DeclarationKind.UNDER_TEN), 0, BadDeclarationError)


def test_R7_garbage_action_is_refused():
    """R7: something that is not an action at all is refused with a typed error."""
    s = _pos()
    _refused(s, ("5b", 0), 0, WrongPhaseError)
