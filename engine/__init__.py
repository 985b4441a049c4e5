"""scopa.engine: the pure rules of Scopa and its variants (RULES.md), with no I/O.

Deterministic from a seed; a game is a replayable list of actions.
"""

from .actions import Action, Deal, DeclarationKind, Declare, Play
from .cards import CARDS, Card, Suit, cards_in, format_cards, mask_of, parse_cards
from .errors import (
    BadDeclarationError,
    CardNotInHandError,
    IllegalCaptureError,
    IllegalMoveError,
    NotYourTurnError,
    WrongPhaseError,
)
from .events import (
    DealVoid,
    Declared,
    Event,
    Forced,
    GameEnded,
    GameStarted,
    HandDealt,
    Played,
    PlayMark,
    RoundEnded,
    RoundStarted,
)
from .effects import Announce, Ask, Effect, GameOver, GameRecord, Journal, Refused
from .local import LocalGame, play_local
from .master import MAX_REFUSALS, GameMaster
from .player import Player
from .rules import AssoPigliaTutto, CaptureMode, Preset, RuleSet, RuleSetError, preset_of
from .scoring import Category, RoundScore, score_round, winning_side
from .sensible import sensible_play
from .state import EndReason, GameState, Phase, replay
from .projection import SeatProjection, projection_of_view, seat_projection
from .view import RoundPlay, SidePile, View, view

__all__ = [
    "Action", "Announce", "Ask", "AssoPigliaTutto", "BadDeclarationError", "CARDS", "Card", "CardNotInHandError",
    "CaptureMode", "Category", "Deal", "DealVoid", "DeclarationKind", "Declare", "Declared",
    "Effect", "EndReason", "Event", "Forced", "GameEnded", "GameOver", "GameMaster", "GameRecord", "GameStarted", "GameState",
    "HandDealt", "IllegalCaptureError", "IllegalMoveError", "Journal", "LocalGame", "MAX_REFUSALS", "NotYourTurnError", "Phase", "Play",
    "PlayMark", "Played", "Player", "Preset", "Refused", "RoundEnded", "RoundPlay", "RoundScore", "RoundStarted", "RuleSet",
    "RuleSetError", "SeatProjection", "SidePile", "Suit", "View", "WrongPhaseError", "cards_in", "format_cards", "mask_of",
    "parse_cards", "play_local", "preset_of", "projection_of_view", "replay", "score_round", "seat_projection", "sensible_play", "view", "winning_side",
]  # fmt: skip
