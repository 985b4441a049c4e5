"""A thousand idle WebSockets on the web front (``scopa serve --web``), on 127.0.0.1
(port 0), from raw aiohttp clients: each one said hello and then only answers the
server's pings, as a browser left open in a pocket does.

What server/web/front.py and PROTOCOL.md §1 promise then: every address stays within
``WebLimits.per_address`` open connections (one more from a full address is answered
503 and closed, before any protocol), the others still get in, and a new browser is
still served its page and plays over its own WebSocket.  The server's cap on
connections (``Limits.max_connections``, less the TCP port's reserve for WebSockets) is
set here above a thousand; tests/server/web/test_web_front.py shows that cap and the reserve."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
import msgpack
import pytest

from scopa.client.webfiles import web_files, web_root
from scopa.server import Limits, NetworkEngine
from scopa.server.web.front import WebFront, WebLimits

from ws_client import WsClient

pytestmark = pytest.mark.integration

IDLE = 1000
PER_ADDRESS: int = WebLimits().per_address or 0
assert PER_ADDRESS > 0
FULL = IDLE // PER_ADDRESS  # addresses holding PER_ADDRESS connections each: 31
ADDRESSES = [f"127.0.1.{i + 1}" for i in range(FULL + 1)]  # and one holding the rest: 8
SAFETY = 120.0  # a safety net only: every wait ends on an answer


def frame(seq: int, sender: str, name: str, body: dict[str, object], recipient: str = "lobby",
          re: int | None = None) -> bytes:
    packed: bytes = msgpack.packb({"v": 2, "seq": seq, "sender": sender, "recipient": recipient, "re": re,
                                   "name": name, "body": body})
    return packed


@dataclass
class Idle:
    """The idle connections of one source address (one aiohttp session)."""

    address: str
    http: aiohttp.ClientSession
    sockets: list[aiohttp.ClientWebSocketResponse] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    closed_early: int = 0


async def answer_pings(ws: aiohttp.ClientWebSocketResponse, me: str, idle: Idle) -> None:
    seq = 1
    async for message in ws:
        if message.type is not aiohttp.WSMsgType.BINARY:
            break
        command = msgpack.unpackb(message.data)
        if command["name"] == "ping":
            seq += 1
            await ws.send_bytes(frame(seq, me, "pong", {"nonce": command["body"].get("nonce", 0)},
                                      command["sender"], command["seq"]))
    idle.closed_early += 1  # the server closed it: it should not, while the test runs


async def open_idle(port: int, idle: Idle, name: str) -> None:
    ws = await idle.http.ws_connect(f"http://127.0.0.1:{port}/ws", headers={"Origin": f"http://127.0.0.1:{port}"})
    await ws.send_bytes(frame(1, "guest", "hello", {"name": name, "client": "idle"}))
    welcome = msgpack.unpackb((await ws.receive()).data)
    assert welcome["name"] == "welcome", welcome
    idle.sockets.append(ws)
    idle.tasks.append(asyncio.create_task(answer_pings(ws, welcome["body"]["you"], idle)))


@pytest.fixture
async def front() -> AsyncIterator[WebFront]:
    engine = NetworkEngine(host="127.0.0.1", port=0, limits=Limits(max_connections=IDLE + 100))
    await engine.start()
    web = WebFront(engine, web_root(), extra=web_files())
    await web.start("127.0.0.1", 0)
    try:
        yield web
    finally:
        await engine.stop()
        await web.stop()


async def test_a_thousand_idle_websockets_within_the_caps(front: WebFront) -> None:
    port = front.port
    groups = [Idle(a, aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(a, 0), limit=0)))
              for a in ADDRESSES]
    try:
        async with asyncio.timeout(SAFETY):
            for n in range(IDLE):  # address by address, up to each one's cap
                group = groups[n // PER_ADDRESS]
                await open_idle(port, group, f"idle{n}")
            assert sum(len(g.sockets) for g in groups) == IDLE
            assert front.sessions == IDLE
            assert max(front.per_address.values()) == PER_ADDRESS

            # one more from a full address: refused at once with 503, the others stay
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await groups[0].http.ws_connect(f"http://127.0.0.1:{port}/ws",
                                                headers={"Origin": f"http://127.0.0.1:{port}"})
            assert refused.value.status == 503
            async with groups[0].http.get(f"http://127.0.0.1:{port}/") as page:  # its page too
                assert page.status == 503
            assert front.per_address[ADDRESSES[0]] == PER_ADDRESS

            # the last address has room: one more from it gets in
            await open_idle(port, groups[-1], "one-more")

            # a new browser elsewhere gets its page and plays over its own WebSocket
            async with aiohttp.ClientSession() as browser:
                for name in ("", "app.js", "app.css", "rules.en.md", "rules.it.md"):
                    async with browser.get(f"http://127.0.0.1:{port}/{name}") as got:
                        assert got.status == 200 and await got.read()
            newcomer = await WsClient.open(port, "newcomer")
            try:
                assert newcomer.party == "player:newcomer"
                await newcomer.create(["random"])
                await newcomer.recv_until("your_turn", "played")
            finally:
                await newcomer.close()

            assert front.sessions == IDLE + 1  # every idle one is still there
            assert sum(g.closed_early for g in groups) == 0
            assert all(count <= PER_ADDRESS for count in front.per_address.values())
    finally:
        for g in groups:
            for ws in g.sockets:
                await ws.close()
            await asyncio.gather(*g.tasks, return_exceptions=True)
            await g.http.close()
