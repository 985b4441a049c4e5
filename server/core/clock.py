"""The clock every timer and deadline of the server waits on.

A :class:`Clock` tells the time (``now``), calls a function later (``call_later``, or
``call_at`` a time of its own, returning a :class:`Timer` to ``cancel``), and gives
awaitables for coroutines that wait (``sleep``, and ``timeout`` for a deadline around
an ``await``).

- :class:`SystemClock` is the running event loop's monotonic clock (``time.monotonic``); ``call_later`` and
  ``call_at`` are the loop's own (a timer is one heap entry in the loop, no task).
- :class:`FakeClock` only moves when told to (``advance``): its timers sit in a sorted
  list, and ``advance`` fires the due ones in order of their deadline, so a test can
  drive every timer, deadline, backoff and liveness check without waiting for real.

A clock does no I/O; it needs a running event loop only for ``sleep`` and ``timeout``
(they hand out futures and cancel the waiting task).  ``sleep`` arms its deadline when
it is *called*, not when the awaitable is first awaited: a timer armed by the server is
armed before the server says anything about it.

Where it lives: the server and the client both wait on a clock, but the packages both
may import (engine, protocol, bots) are the wrong home: engine and protocol are sans-I/O
(no asyncio), and the bots are players, not a runtime.  So each side has its own: this
module, the server's, with timers and :class:`FakeClock`; and
:mod:`scopa.client.net.clock`, the client's, which asks only for ``now``, ``sleep`` and
``timeout``.  Its ``Clock`` is a structural protocol that both clocks here satisfy,
so tests drive the client with this :class:`FakeClock` too.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import time
import weakref
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Protocol


class Timer(Protocol):
    """A callback armed on a clock; ``cancel`` disarms it (a no-op once it has fired)."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds, from any fixed origin."""

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        """Call ``callback`` ``seconds`` from now (never from inside this call: for
        ``seconds`` <= 0 on the loop's next turn, or a fake clock's next ``advance``)."""

    def call_at(self, when: float, callback: Callable[[], object]) -> Timer:
        """Call ``callback`` when :meth:`now` reaches ``when`` (a deadline kept as a time
        of this clock, so re-arming it never drifts)."""

    def sleep(self, seconds: float) -> Awaitable[None]:
        """An awaitable that completes ``seconds`` from now (armed now)."""

    def timeout(self, seconds: float | None) -> AbstractAsyncContextManager[object]:
        """``async with clock.timeout(s):`` raises ``TimeoutError`` if its body is still
        waiting ``s`` seconds from now (None: no deadline)."""


def start_timer(clock: Clock, seconds: float, callback: Callable[[], object], name: str = "timer") -> Timer:
    """Call ``callback`` after ``seconds`` of ``clock`` time; ``cancel()`` the timer to
    disarm it.  ``name`` says what the timer is for (kept for readers and callers that
    name their timers; a timer is not a task)."""
    del name
    return clock.call_later(seconds, callback)


def _future_sleep(clock: Clock, seconds: float) -> asyncio.Future[None]:
    """A future that ``clock`` completes ``seconds`` from now; cancelling it disarms the timer."""
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def wake() -> None:
        if not future.done():
            future.set_result(None)

    timer = clock.call_later(seconds, wake)
    future.add_done_callback(lambda _: timer.cancel())
    return future


_TIMER_CONTEXTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, contextvars.Context] = \
    weakref.WeakKeyDictionary()


def _timer_context(loop: asyncio.AbstractEventLoop) -> contextvars.Context:
    """The context every timer of ``loop`` runs its callback in (one per loop: a context
    is entered by one thread at a time).  The server sets no context variable, and a timer
    given none would hold a copy of the context it was armed in: a connection's deadline,
    a table's turn clock, a few of them per table."""
    context = _TIMER_CONTEXTS.get(loop)
    if context is None:
        context = _TIMER_CONTEXTS[loop] = contextvars.Context()
    return context


class SystemClock:
    """The running event loop's monotonic clock."""

    __slots__ = ()

    now = staticmethod(time.monotonic)
    """The clock the loop's timers run on, read directly: asyncio's ``loop.time()`` is
    ``time.monotonic()``, and uvloop's is the same clock read once per loop turn (never
    ahead of it, so a timer armed at ``now() + s`` finds ``now()`` past its deadline
    when it fires).  Readable with no loop running."""

    def call_later(self, seconds: float, callback: Callable[[], object]) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(seconds, 0.0), callback, context=_timer_context(loop))

    def call_at(self, when: float, callback: Callable[[], object]) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_at(when, callback, context=_timer_context(loop))

    def sleep(self, seconds: float) -> Awaitable[None]:
        # A future armed now (not a coroutine): a sleep dropped before it is awaited
        # leaves no never-awaited coroutine behind, and it is armed like FakeClock's.
        return _future_sleep(self, seconds)

    def timeout(self, seconds: float | None) -> asyncio.Timeout:
        return asyncio.timeout(seconds)


class FakeTimer:
    """A timer of a :class:`FakeClock`."""

    __slots__ = ("when", "_order", "_callback", "_clock", "armed")

    def __init__(self, clock: FakeClock, when: float, order: int, callback: Callable[[], object]) -> None:
        self.when = when
        self._order = order
        self._callback = callback
        self._clock = clock
        self.armed = True
        """Neither fired nor cancelled."""

    def __lt__(self, other: FakeTimer) -> bool:
        return (self.when, self._order) < (other.when, other._order)

    def cancel(self) -> None:
        if self.armed:
            self.armed = False
            self._clock._armed -= 1

    def _fire(self) -> None:
        self.armed = False
        self._clock._armed -= 1
        self._callback()


class _ClockTimeout:
    """``asyncio.timeout`` whose deadline is a timer on a (fake) clock."""

    def __init__(self, clock: Clock, seconds: float | None) -> None:
        self._clock = clock
        self._seconds = seconds
        self._inner = asyncio.timeout(None)
        self._timer: Timer | None = None

    def _expire(self) -> None:
        self._timer = None
        self._inner.reschedule(asyncio.get_running_loop().time())  # due now: cancels the body

    async def __aenter__(self) -> _ClockTimeout:
        await self._inner.__aenter__()
        if self._seconds is not None and self._seconds <= 0:
            self._expire()  # due already, as asyncio.timeout(0) is
        elif self._seconds is not None:
            self._timer = self._clock.call_later(self._seconds, self._expire)
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        await self._inner.__aexit__(kind, exc, tb)  # raises TimeoutError if the deadline cut the body


class FakeClock:
    """A clock that only moves when told to (:meth:`advance`)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._timers: list[FakeTimer] = []  # a heap by (deadline, order of arming)
        self._order = itertools.count()
        self._armed = 0

    def now(self) -> float:
        return self._now

    def call_later(self, seconds: float, callback: Callable[[], object]) -> FakeTimer:
        return self.call_at(self._now + max(seconds, 0.0), callback)

    def call_at(self, when: float, callback: Callable[[], object]) -> FakeTimer:
        timer = FakeTimer(self, max(when, self._now), next(self._order), callback)
        if len(self._timers) > 64 and len(self._timers) > 2 * self._armed:
            # Mostly cancelled timers (a turn timer is armed and cancelled on every move).
            self._timers[:] = [t for t in self._timers if t.armed]  # in place: advance may be iterating it
            heapq.heapify(self._timers)
        heapq.heappush(self._timers, timer)
        self._armed += 1
        return timer

    def sleep(self, seconds: float) -> Awaitable[None]:
        if seconds <= 0:  # due now: no need to wait for the next advance
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        return _future_sleep(self, seconds)

    def timeout(self, seconds: float | None) -> _ClockTimeout:
        return _ClockTimeout(self, seconds)

    @property
    def sleeping(self) -> int:
        """How many timers are armed (neither fired nor cancelled)."""
        return self._armed

    @property
    def next_deadline(self) -> float | None:
        """When the earliest armed timer is due (None: nothing is armed)."""
        while self._timers and not self._timers[0].armed:
            heapq.heappop(self._timers)
        return self._timers[0].when if self._timers else None

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds`` at once, then fire every timer now due, in order of
        its deadline (equal deadlines: in the order armed), as an event loop that was held
        up for ``seconds`` would: ``now()`` is already the new time, so a timer armed by a
        callback counts from it (and fires within this call only if due at once).  Step
        through in smaller advances to see each deadline at its own time."""
        if seconds < 0:
            raise ValueError(f"a clock does not go back ({seconds} s)")
        self._now += seconds
        timers = self._timers
        while timers and timers[0].when <= self._now:
            timer = heapq.heappop(timers)
            if timer.armed:
                timer._fire()
