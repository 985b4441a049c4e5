"""The view encoder: what a seat is sent of the game, made from its
:class:`~scopa.engine.SeatProjection` alone.

:func:`seat_view_data` (and :func:`public_view_data`, a spectator's) give the plain data
the wire ``SeatView`` (``PublicView``) model dumps to; :func:`your_turn_data` the plain
data of a whole ``your_turn`` body, and :func:`pack_your_turn` its msgpack bytes.
``pack_your_turn`` is a pure function of an event number, the legal actions and the
projection; its C twin, ``scopa.protocol.convert._turnpack.your_turn``, has the same signature
and writes the same bytes, and :mod:`scopa.protocol.convert.speedups` chooses one of the two
once, at import.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from scopa.engine import CARDS, SeatProjection
from scopa.engine.actions import DECLARATION_POINTS
from scopa.engine.cards import DENARI_MASK, SETTEBELLO, cards_in

from ..codec import pack_data

CARD_STRS: tuple[str, ...] = tuple(str(c) for c in CARDS)
"""Each card's wire notation, by card id."""

LegalAction = tuple[int, int] | tuple[str, int | None]
"""An engine ``Play`` (card, capture mask) or ``Declare`` (kind, wild value or None)."""


POINTS_BY_KIND: dict[str, int] = {kind.value: points for kind, points in DECLARATION_POINTS.items()}
"""Each declaration's points (V13), by its wire kind."""


@functools.lru_cache(maxsize=1 << 14)
def mask_strs(mask: int) -> tuple[str, ...]:
    """The cards of a mask in notation, in id order (the order of ``cards_of``)."""
    return tuple(CARD_STRS[c] for c in cards_in(mask))


@functools.lru_cache(maxsize=1 << 14)
def _play_data(play: tuple[int, int, int]) -> dict[str, Any]:
    seat, card, capture = play
    return {"seat": seat, "card": CARD_STRS[card], "captured": mask_strs(capture)}


@functools.lru_cache(maxsize=1 << 12)
def _pile_data(pile: int, primiera: int, scope: int) -> dict[str, Any]:
    return {"cards": pile.bit_count(), "denari": (pile & DENARI_MASK).bit_count(),
            "settebello": bool(pile >> SETTEBELLO & 1), "primiera": primiera, "scope": scope}


def public_view_data(p: SeatProjection) -> dict[str, Any]:
    """The plain data of the wire ``PublicView`` of ``p`` (what anyone may see: no hand)."""
    s = CARD_STRS
    scope, primiera = p.scope, p.primiera
    return {
        "round": max(p.round_no, 1),
        "dealer": p.dealer,
        "turn": p.to_move,
        "table": mask_strs(p.table),
        "stock": p.stock,
        "hand_sizes": list(p.hand_sizes),
        "captured": [mask_strs(pile) for pile in p.piles],
        "scope": list(scope),
        "scopa_cards": [[s[c] for c in cards] for cards in p.scopa_cards],
        "totals": list(p.totals),
        "declared": [{"seat": seat, "hand": mask_strs(hand)} for seat, hand in p.declared],
        "round_plays": list(map(_play_data, p.round_plays)),
        "last_capture_side": p.last_capturer if p.last_capturer >= 0 else None,
        "piles": [_pile_data(pile, primiera[i], scope[i]) for i, pile in enumerate(p.piles)],
    }


def seat_view_data(p: SeatProjection) -> dict[str, Any]:
    """The plain data of the wire ``SeatView`` of ``p`` (a seat's: not a spectator's)."""
    if p.seat is None or p.side is None:
        raise ValueError("a spectator has no seat view")
    data = public_view_data(p)
    data["seat"], data["side"], data["hand"] = p.seat, p.side, mask_strs(p.hand)
    return data


def legal_data(legal: Sequence[LegalAction]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Engine legal actions as the plain data of ``your_turn``'s ``legal`` (the plays,
    numbered) and ``declarations`` (what their models dump to)."""
    s = CARD_STRS
    moves: list[dict[str, Any]] = []
    decls: list[dict[str, Any]] = []
    for first, second in legal:
        if isinstance(first, str):
            points = POINTS_BY_KIND.get(first)
            if points is None:
                raise ValueError(f"{first!r} is not a declaration")
            if second is not None and not isinstance(second, int):
                raise TypeError("a declaration's wild value is an integer or None")
            decls.append({"kind": str(first), "wild": second, "points": points})
        elif isinstance(second, int):
            moves.append({"index": len(moves), "card": s[first], "capture": mask_strs(second)})
        else:
            raise TypeError("a play's capture is a card mask")
    return moves, decls


def your_turn_data(event: int, legal: Sequence[LegalAction], p: SeatProjection) -> dict[str, Any]:
    """The plain data of the ``your_turn`` body asking ``p``'s seat to choose one of
    ``legal``: what the ``YourTurn`` model dumps to."""
    moves, decls = legal_data(legal)
    return {"event": event, "legal": moves, "declarations": decls, "view": seat_view_data(p)}


def pack_your_turn(event: int, legal: Sequence[LegalAction], p: SeatProjection, /) -> bytes:
    """The packed ``your_turn`` body: ``pack_data(your_turn_data(event, legal, p))``."""
    return pack_data(your_turn_data(event, legal, p))
