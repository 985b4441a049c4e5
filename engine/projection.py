"""What one seat may see (R7, R19), as integers: a frozen projection of the state.

A :class:`SeatProjection` holds exactly what a :class:`~scopa.engine.View` holds of the
current round and the game's score, as card masks, card ids and counts instead of
card objects; it is everything a seat is sent of the game, and the only input of the
protocol's view encoder.  :func:`seat_projection` makes it from the state (the server
does it on every turn); :func:`projection_of_view` from a View, with the same result
for ``view(state, seat)`` (tests check the two agree over many games).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from .cards import mask_of
from .scoring import primiera_sum
from .state import GameState
from .view import View

_bit_count = int.bit_count
_new = tuple.__new__
_primiera = functools.lru_cache(maxsize=1 << 12)(primiera_sum)  # a pile grows a few times a round


class SeatProjection(NamedTuple):
    """One seat's (``seat=None``: a spectator's) picture of the game, as integers."""

    round_no: int
    dealer: int
    to_move: int
    table: int  # card mask
    stock: int  # cards left in the stock
    hand_sizes: tuple[int, ...]  # per seat
    piles: tuple[int, ...]  # per side: the card mask captured this round (public, R19)
    scope: tuple[int, ...]  # per side, this round
    scopa_cards: tuple[tuple[int, ...], ...]  # per side: the card ids that made scope, in order
    totals: tuple[int, ...]  # per side, game score before this round
    declared: tuple[tuple[int, int], ...]  # (seat, hand mask) shown by V13, in seat order
    round_plays: tuple[tuple[int, int, int], ...]  # (seat, card, capture mask) this round, in order
    last_capturer: int  # the side that takes the leftovers (R20); -1 for none yet
    primiera: tuple[int, ...]  # per side: R21's sum of the pile so far
    seat: int | None
    side: int | None
    hand: int  # the seat's own hand, a card mask (0 for a spectator)


def seat_projection(state: GameState, seat: int | None) -> SeatProjection:
    """The projection of ``view(state, seat)``, made from the state's integers."""
    piles = state.piles
    declared = state.declared_hands
    return _new(SeatProjection, (  # SeatProjection(...) without its Python-level __new__: every turn makes one
        state.round_no, state.dealer, state.to_move, state.table, len(state.stock),
        tuple(map(_bit_count, state.hands)), tuple(piles), tuple(state.scope), tuple(map(tuple, state.scopa_cards)),
        tuple(state.totals), tuple(sorted(declared.items())) if declared else (), tuple(state.round_plays),
        state.last_capturer, tuple(map(_primiera, piles)),
        seat, None if seat is None else state.side[seat], 0 if seat is None else state.hands[seat],
    ))


def projection_of_view(v: View) -> SeatProjection:
    """The projection of what ``v`` shows (its cards as masks and ids)."""
    piles = tuple(map(mask_of, v.captured))
    return SeatProjection(
        v.round_no, v.dealer, v.to_move, mask_of(v.table), v.stock_left, tuple(v.hand_sizes), piles, tuple(v.scope),
        tuple(tuple(map(int, cards)) for cards in v.scopa_cards), tuple(v.totals),
        tuple((seat, mask_of(hand)) for seat, hand in v.declared_hands),
        tuple((p.seat, int(p.card), mask_of(p.captured)) for p in v.round_plays),
        -1 if v.last_capture_side is None else v.last_capture_side,
        tuple(p.primiera for p in v.piles) if v.piles else tuple(map(primiera_sum, piles)),
        v.seat, v.side, mask_of(v.hand),
    )
