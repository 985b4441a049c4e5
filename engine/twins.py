"""Which twin of an accelerated function runs.  Each such function has a pure Python
twin and a C twin (``pip install`` builds the C when a C compiler is there); the C twin is
chosen, once, at import, when it was built, unless ``SCOPA_SPEEDUPS=python`` is in the
environment (to measure the Python twin, or to rule the C out)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

Twin = Literal["c", "python"]


def chosen(twins: Mapping[Twin, object]) -> Twin:
    """The twin to use of ``twins`` (by name; the Python twin is always there)."""
    return "c" if "c" in twins and os.environ.get("SCOPA_SPEEDUPS") != "python" else "python"
