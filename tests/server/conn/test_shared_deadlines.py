"""Every connection's deadline waits on one timer of the event loop (server/conn/deadlines.py):
a timer of the loop each cost a connection about 110 bytes on asyncio's loop and 400 on
uvloop's.  Each deadline still comes at its own time: clients connected at different
moments are pinged at theirs, and one that spoke meanwhile is pinged after its silence."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 30.0  # a safety net only: every wait below ends on an event


async def _until(condition: Callable[[], bool]) -> None:
    """Let the loop run (sockets included) until ``condition`` holds."""
    while not condition():
        await asyncio.sleep(0)


async def test_the_deadlines_of_more_connections_arm_no_more_timers_of_the_event_loop() -> None:
    loop = asyncio.get_running_loop()

    def loop_timers() -> int:
        return sum(not handle.cancelled() for handle in loop._scheduled)  # type: ignore[attr-defined]

    engine = NetworkEngine("127.0.0.1", 0, seed=3)  # the loop's own clock
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            ada = await WireClient.connect(engine.port, "ada")  # its hello deadline, then its ping's
            before = loop_timers()
            others = [await WireClient.connect(engine.port, name) for name in ("bea", "cyd", "dan")]
            assert loop_timers() == before  # three deadlines more (later than ada's), no timer more
            for client in (ada, *others):
                await client.close()
    finally:
        await engine.stop()


async def test_three_clients_are_each_pinged_after_their_own_silence() -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=3, clock=clock,
                           limits=Limits(hello_timeout=None, ping_interval=5.0, ping_timeout=10.0))
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            ada = await WireClient.connect(engine.port, "ada")  # welcomed at 0: pinged at 5
            clock.advance(2.0)
            bea = await WireClient.connect(engine.port, "bea")  # welcomed at 2: due at 7
            cyd = await WireClient.connect(engine.port, "cyd")
            assert clock.next_deadline == 5.0

            clock.advance(3.0)  # 5: ada's silence is up, not the others'
            assert (await ada.recv()).name == "ping"
            bea.send(wire.ListTables())  # bea speaks at 5: its ping moves to 10
            assert (await bea.recv()).name == "tables"  # no ping came before the answer
            await _until(lambda: clock.next_deadline == 7.0)

            clock.advance(2.0)  # 7: cyd's silence is up; bea's deadline comes again at 10
            assert (await cyd.recv()).name == "ping"
            await _until(lambda: clock.next_deadline == 10.0)
            clock.advance(3.0)
            assert (await bea.recv()).name == "ping"
            for client in (ada, bea, cyd):
                await client.close()
    finally:
        await engine.stop()
