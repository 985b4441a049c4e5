"""Ctrl-C in the network commands reaches the running coroutine through the event loop."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from scopa.cli import interrupt

pytestmark = pytest.mark.unit


def test_ctrl_c_cancels_the_work_and_raises_keyboard_interrupt() -> None:
    cleaned_up: list[str] = []

    async def work() -> int:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            await asyncio.Event().wait()  # only the interrupt ends this
        finally:
            cleaned_up.append("done")
        return 0

    with pytest.raises(KeyboardInterrupt):
        interrupt.run(work())
    assert cleaned_up == ["done"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_is_read_by_the_loop_not_between_two_bytecodes() -> None:
    """The handler asyncio.run would install runs inside whatever callback is running;
    here the loop reads the signal, so no callback ever sees the interrupt mid-way."""
    handlers: list[object] = []

    async def work() -> None:
        handlers.append(signal.getsignal(signal.SIGINT))
        loop = asyncio.get_running_loop()
        handlers.append(loop._signal_handlers.get(signal.SIGINT))  # type: ignore[attr-defined]

    interrupt.run(work())
    assert handlers[0] is not signal.default_int_handler
    assert handlers[1] is not None


def test_a_cancelled_work_that_was_not_interrupted_stays_a_cancellation() -> None:
    async def work() -> None:
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        interrupt.run(work())


def test_the_result_comes_back() -> None:
    async def work() -> str:
        return "ok"

    assert interrupt.run(work()) == "ok"


def test_a_process_started_with_ctrl_c_ignored_keeps_ignoring_it() -> None:
    """A background job of a script: the interrupt is not taken over."""
    seen: list[object] = []
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        async def work() -> None:
            seen.append(signal.getsignal(signal.SIGINT))
            seen.append(asyncio.get_running_loop()._signal_handlers.get(signal.SIGINT))  # type: ignore[attr-defined]

        interrupt.run(work())
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen == [signal.SIG_IGN, None]
