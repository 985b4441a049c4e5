"""The server's clock: turn timers and reconnect grace periods wait on it.

Tests pass a :class:`FakeClock` and move time on explicitly with ``advance``, so no
test sleeps.  ``sleep`` is a plain method returning an awaitable: a :class:`FakeClock`
registers the deadline when it is *called* (not when the awaitable is first awaited),
so a timer armed by the server is armed before the server says anything about it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds, from any fixed origin."""

    def sleep(self, seconds: float) -> Awaitable[None]:
        """An awaitable that completes ``seconds`` from now."""


class SystemClock:
    """The event loop's monotonic clock."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def sleep(self, seconds: float) -> Awaitable[None]:
        # A future armed now (like FakeClock), not a coroutine: a timer cancelled before
        # its task first runs leaves no never-awaited coroutine behind.
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not future.done():
                future.set_result(None)

        handle = loop.call_later(max(seconds, 0.0), wake)
        future.add_done_callback(lambda _: handle.cancel())
        return future


class FakeClock:
    """A clock that only moves when told to (``advance``)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    def sleep(self, seconds: float) -> Awaitable[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self._now + max(seconds, 0.0), future))
        return future

    @property
    def sleeping(self) -> int:
        """How many timers are armed (not yet due, not cancelled)."""
        return sum(1 for _, f in self._sleepers if not f.done())

    def advance(self, seconds: float) -> None:
        """Move time on and wake every sleeper that is due."""
        self._now += seconds
        due = [(t, f) for t, f in self._sleepers if t <= self._now]
        self._sleepers = [(t, f) for t, f in self._sleepers if t > self._now and not f.done()]
        for _, future in sorted(due, key=lambda x: x[0]):
            if not future.done():
                future.set_result(None)


def start_timer(clock: Clock, seconds: float, callback: Callable[[], None], name: str = "timer") -> asyncio.Task[None]:
    """Call ``callback`` after ``seconds`` of ``clock`` time; cancel the task to disarm."""
    waiter = clock.sleep(seconds)  # armed now (see the module docstring)

    async def wait() -> None:
        await waiter
        callback()

    return asyncio.create_task(wait(), name=name)
