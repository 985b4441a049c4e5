"""A journal in memory on a slow disk a test controls: while ``gate`` is clear, a batch
holding one of the requests named waits for it (``asked`` says one does)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from scopa.server.journal.commands import Request
from scopa.server.journal.memory.storage import MemoryStorage

SAFETY = 30.0  # seconds: a safety net for thread waits only; every wait normally ends on an event


class SlowToRead(MemoryStorage):
    """Holds back each batch with a request of the kinds ``held`` while ``gate`` is clear."""

    blocks = True

    def __init__(self, *held: type[Request]) -> None:
        super().__init__()
        self.held = held
        self.gate = threading.Event()
        self.gate.set()
        self.asked = threading.Event()

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        if any(isinstance(r, self.held) for r in requests) and not self.gate.is_set():
            self.asked.set()
            self.gate.wait(SAFETY)
        return super().run_batch(requests)
