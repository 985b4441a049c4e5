"""The protocol's accelerated functions, chosen once at import: the C twin from
``_turnpack.c`` when that was built (``pip install`` builds it when a C compiler is
there), else the pure-Python twin in :mod:`scopa.protocol.seatdata`; both write the
same bytes for the same arguments.

``YOUR_TURN`` holds every twin that can be imported here, by name, for tests that run
each over the same inputs; ``IMPLEMENTATION`` names the one in use.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Literal

from scopa.engine.cards import DENARI_MASK, SETTEBELLO

from .seatdata import CARD_STRS, your_turn as _python_your_turn

Twin = Literal["c", "python"]
YourTurn = Callable[
    [int, Sequence[tuple[int, int]], int, int, int, int, int, Sequence[int], Sequence[int], Sequence[int],
     Sequence[Sequence[int]], Sequence[int], Sequence[tuple[int, int, int]], int, Sequence[int], int, int],
    bytes,
]

YOUR_TURN: dict[Twin, YourTurn] = {"python": _python_your_turn}
try:
    from ._turnpack import init as _c_init, your_turn as _c_your_turn
except ImportError:  # pragma: no cover - depends on the install
    pass
else:
    _c_init(CARD_STRS, DENARI_MASK, SETTEBELLO)
    YOUR_TURN["c"] = _c_your_turn

IMPLEMENTATION: Twin = "c" if "c" in YOUR_TURN and os.environ.get("SCOPA_SPEEDUPS") != "python" else "python"
your_turn: YourTurn = YOUR_TURN[IMPLEMENTATION]
"""See :func:`scopa.protocol.seatdata.your_turn`."""
