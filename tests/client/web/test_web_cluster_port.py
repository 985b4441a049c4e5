"""A cluster's members sharing one web port (``scopa cluster --web-port``,
``scopa serve --cluster-web-port``): every member serves the page, a WebSocket is a
connection of whichever member it lands on, and a ``redirect``'s ticket sent by one
member's web front is relayed by any other's, since the cluster keeps the address
beside the ticket (``P:pass:T``).  No browser: the page is fetched and the WebSocket
spoken as the page's script does (tests/ws_client.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from pg import pg_url  # noqa: F401 - the fixture
from procs import ROOT, SCOPA
from redis_server import SERVER, redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.client.webfiles import web_files, web_root
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine, serving, web
from scopa.server.web import WebFront
from ports import free_port
from test_cluster_failover import _count, members_of
from test_cluster_lobby import members, options, until
from ws_client import WsClient

DEADLINE = 30.0


@asynccontextmanager
async def fronts(engines: list[NetworkEngine], port: int = 0,
                 reuse_port: bool = False) -> AsyncIterator[list[WebFront]]:
    """A web front for each member, with the cluster's passes."""
    started: list[WebFront] = []
    try:
        for engine in engines:
            assert engine.cluster is not None
            front = WebFront(engine, web_root(), extra=web_files(), passes=engine.cluster.web_passes)
            await front.start("127.0.0.1", port, reuse_port=reuse_port)
            started.append(front)
        yield started
    finally:
        for front in started:
            await front.stop()


async def ticketed(port: int, redirect: wire.Redirect, name: str) -> WsClient:
    """The page's WebSocket after a ``redirect``: ``/ws?ticket=T``, ``hello`` with the ticket."""
    http = aiohttp.ClientSession()
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws?ticket={redirect.ticket}",
                               headers={"Origin": f"http://127.0.0.1:{port}"})
    client = WsClient(http, ws)
    client.send(wire.Hello(name=name, ticket=redirect.ticket))
    assert (await client.recv()).name == "welcome"
    return client


async def welcomed(port: int, name: str) -> WsClient:
    """A page's WebSocket, welcomed (``unavailable`` until its member has joined the cluster)."""
    async with asyncio.timeout(DEADLINE):
        while True:
            page = await WsClient.open(port)
            if (await page.hello(name)).name == "welcome":
                return page
            await page.close()
            await asyncio.sleep(0.05)


async def joined_through(port: int, name: str, table: str) -> wire.Joined:
    """``name``'s page at ``port`` joins ``table``: there, or sent on (``redirect``) and
    carried to the table's member by the front its next WebSocket lands on."""
    page = await welcomed(port, name)
    page.send(wire.JoinTable(table=table))
    answer = (await page.recv_until("joined", "redirect", "error")).body
    if isinstance(answer, wire.Redirect):
        await page.close()
        page = await ticketed(port, answer, name)
        page.send(wire.JoinTable(table=table))
        answer = (await page.recv_until("joined", "error")).body
    await page.close()
    assert isinstance(answer, wire.Joined), answer
    return answer


@pytest.mark.integration
async def test_a_ticket_one_members_front_sent_is_relayed_by_anothers(redis_prefix: str) -> None:  # noqa: F811
    async with members(redis_prefix, 2) as (a, b), fronts([a, b]) as (front_a, front_b):
        bob = await WsClient.open(front_b.port, "bob")
        table = await bob.create()
        assert b.cluster is not None
        page = await WsClient.open(front_a.port, "ada")  # A's page, A's WebSocket
        async with asyncio.timeout(DEADLINE):
            while True:  # until A's lobby lists B's table
                page.send(wire.JoinTable(table=table))
                redirect = (await page.recv_until("redirect", "error")).body
                if isinstance(redirect, wire.Redirect):
                    break
                b.clock.advance(1.0)  # type: ignore[attr-defined]
                await asyncio.sleep(0.01)
        assert redirect.address == f"127.0.0.1:{b.port}"
        await page.close()
        # the next WebSocket lands on B's front, which did not send the ticket
        ada = await ticketed(front_b.port, redirect, "ada")
        ada.send(wire.JoinTable(table=table))
        joined = (await ada.recv_until("joined", "error")).body
        assert isinstance(joined, wire.Joined) and joined.table == table
        assert list(b.tables[table].info().seats) == ["bob", "ada"]
        # a ticket is relayed once, by whichever front
        async with aiohttp.ClientSession() as http:
            for port in (front_a.port, front_b.port):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(f"http://127.0.0.1:{port}/ws?ticket={redirect.ticket}")
                assert refused.value.status == 403
        await ada.close()
        await bob.close()


@pytest.mark.integration
async def test_the_members_fronts_share_one_port(redis_prefix: str) -> None:  # noqa: F811
    async with members(redis_prefix, 2) as (a, b), fronts([a]) as [first]:
        with pytest.raises(OSError):
            async with fronts([b], first.port):  # without SO_REUSEPORT the port is taken
                pass
    async with members(redis_prefix, 2) as (a, b), fronts([a], reuse_port=True) as [first], \
            fronts([b], first.port, reuse_port=True) as [second]:
        assert second.port == first.port
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{first.port}/") as page:
                assert page.status == 200 and "<html" in (await page.text()).lower()


@pytest.mark.integration
async def test_a_member_joins_its_cluster_only_once_its_web_page_listens(
        redis_prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Whoever sees a member listed (the other members, a client sent there, an operator)
    can open its web page: the member joins after its front listens, not before."""
    redis = await redis_client()
    real_start_front = web.start_front
    front_asked = asyncio.Event()
    let_it_listen = asyncio.Event()
    listed_when_asked: list[int] = []

    async def held_front(*args: Any) -> WebFront:
        listed_when_asked.append(await members_of(redis, redis_prefix))
        front_asked.set()
        await let_it_listen.wait()
        return await real_start_front(*args)

    monkeypatch.setattr(web, "start_front", held_front)
    ports: list[int] = []
    engines: list[NetworkEngine] = []
    server = asyncio.create_task(serving.serve(
        "127.0.0.1", 0, web=web.WebOptions(port=0, root=web_root(), extra=web_files(), listening=ports.append),
        cluster=options(redis_prefix), announce=engines.append))
    try:
        async with asyncio.timeout(DEADLINE):
            await front_asked.wait()
        assert listed_when_asked == [0]  # listening on its game port, but not listed yet
        let_it_listen.set()
        await until(lambda: _count(redis, redis_prefix, 1), "the member listed once its web page listens")
        assert len(ports) == 1
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{ports[0]}/") as page:
                assert page.status == 200 and "<html" in (await page.text()).lower()
        engines[0].stopped.set()
        async with asyncio.timeout(DEADLINE):
            await server
        assert await members_of(redis, redis_prefix) == 0  # and it left
    finally:
        if not server.done():
            server.cancel()
            await asyncio.gather(server, return_exceptions=True)
        await redis.aclose()


@pytest.mark.process
async def test_scopa_cluster_serves_the_web_client_on_one_port_whichever_member_answers(
        redis_prefix: str, pg_url: str) -> None:  # noqa: F811
    redis = await redis_client()
    port, web = free_port(), free_port()
    cluster = subprocess.Popen(
        [*SCOPA, "cluster", "--processes", "2", "--cluster", SERVER, "--db", pg_url, "--port", str(port),
         "--cluster-prefix", redis_prefix, "--web-port", str(web)],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))
    try:
        async with asyncio.timeout(DEADLINE):
            while await members_of(redis, redis_prefix) < 2:
                await asyncio.sleep(0.05)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{web}/") as page:
                assert page.status == 200 and "<html" in (await page.text()).lower()
        # pages' WebSockets land on both members: the tables they make say where they play
        where: dict[str, str] = {}
        makers = []
        for i in range(16):
            maker = await welcomed(web, f"maker{i}")
            maker.send(wire.CreateTable())
            created = (await maker.recv_until("table_created")).body.table
            where[created.id] = created.member or ""
            makers.append(maker)
        assert len(set(where.values())) == 2
        # pages join four tables of each member: each WebSocket, the first and the
        # ticketed one, lands on either member; every join reaches its table
        for member in set(where.values()):
            for i, table in enumerate([t for t, m in where.items() if m == member][:4]):
                joined = await joined_through(web, f"ann{i}-{table}", table)
                assert joined.table == table
        for maker in makers:
            await maker.close()
        cluster.send_signal(signal.SIGTERM)
        out, _ = cluster.communicate(timeout=DEADLINE)
        assert cluster.returncode == 0, out
        assert f"(web page on port {web})" in out
    finally:
        if cluster.poll() is None:
            cluster.kill()
            cluster.wait()
        await redis.aclose()
