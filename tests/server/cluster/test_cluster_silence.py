"""A client of a cluster's member notices a silent member soon (docs/PROTOCOL.md §7,
"Liveness", "In a cluster"): seated at a table, it pings after 1 s of silence and gives
the link up 3 s later, about when the member's tables have moved (their leases live
3 s); then it goes to another of the cluster's addresses its welcome named.  Time is
the fake clock's."""

from __future__ import annotations

import asyncio

import pytest

from faultproxy import FaultProxy
from redis_server import SERVER, redis_prefix  # noqa: F401 - the fixture
from scopa.client.net import HURRIED_DEAD_AFTER, HURRIED_PING_AFTER, LinkEvent, LinkStatus, ClientSession
from scopa.protocol.servers import ServerAddress
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.cluster import ClusterOptions
from test_link_phases import silent_at_third_turn

pytestmark = pytest.mark.integration

SAFETY = 30.0  # seconds: a safety net only


async def _until(check: object) -> None:
    while not (check() if callable(check) else check):
        await asyncio.sleep(0.001)


async def test_a_seat_at_a_silent_member_gives_it_up_after_4_s_and_resumes_at_another_address(
        redis_prefix: str) -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=12, limits=Limits(ping_interval=None),
                           cluster=ClusterOptions(url=SERVER, prefix=redis_prefix))
    await engine.start()
    clock = FakeClock()
    events: list[LinkEvent] = []
    try:
        async with FaultProxy(engine.port) as proxy, asyncio.timeout(SAFETY):
            # the client reaches the member through the proxy; the welcome names the member's own address
            s = await ClientSession.connect("127.0.0.1", proxy.port, "quiet", clock=clock)
            assert s.addresses.learned == [ServerAddress("127.0.0.1", engine.port)]
            s.first_backoff = 0.01
            s.add_listener(events.append)
            while True:  # the member's first block of table ids may not be there yet
                try:
                    await s.create_table(fill_with_bots=["greedy"])
                    break
                except Exception as exc:  # noqa: BLE001 - unavailable: asked again
                    assert "unavailable" in str(exc), exc
                    await asyncio.sleep(0.05)
            silenced = asyncio.Event()
            game = asyncio.create_task(s.play_game(silent_at_third_turn(proxy, silenced)))
            await silenced.wait()
            await _until(lambda: clock.sleeping > 0)
            clock.advance(HURRIED_PING_AFTER)  # 1 s of silence at a table in a cluster: a ping goes
            await _until(lambda: proxy.stats.held > 0)
            assert not events
            clock.advance(HURRIED_DEAD_AFTER)  # 3 s more without an answer: the link is dead
            result = await game
            assert result.reason == "target"
            assert [e.status for e in events] == [LinkStatus.LOST, LinkStatus.RECONNECTED]
            assert "no answer from the server for 4 s" in events[0].reason
            assert (s.host, s.port) == ("127.0.0.1", engine.port)  # the silent address was left for the other
            t = engine.tables[result.table]
            assert t.master is not None and list(result.totals) == t.master.state.totals
            await s.close()
    finally:
        await engine.stop()
