"""The deadlines of the connections: when each is due (:func:`next_deadline`) and one queue
of them per clock and event loop (:class:`Deadlines`).

Every connection has a deadline at all times (its next ping, else its hello, its
unfinished frame or our ping's pong).  A timer of the event loop each costs about 110
bytes on asyncio's loop and about 400 on uvloop's (a handle and a libuv timer); an entry
of the queue is a list of three.  On the loop's own clock (:class:`SystemClock`) the queue
is one heap, armed on the loop as one timer at its earliest entry, which fires the entries
due at that time, in the order they were armed, then arms itself for the next: each entry
fires at its own time, as its own timer would have.  On any other clock (a test's
:class:`FakeClock`, which counts and orders its timers) each entry is a timer of that
clock (:class:`TimerEach`)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import weakref
from typing import Literal, Protocol, cast

from ..core import Clock, Limits, SystemClock, Timer

Deadline = Literal["hello", "frame", "ping", "pong"]

DeadlineEntry = list[object]
"""``[when, order, owner]``: an armed deadline (``owner`` None once cancelled or fired)."""


class Due(Protocol):
    """What waits on a deadline: told when it is due (its own method, not a callback
    made for each deadline: a bound method is 64 bytes more a connection)."""

    def deadline_due(self) -> None: ...


def next_deadline(limits: Limits, hello_seen: bool, connected_at: float, frame_started: float | None,
                  last_heard: float, ping_sent: float | None) -> tuple[float, Deadline] | None:
    """A connection's earliest deadline and its kind: the hello, the unfinished frame,
    our ping after its silence, or the pong to that ping (None: no deadline)."""
    if hello_seen and frame_started is None and ping_sent is None and limits.ping_interval is not None:
        return last_heard + limits.ping_interval, "ping"  # the usual case: the only deadline is the next ping
    due: list[tuple[float, Deadline]] = []
    if not hello_seen and limits.hello_timeout is not None:
        due.append((connected_at + limits.hello_timeout, "hello"))
    if frame_started is not None and limits.frame_timeout is not None:
        due.append((frame_started + limits.frame_timeout, "frame"))
    if limits.ping_interval is not None:
        if ping_sent is None:
            due.append((last_heard + limits.ping_interval, "ping"))
        elif limits.ping_timeout is not None:
            due.append((ping_sent + limits.ping_timeout, "pong"))
    return min(due) if due else None


class Deadlines:
    """Deadlines at times of one clock, on one event loop, armed as one timer of the clock
    (:meth:`of`).  :meth:`arm` gives an entry, :meth:`cancel` takes it back."""

    __slots__ = ("_clock", "_heap", "_order", "_timer", "_timer_at", "_cancelled")
    _by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Clock, Deadlines]] = \
        weakref.WeakKeyDictionary()

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._heap: list[DeadlineEntry] = []  # by (when, order)
        self._order = itertools.count()
        self._timer: Timer | None = None  # the clock's timer, at _timer_at
        self._timer_at: float | None = None
        self._cancelled = 0  # cancelled entries still in the heap

    @staticmethod
    def of(loop: asyncio.AbstractEventLoop, clock: Clock) -> Deadlines:
        """The queue of ``clock`` on ``loop`` (one per clock and event loop): one heap on
        the loop's own clock, a timer each on any other (:class:`TimerEach`)."""
        by_clock = Deadlines._by_loop.get(loop)
        if by_clock is None:
            by_clock = Deadlines._by_loop[loop] = {}
        queue = by_clock.get(clock)
        if queue is None:
            queue = by_clock[clock] = Deadlines(clock) if type(clock) is SystemClock else TimerEach(clock)
        return queue

    def arm(self, when: float, owner: Due) -> DeadlineEntry:
        """Tell ``owner`` (``deadline_due``) once the clock reaches ``when``."""
        entry: DeadlineEntry = [when, next(self._order), owner]
        heapq.heappush(self._heap, entry)
        if self._timer_at is None or when < self._timer_at:
            self._set_timer(when)
        return entry

    def cancel(self, entry: DeadlineEntry) -> None:
        """Disarm ``entry`` (a no-op once it has fired or been cancelled)."""
        if entry[2] is None:
            return
        entry[2] = None  # its owner is let go now, not when its time comes
        heap = self._heap
        self._cancelled += 1
        if heap and heap[0] is entry:
            self._drop_cancelled()
            self._set_timer(cast(float, heap[0][0]) if heap else None)
        elif self._cancelled > 64 and self._cancelled * 2 > len(heap):
            heap[:] = [e for e in heap if e[2] is not None]
            heapq.heapify(heap)
            self._cancelled = 0

    def _drop_cancelled(self) -> None:
        heap = self._heap
        while heap and heap[0][2] is None:
            heapq.heappop(heap)
            self._cancelled -= 1

    def _set_timer(self, when: float | None) -> None:
        """The clock's timer at ``when`` (None: none)."""
        if when == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = when
        self._timer = None if when is None else self._clock.call_at(when, self._fire)

    def _fire(self) -> None:
        """The owners of the entries due at the timer's time, in the order armed; then the timer for the next."""
        at, self._timer, self._timer_at = self._timer_at, None, None
        heap = self._heap
        while heap and at is not None and cast(float, heap[0][0]) <= at:
            entry = heapq.heappop(heap)
            owner = entry[2]
            if owner is None:
                self._cancelled -= 1
                continue
            entry[2] = None
            cast(Due, owner).deadline_due()
        self._drop_cancelled()
        if heap:
            first = cast(float, heap[0][0])
            if self._timer_at is None or first < self._timer_at:
                self._set_timer(first)


class TimerEach(Deadlines):
    """The queue of a clock other than the loop's own: each entry a timer of that clock
    (a test's :class:`FakeClock` counts them, and fires them with its other timers in order)."""

    __slots__ = ()

    def arm(self, when: float, owner: Due) -> DeadlineEntry:
        entry: DeadlineEntry = [when, None, owner]
        entry[1] = self._clock.call_at(when, lambda: self._due(entry))
        return entry

    def cancel(self, entry: DeadlineEntry) -> None:
        if entry[2] is not None:
            entry[2] = None
            cast(Timer, entry[1]).cancel()

    @staticmethod
    def _due(entry: DeadlineEntry) -> None:
        owner = entry[2]
        if owner is not None:
            entry[2] = None
            cast(Due, owner).deadline_due()
