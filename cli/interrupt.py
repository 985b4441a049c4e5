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

While the command's modules load (:func:`hold`, :func:`release`) a Ctrl-C is only
noted, and :func:`raise_held` raises it where the command catches it: a Ctrl-C pressed
just after typing the command ends it quietly too, not with the traceback of an import.
``run(..., once=True)`` (a server) takes the first Ctrl-C only: the shutdown it starts
runs to its end, with no second Ctrl-C cutting it short with a traceback.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_held: list[int] = []  # the Ctrl-C noted while the modules loaded


def _note(signum: int, frame: object) -> None:
    _held.append(signum)


def hold() -> None:
    """From now on until :func:`release`, a Ctrl-C is noted instead of raised (a process
    started with Ctrl-C ignored keeps ignoring it)."""
    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _note)


def release() -> None:
    """Ctrl-C raises KeyboardInterrupt again (one noted meanwhile: at :func:`raise_held`)."""
    if signal.getsignal(signal.SIGINT) is _note:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def raise_held() -> None:
    """KeyboardInterrupt, if Ctrl-C was pressed while the modules loaded."""
    if _held:
        _held.clear()
        raise KeyboardInterrupt


def run(work: Coroutine[Any, Any, T],
        loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None, once: bool = False) -> T:
    """``asyncio.run(work)`` (on a loop of ``loop_factory``'s, if given); Ctrl-C cancels
    ``work`` and raises KeyboardInterrupt here.  ``once``: a Ctrl-C after the first is
    ignored, to the end of the process (what the first one began ends as it should)."""
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
            if interrupted and once:
                return
            interrupted = True
            task.cancel()

        loop.add_signal_handler(signal.SIGINT, on_interrupt)
        try:
            return await work
        finally:
            loop.remove_signal_handler(signal.SIGINT)
            if interrupted and once:
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            return runner.run(main())
    except asyncio.CancelledError:
        if interrupted:
            raise KeyboardInterrupt from None
        raise
