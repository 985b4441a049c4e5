"""The protocol's accelerated function, chosen once at import: :func:`your_turn`, the
packed ``your_turn`` body of a seat's projection.  Its C twin comes from
``_turnpack.c`` when that was built (``pip install`` builds it when a C compiler is
there), else the pure-Python twin, :func:`scopa.protocol.convert.seatview.pack_your_turn`, is
used; both write the same bytes for the same arguments.

``YOUR_TURN`` holds every twin that can be imported here, by name, for tests that run
each over the same inputs; ``IMPLEMENTATION`` names the one in use
(``SCOPA_SPEEDUPS=python`` in the environment picks the Python twin, to measure it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scopa.engine import SeatProjection
from scopa.engine.cards import DENARI_MASK, SETTEBELLO
from scopa.engine.twins import Twin, chosen

from .seatview import CARD_STRS, POINTS_BY_KIND, LegalAction, pack_your_turn as _python_your_turn

YourTurn = Callable[[int, Sequence[LegalAction], SeatProjection], bytes]

YOUR_TURN: dict[Twin, YourTurn] = {"python": _python_your_turn}
try:
    from ._turnpack import init as _c_init, your_turn as _c_your_turn
except ImportError:  # pragma: no cover - depends on the install
    pass
else:
    _c_init(CARD_STRS, DENARI_MASK, SETTEBELLO, POINTS_BY_KIND)
    YOUR_TURN["c"] = _c_your_turn

IMPLEMENTATION: Twin = chosen(YOUR_TURN)
your_turn: YourTurn = YOUR_TURN[IMPLEMENTATION]
"""The packed ``your_turn`` body asking a seat to choose one of ``legal`` (engine plays
and declarations), numbered ``event``, with the view of its projection: see
:func:`scopa.protocol.convert.seatview.pack_your_turn`."""
