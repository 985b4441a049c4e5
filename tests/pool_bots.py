"""Bots for the worker-pool tests; importable by name in a spawned worker process."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Sequence

from scopa.bots import Bot
from scopa.engine import Declare, Play, View

GATE_ENV = "SCOPA_TEST_POOL_GATE"


class GatedBot(Bot):
    """Thinks until a gate file appears (a stand-in for a long search that holds its
    process), then plays the first legal move.  Gives up after a bound so a test whose
    loop is blocked fails instead of hanging."""

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        gate = Path(os.environ[GATE_ENV])
        deadline = time.monotonic() + 60
        while not gate.exists():
            if time.monotonic() > deadline:
                raise RuntimeError("the gate never opened: the event loop was blocked")
            time.sleep(0.01)
        return legal[0]
