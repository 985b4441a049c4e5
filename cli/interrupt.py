"""Running a command's coroutine so that Ctrl-C reaches it through the event loop.

``asyncio.run`` turns the first Ctrl-C into a cancellation from inside a Python signal
handler, which may run between any two bytecodes of a callback the loop is running; when
it lands inside ``asyncio.wait``'s own bookkeeping the loop prints a traceback. Here the
signal is read by the loop (``add_signal_handler``), so the cancellation is an ordinary
callback, and the caller sees :class:`KeyboardInterrupt` as before.  Reading it so also
wakes a loop that sleeps with nothing to do (a person thinking at a prompt) when the
kernel hands the signal to another thread, such as the one reading the keyboard: the
handler ``asyncio.run`` installs would only run once something else woke the loop.  A process that
was started with Ctrl-C ignored (a background job of a script) keeps ignoring it.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(work: Coroutine[Any, Any, T],
        loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None) -> T:
    """``asyncio.run(work)`` (on a loop of ``loop_factory``'s, if given); Ctrl-C cancels
    ``work`` and raises KeyboardInterrupt here."""
    interrupted = False
    take_over = (threading.current_thread() is threading.main_thread()
                 and signal.getsignal(signal.SIGINT) is signal.default_int_handler)

    async def main() -> T:
        nonlocal interrupted
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        if not take_over or task is None:
            return await work

        def on_interrupt() -> None:
            nonlocal interrupted
            interrupted = True
            task.cancel()

        loop.add_signal_handler(signal.SIGINT, on_interrupt)
        try:
            return await work
        finally:
            loop.remove_signal_handler(signal.SIGINT)

    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            return runner.run(main())
    except asyncio.CancelledError:
        if interrupted:
            raise KeyboardInterrupt from None
        raise
