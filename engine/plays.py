"""The legal plays of a hand, expanded from the capture templates (captures.py decides
the templates; this only lists the plays they stand for).

:func:`expand_plays` is a pure function over integers and tuples of them.  Its C twin,
``scopa.engine._speedups.expand_plays``, has the same signature and gives the same list;
:mod:`scopa.engine.speedups` chooses one of the two once, at import.
"""

from __future__ import annotations

from .actions import Play
from .captures import expand
from .selections import Template
from .cards import VALUE


def expand_plays(
    hand: int, table: int, by_value: tuple[tuple[Template, ...], ...], wild: int, sette_coppe: int,
    play_type: type[Play], laid: tuple[Play, ...], /,
) -> list[Play]:
    """The plays of ``hand`` (a mask) on ``table``, one per capture choice, in card order:
    ``by_value[v]`` holds the templates of a card of value ``v``; the card
    ``sette_coppe`` counts as ``wild`` when that is not 0 (V13).  A card that captures
    nothing is laid on the table: its play is ``laid[card]`` itself (shared by every list,
    not a new one each: a waiting turn keeps its list)."""
    new = tuple.__new__
    out: list[Play] = []
    append = out.append
    while hand:
        low = hand & -hand
        c = low.bit_length() - 1
        hand ^= low
        caps = by_value[wild if (wild and c == sette_coppe) else VALUE[c]]
        if not caps:
            append(laid[c])
            continue
        for whole, partial in caps:
            if partial:
                for mask in expand(table, (whole, partial)):
                    append(new(play_type, (c, mask)))
            else:
                append(new(play_type, (c, table & whole)))
    return out
