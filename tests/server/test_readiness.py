"""The operator's endpoints of a server (server/endpoints.py): ``/healthz`` answers
while the process does; ``/readyz`` is 200 while the server accepts players and 503, with
the reason, while it starts, drains (the operator's ``stop``: before anything closes), cannot
store to its journal or, in a cluster, cannot reach Redis, and 200 again once the journal
or Redis is back; ``/metrics`` says the same in ``scopa_ready`` and the journal's
``scopa_journal_up``."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from faultproxy import FaultProxy
from pg import pg_url  # noqa: F401 - the fixture
from redis_server import SERVER, redis_prefix  # noqa: F401 - the fixture
from scopa.cli.admin import admin_request
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.cluster import ClusterOptions
from scopa.server.journal.commands import Request
from scopa.server.journal.values import JournalUnavailable
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.endpoints import MetricsPort, Probes
from wire_client import WireClient
from ws_client import WsClient

pytestmark = pytest.mark.integration

DEADLINE = 10.0  # a safety net: every wait normally ends long before


class Outage(MemoryStorage):
    """A journal that cannot store anything while ``down`` says why."""

    def __init__(self) -> None:
        super().__init__()
        self.down: str | None = None

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        if self.down is not None:
            return [JournalUnavailable(self.down) for _ in requests]
        return super().run_batch(requests)


@asynccontextmanager
async def probed(engine: NetworkEngine) -> AsyncIterator[tuple[Probes, aiohttp.ClientSession]]:
    """``engine`` started with its endpoints on a port of their own, as ``serve`` does."""
    await engine.start()
    probes = Probes(engine)
    port = MetricsPort(probes)
    await port.start("127.0.0.1", 0)
    probes.started = True
    try:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port.port}") as http:
            yield probes, http
    finally:
        await engine.stop()
        await port.stop()


async def get(http: aiohttp.ClientSession, path: str) -> tuple[int, str]:
    async with http.get(path) as response:
        return response.status, await response.text()


async def figure(http: aiohttp.ClientSession, name: str) -> float:
    """One unlabelled figure of ``/metrics``."""
    _, text = await get(http, "/metrics")
    [value] = [line.split()[1] for line in text.splitlines() if line.split(" ")[0] == name]
    return float(value)


async def _answering_pings_until(client: WireClient, name: str) -> Command:
    """The client's next ``name``, its pings answered meanwhile (the fake clock runs on)."""
    while (cmd := await client.recv()).name != name:
        if isinstance(cmd.body, wire.Ping):
            client.send(wire.Pong(nonce=cmd.body.nonce), re=cmd.seq)
    return cmd


async def until(check: Callable[[], Any], what: str, clock: FakeClock | None = None) -> None:
    """Wait until ``check()`` (awaited) holds; with ``clock``, moved on a second between looks."""
    try:
        async with asyncio.timeout(DEADLINE):
            while not await check():
                if clock is not None:
                    clock.advance(1.0)
                await asyncio.sleep(0.01)
    except TimeoutError:
        pytest.fail(f"waited {DEADLINE} s in vain: {what}")


async def test_readyz_is_not_ready_while_the_journal_cannot_store_and_ready_once_it_can() -> None:
    storage, clock = Outage(), FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=3, storage=storage, clock=clock)
    async with probed(engine) as (_, http):
        assert await get(http, "/healthz") == (200, "ok\n")
        assert await get(http, "/readyz") == (200, "ready\n")
        assert await figure(http, "scopa_ready") == 1.0 and await figure(http, "scopa_journal_up") == 1.0

        storage.down = "the database cannot be reached (test)"
        client = await WireClient.connect(engine.port, "ada")
        client.send(wire.CreateTable(fill_with_bots=["random"]))  # its journal write waits
        await until(lambda: _status(http, 503), "the server turns not ready")
        status, text = await get(http, "/readyz")
        assert "journal unavailable: the database cannot be reached (test)" in text
        assert await get(http, "/healthz") == (200, "ok\n")  # the process answers all the same
        assert await figure(http, "scopa_ready") == 0.0 and await figure(http, "scopa_journal_up") == 0.0

        storage.down = None
        await until(lambda: _status(http, 200), "the server is ready once the journal stores again", clock)
        assert (await client.recv_until("table_created")).name == "table_created"
        assert await figure(http, "scopa_journal_up") == 1.0
        await client.close()


async def _status(http: aiohttp.ClientSession, wanted: int) -> bool:
    return (await get(http, "/readyz"))[0] == wanted


async def test_readyz_turns_not_ready_when_the_operator_stops_the_server_before_it_closes(tmp_path: Path) -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=4, admin_token_file=str(tmp_path / "admin-{port}.token"))
    async with probed(engine) as (probes, http):
        client = await WireClient.connect(engine.port, "ada")
        await client.create(bots=["random"], sit=False)
        assert await get(http, "/readyz") == (200, "ready\n")
        token = (tmp_path / f"admin-{engine.port}.token").read_text().strip()
        reply = await admin_request("127.0.0.1", engine.port, token, wire.AdminOp.STOP)
        assert isinstance(reply, wire.AdminReply)
        # asked to stop (scopa admin stop or drain, SIGTERM): not ready while everything still runs
        assert await get(http, "/readyz") == (503, "draining\n")
        late = await WireClient.connect(engine.port)
        assert (await late.hello("bob")).name == "welcome"  # the game port still answers
        assert await figure(http, "scopa_ready") == 0.0
        await engine.stop()
        assert await get(http, "/readyz") == (503, "draining\n")  # and says so until its own port closes
        assert await get(http, "/healthz") == (200, "ok\n")
        await client.close()
        await late.close()


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_readyz_of_a_cluster_member_is_not_ready_while_redis_is_out_of_reach(redis_prefix: str) -> None:
    redis_port = int(SERVER.rsplit(":", 1)[1].split("/")[0])
    clock = FakeClock()
    async with FaultProxy(redis_port) as proxy:
        options = ClusterOptions(url=f"redis://127.0.0.1:{proxy.port}/0", prefix=redis_prefix, member_ttl=30.0,
                                 refresh=1.0, retry=1.0, timeout=2.0)
        async with probed(NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, cluster=options)) as (_, http):
            assert await get(http, "/readyz") == (200, "ready\n")
            assert await figure(http, "scopa_cluster_redis_up") == 1.0
            assert await figure(http, "scopa_cluster_members") == 1.0

            proxy.retarget(_dead_port())
            proxy.reset_all()
            await until(lambda: _status(http, 503), "the member turns not ready", clock)
            assert await get(http, "/readyz") == (503, "redis unreachable\n")
            assert await figure(http, "scopa_cluster_redis_up") == 0.0

            proxy.retarget(redis_port)
            await until(lambda: _status(http, 200), "the member is ready once Redis is back", clock)


async def test_metrics_web_serves_the_endpoints_on_the_web_port_once_the_server_runs() -> None:
    from scopa.server import serve
    from scopa.server.web.front import WebOptions

    listening: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(serve("127.0.0.1", 0, web=WebOptions(port=0, listening=listening.set_result),
                                       metrics="web"))
    try:
        port = await asyncio.wait_for(asyncio.shield(listening), DEADLINE)
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            await until(lambda: _status(http, 200), "the server is ready once it runs")
            assert await get(http, "/healthz") == (200, "ok\n")
            status, text = await get(http, "/metrics")
            assert status == 200 and "scopa_moves_total" in text
            browser = await WsClient.open(port, "ada")  # a browser's WebSocket on the same port
            _, text = await get(http, "/metrics")
            assert 'scopa_connections{kind="websocket"} 1.0' in text and 'scopa_connections{kind="tcp"} 0.0' in text
            assert 'scopa_connections{kind="relayed"} 0.0' in text and 'scopa_sessions{state="lobby"} 1.0' in text
            await browser.close()
    finally:
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


async def test_readyz_of_a_server_whose_postgresql_goes_away_and_comes_back(pg_url: str) -> None:
    pg_port = int(pg_url.split("@", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    clock = FakeClock()
    async with FaultProxy(pg_port) as proxy:
        proxied = pg_url.replace(f":{pg_port}/", f":{proxy.port}/", 1)
        engine = NetworkEngine("127.0.0.1", 0, seed=6, db=proxied, clock=clock)
        async with probed(engine) as (_, http):
            assert await get(http, "/readyz") == (200, "ready\n")
            client = await WireClient.connect(engine.port, "ada")

            proxy.retarget(_dead_port())
            proxy.reset_all()  # the database's connections cut, and no new one reaches it
            client.send(wire.CreateTable(fill_with_bots=["random"]))  # its table is made once it is journaled
            created = asyncio.create_task(_answering_pings_until(client, "table_created"))
            await until(lambda: _status(http, 503), "the server turns not ready")
            assert (await get(http, "/readyz"))[1].startswith("journal unavailable: ")

            proxy.retarget(pg_port)
            await until(lambda: _status(http, 200), "the server is ready once its database is back", clock)
            assert (await created).name == "table_created"
            await client.close()
