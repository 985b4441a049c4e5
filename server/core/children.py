"""Child processes of the server (the bots' worker pool, the SQLite journal's process)
started so that Ctrl-C at the terminal never interrupts them.

Ctrl-C reaches every process of the terminal's foreground group: a child interrupted
so would print its own ``KeyboardInterrupt`` traceback, and stop under the server
instead of being stopped by it (the server ends its children as it stops).  A child
started while this thread blocks SIGINT inherits the block, so the signal never
reaches it; the server's own Ctrl-C that comes meanwhile waits for the end of the
block, and is not lost."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """SIGINT blocked in this thread meanwhile: the children started here never get it."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
