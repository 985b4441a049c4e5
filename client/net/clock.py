"""The clock the client waits on: reconnection backoff, liveness pings, reply
deadlines and the LAN browse.

The client asks a clock for ``now``, ``sleep`` and ``timeout`` only.  The server has a
clock of its own with timers and a fake clock for tests (:mod:`scopa.server.core.clock`);
the client does not import the server, so the few lines of the event loop's clock are
here too.  :class:`Clock` is a structural protocol: any clock with these three methods
serves, the server's ``FakeClock`` included, which is how tests move the client's time
on without waiting for real.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from contextlib import AbstractAsyncContextManager
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds, from any fixed origin."""

    def sleep(self, seconds: float) -> Awaitable[None]:
        """An awaitable that completes ``seconds`` from now (armed now)."""

    def timeout(self, seconds: float | None) -> AbstractAsyncContextManager[object]:
        """``async with clock.timeout(s):`` raises ``TimeoutError`` if its body is still
        waiting ``s`` seconds from now (None: no deadline)."""


class SystemClock:
    """The running event loop's monotonic clock."""

    __slots__ = ()

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def sleep(self, seconds: float) -> Awaitable[None]:
        # A future armed now (not a coroutine): a sleep dropped before it is awaited
        # leaves no never-awaited coroutine behind.
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not future.done():
                future.set_result(None)

        timer = loop.call_later(max(seconds, 0.0), wake)
        future.add_done_callback(lambda _: timer.cancel())
        return future

    def timeout(self, seconds: float | None) -> asyncio.Timeout:
        return asyncio.timeout(seconds)
