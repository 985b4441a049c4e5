"""Typed errors for moves the rules do not allow (python-chess style: ``ValueError``s)."""

from __future__ import annotations


class IllegalMoveError(ValueError):
    """A move the rules do not allow; ``code`` names the reason for machines."""

    code = "illegal_move"


class NotYourTurnError(IllegalMoveError):
    code = "not_your_turn"


class CardNotInHandError(IllegalMoveError):
    code = "card_not_in_hand"


class IllegalCaptureError(IllegalMoveError):
    code = "illegal_capture"


class WrongPhaseError(IllegalMoveError):
    """The action does not fit the game's phase (e.g. a play while a deal is due)."""

    code = "illegal_move"


class BadDeclarationError(IllegalMoveError):
    """A Cirulla hand declaration the hand does not support (V13)."""

    code = "illegal_move"
