"""Types of the C twin (``_turnpack.c``) of :func:`scopa.protocol.seatdata.your_turn`."""

from collections.abc import Sequence

def init(card_strs: Sequence[str], denari_mask: int, settebello: int, /) -> None: ...
def your_turn(
    event: int,
    legal: Sequence[tuple[int, int]],
    round_no: int,
    dealer: int,
    to_move: int,
    table: int,
    stock: int,
    hands: Sequence[int],
    piles: Sequence[int],
    scope: Sequence[int],
    scopa_cards: Sequence[Sequence[int]],
    totals: Sequence[int],
    round_plays: Sequence[tuple[int, int, int]],
    last_capturer: int,
    primiera: Sequence[int],
    seat: int,
    side: int,
    /,
) -> bytes: ...
