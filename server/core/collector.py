"""The cyclic garbage collector, set for a long-running server.

Python's collector now and then makes a full collection, which walks every object the
process keeps: with hundreds of tables that holds the event loop for tens of
milliseconds, and every move waiting in that moment waits that long (the open-loop
benchmark's p99 is made of those pauses).  While a server runs, :class:`Collector`
collects young objects less often than Python does (every :data:`YOUNG_THRESHOLD`
new containers instead of 700: by then most of a move's objects are freed already, so
the collections take half the time in all, and each is still about a millisecond),
freezes what the server made while starting (never looked at again), makes no full
collection on its own, and makes one at a set interval instead, so garbage with cycles
is still freed.
"""

from __future__ import annotations

import gc

from .clock import Clock, Timer

FULL_COLLECTION_INTERVAL = 600.0
"""Seconds between full collections while a server runs."""

YOUNG_THRESHOLD = 5000
"""New containers (allocations less deallocations) between two young collections."""

_NEVER = 2**31 - 1  # a full-collection threshold that is never reached


class Collector:
    """The collector's setting for one running server; :meth:`stop` gives back Python's."""

    def __init__(self, clock: Clock, interval: float = FULL_COLLECTION_INTERVAL) -> None:
        self.clock = clock
        self.interval = interval
        self._saved: tuple[int, int, int] | None = None
        self._timer: Timer | None = None

    def start(self) -> None:
        if self._saved is not None:
            return
        self._saved = gc.get_threshold()
        _, middle, _ = self._saved
        gc.freeze()
        gc.set_threshold(YOUNG_THRESHOLD, middle, _NEVER)
        self._timer = self.clock.call_later(self.interval, self._collect)

    def _collect(self) -> None:
        gc.collect()
        self._timer = self.clock.call_later(self.interval, self._collect)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            gc.unfreeze()
            self._saved = None
