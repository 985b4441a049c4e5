"""Types of the C twin (``_turnpack.c``) of :func:`scopa.protocol.convert.seatview.pack_your_turn`."""

from collections.abc import Mapping, Sequence

from scopa.engine import SeatProjection

def init(card_strs: Sequence[str], denari_mask: int, settebello: int, declaration_points: Mapping[str, int], /) -> None: ...
def your_turn(
    event: int, legal: Sequence[tuple[int, int] | tuple[str, int | None]], projection: SeatProjection, /
) -> bytes: ...
