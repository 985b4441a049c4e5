"""The server's ``your_turn``, packed straight from the game state.

A server sends one on every move.  Packing it from plain data
(:func:`~scopa.protocol.convert.your_turn_data_of`) builds a dict for every legal move,
round play and pile, and packs every card string again; here the msgpack bytes of what
repeats from move to move (a mask's cards, a round play, a pile, a legal move) are
remembered and put together.  The bytes are those ``pack_data(your_turn_data_of(...))``
gives, which stays the reference (the two are checked equal over many games).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from scopa.engine import Declare, GameState, Play

from .codec import pack_data, pack_uint
from .convert import CARD_STRS, legal_data, mask_strs, pile_data

_KEYS = {key: pack_data(key) for key in (
    "event", "legal", "declarations", "view", "index", "card", "capture", "round", "dealer", "turn", "table",
    "stock", "hand_sizes", "captured", "scope", "scopa_cards", "totals", "declared", "round_plays",
    "last_capture_side", "piles", "seat", "side", "hand",
)}  # fmt: skip
_NIL = pack_data(None)
_EMPTY = pack_data([])
_VIEW_FIELDS = 17  # the keys of a SeatView, as seat_view_data_of makes it


def _array(count: int) -> bytes:
    return bytes((0x90 | count,)) if count < 16 else b"\xdc" + count.to_bytes(2, "big")


def _map(count: int) -> bytes:
    return bytes((0x80 | count,)) if count < 16 else b"\xde" + count.to_bytes(2, "big")


def _int(n: int) -> bytes:
    return pack_uint(n) if n >= 0 else pack_data(n)


def _ints(values: Iterable[int]) -> bytes:
    packed = [_int(n) for n in values]
    return _array(len(packed)) + b"".join(packed)


@functools.lru_cache(maxsize=1 << 14)
def _packed_mask(mask: int) -> bytes:
    return pack_data(mask_strs(mask))


@functools.lru_cache(maxsize=1 << 14)
def _packed_play(play: tuple[int, int, int]) -> bytes:
    seat, card, capture = play
    return pack_data({"seat": seat, "card": CARD_STRS[card], "captured": mask_strs(capture)})


@functools.lru_cache(maxsize=1 << 12)
def _packed_pile(pile: int, scope: int) -> bytes:
    return pack_data(pile_data(pile, scope))


@functools.lru_cache(maxsize=1 << 14)
def _packed_move_tail(card: int, capture: int) -> bytes:
    """A legal move's map after its index: its card and capture."""
    return _KEYS["card"] + pack_data(CARD_STRS[card]) + _KEYS["capture"] + _packed_mask(capture)


_MOVE_HEAD = _map(3) + _KEYS["index"]


def pack_seat_view(state: GameState, seat: int) -> bytes:
    """The msgpack of ``seat_view_data_of(state, seat)``."""
    k = _KEYS
    piles, scope = state.piles, state.scope
    declared = sorted(state.declared_hands.items())
    last = state.last_capturer
    return b"".join((
        _map(_VIEW_FIELDS),
        k["round"], _int(max(state.round_no, 1)), k["dealer"], _int(state.dealer), k["turn"], _int(state.to_move),
        k["table"], _packed_mask(state.table), k["stock"], _int(len(state.stock)),
        k["hand_sizes"], _ints(h.bit_count() for h in state.hands),
        k["captured"], _array(len(piles)), *map(_packed_mask, piles),
        k["scope"], _ints(scope),
        k["scopa_cards"], pack_data([[CARD_STRS[c] for c in sc] for sc in state.scopa_cards]),
        k["totals"], _ints(state.totals),
        k["declared"], pack_data([{"seat": s, "hand": mask_strs(h)} for s, h in declared]) if declared else _EMPTY,
        k["round_plays"], _array(len(state.round_plays)), *map(_packed_play, state.round_plays),
        k["last_capture_side"], _int(last) if last >= 0 else _NIL,
        k["piles"], _array(len(piles)), *(_packed_pile(p, scope[i]) for i, p in enumerate(piles)),
        k["seat"], _int(seat), k["side"], _int(state.side[seat]), k["hand"], _packed_mask(state.hands[seat]),
    ))  # fmt: skip


def pack_your_turn(event: int, state: GameState, seat: int, legal: Sequence[Play | Declare]) -> bytes:
    """The msgpack of ``your_turn_data_of(event, state, seat, legal)``: a ``your_turn``
    body ready to send."""
    k = _KEYS
    moves = [a for a in legal if not isinstance(a, Declare)]
    declarations = [a for a in legal if isinstance(a, Declare)]
    parts = [_map(4), k["event"], _int(event), k["legal"], _array(len(moves))]
    for index, move in enumerate(moves):
        parts += (_MOVE_HEAD, pack_uint(index), _packed_move_tail(move.card, move.capture))
    parts += (k["declarations"], pack_data(legal_data(declarations)[1]) if declarations else _EMPTY,
              k["view"], pack_seat_view(state, seat))
    return b"".join(parts)
