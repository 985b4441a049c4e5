"""A seat's view as plain wire data, made from integers (card masks, counts, seats):
what the ``SeatView`` model of the engine's View dumps to, without building either.

:func:`your_turn` packs a whole ``your_turn`` body this way.  It is a pure function of
integers and sequences of them; its C twin, ``scopa.protocol._turnpack.your_turn``, has
the same signature and writes the same bytes, and :mod:`scopa.protocol.speedups`
chooses one of the two once, at import.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from scopa.engine import CARDS
from scopa.engine.cards import DENARI_MASK, SETTEBELLO, cards_in

from .codec import pack_data

CARD_STRS: tuple[str, ...] = tuple(str(c) for c in CARDS)
"""Each card's wire notation, by card id."""


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


def seat_view_fields_data(
    round_no: int, dealer: int, to_move: int, table: int, stock: int, hands: Sequence[int], piles: Sequence[int],
    scope: Sequence[int], scopa_cards: Sequence[Sequence[int]], totals: Sequence[int],
    declared: Sequence[tuple[int, int]], round_plays: Sequence[tuple[int, int, int]], last_capturer: int,
    primiera: Sequence[int], seat: int, side: int,
) -> dict[str, Any]:
    """The plain data of the wire ``SeatView`` of ``seat``: ``hands`` and ``piles`` are
    card masks by seat and by side, ``declared`` the (seat, hand mask) of each declared
    hand in seat order, ``primiera`` each pile's primiera sum, ``last_capturer`` -1 for
    none yet."""
    s = CARD_STRS
    return {
        "round": max(round_no, 1),
        "dealer": dealer,
        "turn": to_move,
        "table": mask_strs(table),
        "stock": stock,
        "hand_sizes": [h.bit_count() for h in hands],
        "captured": [mask_strs(p) for p in piles],
        "scope": list(scope),
        "scopa_cards": [[s[c] for c in sc] for sc in scopa_cards],
        "totals": list(totals),
        "declared": [{"seat": seat_, "hand": mask_strs(h)} for seat_, h in declared],
        "round_plays": list(map(_play_data, round_plays)),
        "last_capture_side": last_capturer if last_capturer >= 0 else None,
        "piles": [_pile_data(p, primiera[i], scope[i]) for i, p in enumerate(piles)],
        "seat": seat,
        "side": side,
        "hand": mask_strs(hands[seat]),
    }


def your_turn(
    event: int, legal: Sequence[tuple[int, int]], round_no: int, dealer: int, to_move: int, table: int, stock: int,
    hands: Sequence[int], piles: Sequence[int], scope: Sequence[int], scopa_cards: Sequence[Sequence[int]],
    totals: Sequence[int], round_plays: Sequence[tuple[int, int, int]], last_capturer: int,
    primiera: Sequence[int], seat: int, side: int, /,
) -> bytes:
    """The packed body of a ``your_turn`` whose moves are the plays ``legal`` ((card,
    capture mask) pairs) and that has no declaration and no declared hand (the fields
    are those of :func:`seat_view_fields_data`)."""
    s = CARD_STRS
    moves = [{"index": i, "card": s[card], "capture": mask_strs(capture)} for i, (card, capture) in enumerate(legal)]
    view = seat_view_fields_data(round_no, dealer, to_move, table, stock, hands, piles, scope, scopa_cards, totals, (),
                                 round_plays, last_capturer, primiera, seat, side)
    return pack_data({"event": event, "legal": moves, "declarations": [], "view": view})
