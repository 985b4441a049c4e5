"""The client's liveness watchdog on a fake clock (docs/PROTOCOL.md §7, "Liveness"):
no ping while the server keeps talking, a ping after a quiet interval, a dead link
declared only when that ping goes unanswered."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.net import HURRIED_DEAD_AFTER, HURRIED_PING_AFTER, Watchdog
from scopa.server.core.clock import FakeClock


async def _settle(clock: FakeClock) -> None:
    """Let the watchdog run until it waits on the clock again."""
    for _ in range(100):
        await asyncio.sleep(0)
        if clock.sleeping:
            return
    raise AssertionError("the watchdog does not wait on the clock")


async def _watch(clock: FakeClock) -> tuple[Watchdog, list[str], asyncio.Task[None]]:
    dead: list[str] = []
    dog = Watchdog(clock, ping_after=5.0, dead_after=10.0, send_ping=lambda: None, dead=dead.append)
    task = asyncio.create_task(dog.run())
    await _settle(clock)
    return dog, dead, task


async def test_a_busy_link_is_never_pinged() -> None:
    clock = FakeClock()
    dog, dead, task = await _watch(clock)
    for _ in range(50):  # something arrives every 4 s: never 5 s of quiet
        clock.advance(4.0)
        dog.heard()
        await _settle(clock)
    assert dog.pings == 0 and not dead
    task.cancel()


async def test_a_quiet_link_is_pinged_and_an_answer_keeps_it() -> None:
    clock = FakeClock()
    dog, dead, task = await _watch(clock)
    clock.advance(5.0)
    await _settle(clock)
    assert dog.pings == 1
    clock.advance(9.0)
    dog.heard()  # the pong, just in time
    clock.advance(1.0)
    await _settle(clock)
    assert not dead and not task.done()
    task.cancel()


async def test_an_unanswered_ping_is_a_dead_link_within_15_seconds() -> None:
    clock = FakeClock()
    dog, dead, task = await _watch(clock)
    clock.advance(5.0)
    await _settle(clock)
    clock.advance(9.9)
    await _settle(clock)
    assert not dead  # not yet
    clock.advance(0.1)
    await task
    assert dog.pings == 1 and dead and "15 s" in dead[0]


def test_bad_intervals_are_refused() -> None:
    with pytest.raises(ValueError):
        Watchdog(FakeClock(), 0.0, 10.0, send_ping=lambda: None, dead=lambda reason: None)


async def test_a_hurried_watchdog_pings_after_1_s_and_gives_up_3_s_later() -> None:
    """While ``hurry`` says so (a seat in a cluster), silence is noticed within 4 s; a
    change of mind is seen within a second, even in the middle of a long quiet wait."""
    clock = FakeClock()
    dead: list[str] = []
    hurried = False
    dog = Watchdog(clock, ping_after=5.0, dead_after=10.0, send_ping=lambda: None, dead=dead.append,
                   hurry=lambda: hurried)
    task = asyncio.create_task(dog.run())
    await _settle(clock)
    assert dog.intervals() == (5.0, 10.0)
    clock.advance(2.0)
    dog.heard()
    await _settle(clock)
    hurried = True  # seated now, in a cluster
    assert dog.intervals() == (HURRIED_PING_AFTER, HURRIED_DEAD_AFTER) == (1.0, 3.0)
    clock.advance(1.0)
    await _settle(clock)
    assert dog.pings == 1 and not dead
    clock.advance(2.9)
    await _settle(clock)
    assert not dead
    clock.advance(0.1)
    await task
    assert dead == ["no answer from the server for 4 s"]
