"""Engine values ⇄ wire bodies: the one place where the two meet, and its fast path.

Owns cards as notation (``card_str``, ``card_strs``, ``parse_card_strs``, ``CARD_STRS``),
views (``view_to_wire``, ``view_from_wire``, ``public_view_to_wire``, ``seat_view_data``),
turns (``your_turn_payload``, ``your_turn_data``, ``legal_from_wire``), actions
(``action_to_wire``, ``action_from_wire``), events (``event_to_wire``, ``event_from_wire``,
``played_data``, ``hand_deal_data``, ``OtherEndReason``), scores (``round_tallies``,
``score_from_wire``), the rules (``rules_to_wire``, ``rules_from_wire``) and the packed
``your_turn`` whose C twin is ``_turnpack`` (chosen in ``speedups``: ``IMPLEMENTATION``).

Must never: hold a rule of the game (the engine's) or a wire type (the wire core's, at
this package's root), touch a socket, or be imported by the wire core.
"""

from __future__ import annotations

from .bodies import (
    OtherEndReason,
    action_from_wire,
    action_to_wire,
    card_str,
    card_strs,
    event_from_wire,
    event_to_wire,
    hand_deal_data,
    legal_from_wire,
    parse_card_strs,
    played_data,
    public_view_to_wire,
    round_tallies,
    rules_from_wire,
    rules_to_wire,
    score_from_wire,
    view_from_wire,
    view_to_wire,
    your_turn_payload,
)
from .seatview import CARD_STRS, seat_view_data, your_turn_data
from .speedups import IMPLEMENTATION

__all__ = [
    "CARD_STRS",
    "IMPLEMENTATION",
    "OtherEndReason",
    "action_from_wire",
    "action_to_wire",
    "card_str",
    "card_strs",
    "event_from_wire",
    "event_to_wire",
    "hand_deal_data",
    "legal_from_wire",
    "parse_card_strs",
    "played_data",
    "public_view_to_wire",
    "round_tallies",
    "rules_from_wire",
    "rules_to_wire",
    "score_from_wire",
    "seat_view_data",
    "view_from_wire",
    "view_to_wire",
    "your_turn_data",
    "your_turn_payload",
]
