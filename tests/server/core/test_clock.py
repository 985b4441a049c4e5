"""The one clock (scopa.server.core.clock): cheap timers on the loop, a fake clock that
fires them in order, and every deadline of the server and the client driven by it —
the command rate, the connection deadlines, the reconnect backoff — with no real wait."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable

import pytest

from scopa.client.net import LinkEvent, LinkStatus, ClientSession, ConnectionLost
from scopa.protocol import commands as wire
from scopa.server.core.clock import FakeClock, SystemClock, start_timer
from scopa.server import Limits, NetworkEngine
from scopa.server.core.limits import RateLimiter

from faultproxy import FaultProxy
from wire_client import WireClient

SAFETY = 30.0  # a safety net only: every wait below ends on an event


async def _until(condition: Callable[[], bool]) -> None:
    """Let the loop run (sockets included) until ``condition`` holds."""
    while not condition():
        await asyncio.sleep(0)


# --------------------------------------------------------------------------- the fake clock


def test_fake_timers_fire_in_deadline_order() -> None:
    clock = FakeClock(start=100.0)
    fired: list[tuple[str, float]] = []

    def note(name: str) -> Callable[[], None]:
        return lambda: fired.append((name, clock.now()))

    clock.call_later(3.0, note("c"))
    clock.call_later(1.0, note("a"))
    clock.call_at(102.0, note("b1"))
    clock.call_later(2.0, note("b2"))  # the same deadline: in the order armed
    clock.call_later(-5.0, note("now"))  # a deadline in the past: due at once
    assert clock.sleeping == 5 and clock.next_deadline == 100.0
    clock.advance(0.0)
    assert fired == [("now", 100.0)]
    clock.advance(2.5)  # the loop was held up 2.5 s: what fell due fires now, in order
    assert fired[1:] == [("a", 102.5), ("b1", 102.5), ("b2", 102.5)]
    assert clock.now() == 102.5 and clock.sleeping == 1 and clock.next_deadline == 103.0
    clock.advance(10.0)
    assert fired[-1] == ("c", 112.5) and clock.sleeping == 0 and clock.next_deadline is None


def test_a_cancelled_fake_timer_never_fires() -> None:
    clock = FakeClock()
    fired: list[str] = []
    kept = clock.call_later(1.0, lambda: fired.append("kept"))
    dropped = start_timer(clock, 1.0, lambda: fired.append("dropped"), name="turn")
    dropped.cancel()
    dropped.cancel()  # twice: still one timer less
    assert clock.sleeping == 1
    clock.advance(5.0)
    kept.cancel()  # after it fired: nothing to do
    assert fired == ["kept"] and clock.sleeping == 0


def test_a_timer_armed_by_a_timer_counts_from_the_advanced_time() -> None:
    clock = FakeClock()
    ticks: list[float] = []

    def tick() -> None:
        ticks.append(clock.now())
        if len(ticks) < 10:
            clock.call_later(1.5, tick)

    clock.call_later(1.5, tick)
    clock.advance(6.0)  # one late tick, not four: the next counts from 6.0
    assert ticks == [6.0] and clock.next_deadline == 7.5
    for _ in range(4):
        clock.advance(1.5)  # stepping: each tick at its own time
    assert ticks == [6.0, 7.5, 9.0, 10.5, 12.0]
    now: list[float] = []
    clock.call_later(1.0, lambda: clock.call_later(0.0, lambda: now.append(clock.now())))
    clock.advance(1.0)  # a timer due at once, armed by a timer, fires in the same advance
    assert now == [13.0]


def test_timers_armed_and_cancelled_by_callbacks_during_an_advance() -> None:
    clock = FakeClock()
    fired: list[int] = []

    def churn(i: int) -> None:
        fired.append(i)
        for _ in range(100):  # enough cancelled timers to make the clock tidy its list
            clock.call_later(1.0, lambda: fired.append(-1)).cancel()
        clock.call_later(0.0, lambda: fired.append(100 + i))

    for i in range(3):
        clock.call_later(1.0, lambda i=i: churn(i))
    clock.advance(1.0)
    assert fired == [0, 1, 2, 100, 101, 102] and clock.sleeping == 0


def test_a_fake_clock_does_not_go_back_and_forgets_cancelled_timers() -> None:
    clock = FakeClock()
    with pytest.raises(ValueError):
        clock.advance(-1.0)
    for _ in range(10_000):  # a turn timer armed and cancelled on every move
        clock.call_later(60.0, lambda: None).cancel()
    assert clock.sleeping == 0 and len(clock._timers) <= 130


async def test_fake_sleep_and_timeout_wake_only_when_the_clock_moves() -> None:
    clock = FakeClock()
    woke: list[float] = []

    async def sleeper() -> None:
        await clock.sleep(2.0)
        woke.append(clock.now())

    task = asyncio.create_task(sleeper())
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def waits_too_long() -> None:
        async with clock.timeout(5.0):
            await never

    deadline = asyncio.create_task(waits_too_long())
    await _until(lambda: clock.sleeping == 2)
    clock.advance(1.9)
    for _ in range(5):
        await asyncio.sleep(0)
    assert woke == [] and not deadline.done()
    clock.advance(0.1)
    await task
    assert woke == [2.0] and not deadline.done()
    clock.advance(2.9)
    for _ in range(5):
        await asyncio.sleep(0)
    assert not deadline.done()
    clock.advance(0.1)
    with pytest.raises(TimeoutError):
        await deadline
    await clock.sleep(0.0)  # due now: no advance needed
    with pytest.raises(TimeoutError):
        async with clock.timeout(-1.0):  # a deadline already passed cuts the body at once
            await asyncio.get_running_loop().create_future()
    cancelled = asyncio.ensure_future(clock.sleep(10.0))
    cancelled.cancel()
    await asyncio.sleep(0)
    assert clock.sleeping == 0  # a cancelled sleep disarms its timer


# --------------------------------------------------------------------------- the system clock


async def test_system_timers_are_loop_callbacks_not_tasks() -> None:
    clock = SystemClock()
    tasks_before = len(asyncio.all_tasks())
    fired: list[int] = []
    done = asyncio.get_running_loop().create_future()
    timers = [start_timer(clock, 0.0, lambda i=i: fired.append(i), name=f"turn-{i}") for i in range(100)]
    timers[7].cancel()
    timers[42].cancel()
    clock.call_later(0.0, lambda: done.set_result(None))
    assert len(asyncio.all_tasks()) == tasks_before  # 101 timers armed, not one task
    await done
    assert fired == [i for i in range(100) if i not in (7, 42)]  # in the order armed; cancelled ones never


def test_the_system_clock_tells_the_time_with_no_loop_running() -> None:
    clock = SystemClock()
    first = clock.now()
    assert clock.now() >= first


async def test_a_system_timer_fires_with_its_deadline_past() -> None:
    clock = SystemClock()
    fired: list[float] = []
    done = asyncio.get_running_loop().create_future()
    deadline = clock.now() + 0.005

    def ring() -> None:
        fired.append(clock.now())
        done.set_result(None)

    clock.call_at(deadline, ring)
    await done
    assert fired[0] >= deadline  # the turn clock's check (deadline <= now) holds when it rings


async def test_system_sleep_and_timeout_run_on_the_loop() -> None:
    clock = SystemClock()
    start = clock.now()
    await clock.sleep(0.0)
    assert clock.now() >= start
    with pytest.raises(TimeoutError):
        async with clock.timeout(0.0):
            await asyncio.get_running_loop().create_future()


# --------------------------------------------------------------------------- the command rate


def test_the_token_bucket_refills_as_its_clock_moves() -> None:
    clock = FakeClock()
    rate = RateLimiter(Limits(commands_per_second=4.0, command_burst=2, max_refused_commands=3,
                              refused_window=1.0), clock)
    assert [rate.allow() for _ in range(3)] == [True, True, False]
    assert [rate.allow() for _ in range(3)] == [False, False, False] and rate.flooding  # 4 refused > 3
    clock.advance(0.25)  # one token back, and 0.75 refusals leaked away
    assert rate.allow() and not rate.allow()
    clock.advance(10.0)
    assert [rate.allow() for _ in range(3)] == [True, True, False] and not rate.flooding


async def test_the_server_charges_commands_on_its_own_clock() -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=3, clock=clock,
                           limits=Limits(commands_per_second=1.0, command_burst=2, max_refused_commands=10))
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            c = await WireClient.connect(engine.port, "tia")  # the hello: token 1 of 2
            c.send(wire.Ping(nonce=1))  # token 2
            assert (await c.recv_until("pong")).body.nonce == 1
            seq = c.send(wire.Ping(nonce=2))
            refused = await c.recv_until("error", "pong")
            assert (refused.re, refused.body.code) == (seq, "rate_limited")
            clock.advance(1.0)  # a second of the server's clock: one token back
            c.send(wire.Ping(nonce=3))
            assert (await c.recv_until("pong", "error")).body.nonce == 3
            await c.close()
    finally:
        await engine.stop()


# --------------------------------------------------------------------------- connection deadlines


async def test_the_server_pings_and_drops_a_silent_client_on_its_clock() -> None:
    clock = FakeClock()
    limits = Limits(hello_timeout=None, ping_interval=5.0, ping_timeout=10.0)
    engine = NetworkEngine("127.0.0.1", 0, seed=3, clock=clock, limits=limits)
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            c = await WireClient.connect(engine.port, "sal")
            await _until(lambda: clock.next_deadline == 5.0)  # the ping deadline, armed after the hello
            clock.advance(4.9)
            clock.advance(0.1)
            assert (await c.recv()).name == "ping"  # not answered: the pong deadline runs
            await _until(lambda: clock.next_deadline == 15.0)
            clock.advance(10.0)
            closing = await c.recv()
            assert closing.name == "error" and closing.body.code == "timeout" and closing.body.fatal
    finally:
        await engine.stop()


async def test_no_hello_within_the_servers_clock_is_fatal() -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=3, clock=clock, limits=Limits(hello_timeout=3.0))
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            c = await WireClient.connect(engine.port)
            await _until(lambda: clock.next_deadline == 3.0)
            clock.advance(3.0)
            err = await c.recv()
            assert err.name == "error" and err.body.code == "not_hello_yet" and err.body.fatal
    finally:
        await engine.stop()


# --------------------------------------------------------------------------- the client's reconnect backoff


def _refusing_port() -> socket.socket:
    """A bound socket that does not listen: connections to its port are refused."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock


async def test_reconnect_backoff_doubles_on_the_clients_clock_then_gets_back() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=3, clock=FakeClock())
    await engine.start()
    clock = FakeClock()
    refusing = _refusing_port()
    try:
        async with FaultProxy(engine.port) as proxy, asyncio.timeout(SAFETY):
            s = await ClientSession.connect("127.0.0.1", proxy.port, "bea", clock=clock)
            s.ping_after = 0  # no liveness watchdog on the new connections: only the backoff waits
            # (the first connection's watchdog stops when the first try begins)
            s.first_backoff, s.max_backoff, s.reconnect_for = 1.0, 3.0, 60.0
            proxy.retarget(refusing.getsockname()[1])  # the server is out of reach
            proxy.reset_all()
            await _until(lambda: s._closed_reason is not None)
            back = asyncio.create_task(s.reconnect())
            tries = [proxy.stats.connections]
            for wait in (1.0, 2.0, 3.0, 3.0):  # doubling, up to max_backoff
                # A try has failed and the backoff sleeps (on the clock, nothing else does).
                await _until(lambda: proxy.stats.connections > tries[-1] and clock.sleeping == 1
                             and clock.next_deadline == clock.now() + wait)
                tries.append(proxy.stats.connections)
                clock.advance(wait - 0.01)
                for _ in range(20):
                    await asyncio.sleep(0)
                assert proxy.stats.connections == tries[-1]  # no try before the backoff is over
                if wait == 3.0 and len(tries) == 5:
                    proxy.retarget(engine.port)  # the server is back for the next try
                clock.advance(0.01)
            await back
            assert tries == [1, 2, 3, 4, 5] and proxy.stats.connections == 6
            assert clock.now() == 1.0 + 2.0 + 3.0 + 3.0 and s.reconnects == 1
            assert await s.list_tables() == []  # the new connection works
            await s.close()
    finally:
        refusing.close()
        await engine.stop()


async def test_reconnecting_gives_up_when_its_clock_says_the_time_is_over() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=3, clock=FakeClock())
    await engine.start()
    clock = FakeClock()
    refusing = _refusing_port()
    events: list[LinkEvent] = []
    try:
        async with FaultProxy(engine.port) as proxy, asyncio.timeout(SAFETY):
            s = await ClientSession.connect("127.0.0.1", proxy.port, "cid", clock=clock, listener=events.append)
            s.ping_after = 0
            s.first_backoff, s.max_backoff, s.reconnect_for = 1.0, 4.0, 5.0
            proxy.retarget(refusing.getsockname()[1])
            proxy.reset_all()
            await _until(lambda: s._closed_reason is not None)
            back = asyncio.create_task(s.reconnect())
            for tries, wait in ((2, 1.0), (3, 2.0)):  # tries at 0, 1 and 3; the next would be at 7 > 5
                # That try has failed and the backoff sleeps (on the clock, nothing else does).
                await _until(lambda: proxy.stats.connections == tries and clock.sleeping == 1
                             and clock.next_deadline == clock.now() + wait)
                clock.advance(wait)
            with pytest.raises(ConnectionLost):
                await back
            assert clock.now() == 3.0 and proxy.stats.connections == 1 + 3
            assert events[-1].status is LinkStatus.GAVE_UP
            await s.close()
    finally:
        refusing.close()
        await engine.stop()


async def test_system_timers_hold_no_copy_of_the_context_they_were_armed_in() -> None:
    """The server's timers (a connection's deadline, a table's turn clock) run in one
    context of their loop, not a copy each of the context that armed them."""
    import contextvars

    armed_in: contextvars.ContextVar[str] = contextvars.ContextVar("armed_in", default="")
    armed_in.set("the arming task")
    clock = SystemClock()
    seen: list[str] = []
    done = asyncio.get_running_loop().create_future()

    def fire() -> None:
        seen.append(armed_in.get())
        if len(seen) == 2:
            done.set_result(None)

    clock.call_later(0.0, fire)
    clock.call_at(clock.now(), fire)
    await asyncio.wait_for(done, SAFETY)
    assert seen == ["", ""]
