"""The engine's accelerated functions, chosen once at import: the C twin from
``_speedups.c`` when that was built (``pip install`` builds it when a C compiler is
there), else the pure-Python twin in :mod:`scopa.engine.plays`; both give the same
results for the same arguments.

``EXPAND_PLAYS`` holds every twin that can be imported here, by name, for tests that
run each over the same inputs; ``IMPLEMENTATION`` names the one in use
(``SCOPA_SPEEDUPS=python`` in the environment picks the Python twin, to measure it).
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Play
from .selections import Template
from .plays import expand_plays as _python_expand_plays
from .twins import Twin, chosen

ExpandPlays = Callable[[int, int, tuple[tuple[Template, ...], ...], int, int, type[Play], tuple[Play, ...]], list[Play]]

EXPAND_PLAYS: dict[Twin, ExpandPlays] = {"python": _python_expand_plays}
try:
    from ._speedups import expand_plays as _c_expand_plays
except ImportError:  # pragma: no cover - depends on the install
    pass
else:
    EXPAND_PLAYS["c"] = _c_expand_plays

IMPLEMENTATION: Twin = chosen(EXPAND_PLAYS)
expand_plays: ExpandPlays = EXPAND_PLAYS[IMPLEMENTATION]
"""See :func:`scopa.engine.plays.expand_plays`."""
