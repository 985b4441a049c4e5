"""The web front (server/web/front.py): the client's files over HTTP and the protocol over a
WebSocket in the server's own process, with real sockets on 127.0.0.1 (port 0).

A WebSocket is an ordinary connection of the server: a whole game, resuming a seat and
the per-address cap work as on TCP.  The front itself refuses other sites (Host,
Origin: DNS rebinding), caps connections per address (another address is still served),
closes idle connections, and refuses what a browser never sends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import aiohttp
import pytest

from scopa.bots import make_bot
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.web.front import WebFront, WebLimits, allowed_host, same_origin

from ws_client import WsClient

NAMES = frozenset({"localhost", "scopa-host"})
SAFETY = 20.0  # a safety net only: every wait ends on an event


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><title>Scopa</title><script src=app.js></script>")
    (tmp_path / "app.js").write_text("console.log('scopa');\n" * 50)
    return tmp_path


async def web_front(root: Path, limits: Limits | None = None, web: WebLimits = WebLimits(),
                    trusted_proxies: tuple[str, ...] = ()) -> tuple[NetworkEngine, WebFront]:
    """A server and its web front (serving ``root``), both started on port 0."""
    engine = NetworkEngine(host="127.0.0.1", port=0, limits=limits, trusted_proxies=trusted_proxies)
    await engine.start()
    front = WebFront(engine, root, web, NAMES)
    await front.start("127.0.0.1", 0)
    return engine, front


@pytest.fixture
async def front(root: Path) -> AsyncIterator[WebFront]:
    engine, web = await web_front(root)
    try:
        yield web
    finally:
        await engine.stop()
        await web.stop()


async def test_a_whole_game_over_a_websocket(front: WebFront) -> None:
    """R1: a game against a server bot, played to its end over one WebSocket."""
    client = await WsClient.open(front.port, "ada")
    try:
        assert client.party == "player:ada"
        await client.create(["random"])
        events = await client.play_game(make_bot("greedy", "ada", seed=3))
        assert isinstance(events[-1].body, wire.GameEnd)
        assert events[-1].body.reason != "abandoned"
    finally:
        await client.close()


async def test_a_websocket_resumes_its_seat(front: WebFront) -> None:
    """A dropped browser comes back to its seat with its token (PROTOCOL.md §7)."""
    first = await WsClient.open(front.port, "bea")
    await first.create(["random"])
    await first.recv_until("your_turn", "played")
    token, last = first.token, first.last_event
    assert token is not None
    await first.close()
    second = await WsClient.open(front.port)
    try:
        welcome = await second.resume(token, last)
        assert welcome.name == "welcome" and welcome.body.you == "player:bea"
        resumed = await second.recv_until("resumed", "snapshot", "your_turn")
        assert resumed.name in ("resumed", "snapshot", "your_turn")
    finally:
        await second.close()


async def test_the_servers_per_address_cap_counts_websockets(root: Path) -> None:
    engine, front = await web_front(root, Limits(max_connections_per_address=2))
    clients = [await WsClient.open(front.port, f"p{i}") for i in range(2)]
    extra = await WsClient.open(front.port)
    try:
        refused = await extra.recv()
        assert refused.name == "error" and refused.body.code == "rate_limited" and refused.body.fatal
    finally:
        for c in [*clients, extra]:
            await c.close()
        await engine.stop()
        await front.stop()


async def test_the_page_and_its_files(front: WebFront) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{front.port}/") as page:
            assert page.status == 200
            assert "Scopa" in await page.text()
            assert "default-src 'self'" in page.headers["Content-Security-Policy"]
        async with http.get(f"http://127.0.0.1:{front.port}/app.js", headers={"Accept-Encoding": "gzip"}) as js:
            assert js.headers["Content-Encoding"] == "gzip"
            assert (await js.text()).startswith("console.log")
        async with http.get(f"http://127.0.0.1:{front.port}/..%2fetc%2fpasswd") as bad:
            assert bad.status == 404


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", ""])
async def test_another_sites_name_is_refused(front: WebFront, host: str) -> None:
    """DNS rebinding: a name that is not this machine's gets 403, page and WebSocket."""
    async with aiohttp.ClientSession() as http:
        for path in ("/", "/ws"):
            async with http.get(f"http://127.0.0.1:{front.port}{path}", headers={"Host": host}) as r:
                assert r.status == 403


async def test_a_websocket_from_another_origin_is_refused(front: WebFront) -> None:
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"http://127.0.0.1:{front.port}/ws", headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403


async def test_a_websocket_is_not_compressed_even_when_the_browser_offers_it(front: WebFront) -> None:
    # Every browser offers permessage-deflate; deflating each small command would cost the
    # server more CPU per move than the whole TCP path does (benchmarks/server_load.py --web).
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{front.port}/ws", compress=15)
        assert ws.compress == 0
        await ws.close()


def test_host_and_origin_rules() -> None:
    assert allowed_host("192.168.1.10:8000", NAMES) and allowed_host("[::1]:8000", NAMES)
    assert allowed_host("LOCALHOST:8000", NAMES) and allowed_host("scopa-host", NAMES)
    assert not allowed_host("scopa-host.evil.example", NAMES) and not allowed_host(None, NAMES)
    assert same_origin("http://10.0.0.2:8000", "10.0.0.2:8000") and same_origin(None, "x")
    assert not same_origin("http://10.0.0.2:8001", "10.0.0.2:8000")
    assert not same_origin("null", "10.0.0.2:8000")


async def status_line(port: int, source: str) -> bytes:
    """The status line of GET / from ``source`` (an address of the loopback network)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    line = await asyncio.wait_for(reader.readline(), SAFETY)
    writer.close()
    return line


async def stop_holding(engine: NetworkEngine, front: WebFront,
                       held: Sequence[tuple[asyncio.StreamReader, asyncio.StreamWriter]]) -> None:
    """Close the ``held`` connections, then stop the front and its server."""
    for _, writer in held:
        writer.close()
    await engine.stop()
    await front.stop()


async def test_connections_are_capped_per_address_not_overall(root: Path) -> None:
    """One address that opens many connections is refused beyond its cap (503); a
    browser at another address is still served."""
    engine, front = await web_front(root, web=WebLimits(per_address=4))
    held = [await asyncio.open_connection("127.0.0.1", front.port, local_addr=("127.0.0.2", 0)) for _ in range(4)]
    try:
        assert (await status_line(front.port, "127.0.0.2")).startswith(b"HTTP/1.1 503")
        assert (await status_line(front.port, "127.0.0.3")).startswith(b"HTTP/1.1 200")
    finally:
        await stop_holding(engine, front, held)


async def test_websockets_leave_the_tcp_port_a_reserve(root: Path) -> None:
    engine, front = await web_front(root, Limits(max_connections=3), WebLimits(tcp_reserve=2))
    first = await WsClient.open(front.port, "one")
    try:
        with pytest.raises(aiohttp.WSServerHandshakeError) as full:
            await WsClient.open(front.port, "two")
        assert full.value.status == 503
        reader, writer = await asyncio.open_connection("127.0.0.1", engine.port)  # TCP is still answered
        writer.close()
    finally:
        await first.close()
        await engine.stop()
        await front.stop()


async def test_an_idle_connection_is_closed(root: Path) -> None:
    engine, front = await web_front(root, web=WebLimits(idle_timeout=0.2))
    reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
    try:
        assert await asyncio.wait_for(reader.read(100), SAFETY) == b""  # closed without a word
    finally:
        writer.close()
        await engine.stop()
        await front.stop()


async def test_a_text_message_is_refused(front: WebFront) -> None:
    client = await WsClient.open(front.port)
    try:
        await client.ws.send_str("hello")
        refused = await client.recv()
        assert refused.body.code == "malformed_frame" and refused.body.fatal
        with pytest.raises(ConnectionError):
            await client.recv()
    finally:
        await client.close()


async def test_an_oversized_message_closes_the_websocket(front: WebFront) -> None:
    client = await WsClient.open(front.port, "cid")
    try:
        await client.ws.send_bytes(b"\x80" * (64 * 1024 + 1))
        with pytest.raises(ConnectionError):
            while True:
                await client.recv()
    finally:
        await client.close()
    again = await WsClient.open(front.port, "cid2")  # the server goes on
    await again.close()


def test_scopa_serve_web_serves_the_client_on_loopback() -> None:
    """`scopa serve --web PORT` listens where --host says (loopback by default), prints
    the address to open, serves the shipped client and stops cleanly on Ctrl-C."""
    import re
    import signal
    import subprocess
    import urllib.request

    from procs import ROOT, SCOPA

    proc = subprocess.Popen([*SCOPA, "serve", "--port", "0", "--web", "0", "--admin-token-file", "",
                             "--no-announce"], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    seen = []
    try:
        for line in proc.stdout:
            seen.append(line)
            found = re.search(r"Open: http://127\.0\.0\.1:(\d+)/", line)
            if found:
                break
        assert found, "".join(seen)
        page = urllib.request.urlopen(f"http://127.0.0.1:{found.group(1)}/", timeout=SAFETY).read().decode()
        assert '<script src="app.js">' in page
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=SAFETY)
    assert "Traceback" not in "".join(seen) + out


async def test_a_taken_web_port_stops_the_server_with_one_line(root: Path) -> None:
    import socket

    from scopa.server import serve
    from scopa.server.web.front import WebOptions

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        with pytest.raises(OSError, match="the web page's port"):
            await serve("127.0.0.1", 0, web=WebOptions(port=taken.getsockname()[1], root=root))
    finally:
        taken.close()


async def test_stopping_the_front_closes_its_websockets_and_relays_as_going_away(root: Path) -> None:
    """A front stopping while the server behind it (or the member a browser is relayed to)
    still runs closes each WebSocket with 1001, going away: the page reconnects as after a
    restart, and the stop does not wait for the other side to close first."""
    member_side: list[asyncio.StreamWriter] = []
    reached = asyncio.Event()

    async def member(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        member_side.append(writer)  # a member that keeps the relayed connection open
        reached.set()

    other = await asyncio.start_server(member, "127.0.0.1", 0)
    engine, front = await web_front(root)
    http = aiohttp.ClientSession()
    try:
        address = f"127.0.0.1:{other.sockets[0].getsockname()[1]}"
        front.passes.note(wire.Redirect(table="7", address=address, ticket="ticket-relay-1234"))
        origin = {"Origin": f"http://127.0.0.1:{front.port}"}
        own = await http.ws_connect(f"http://127.0.0.1:{front.port}/ws", headers=origin)
        relayed = await http.ws_connect(f"http://127.0.0.1:{front.port}/ws?ticket=ticket-relay-1234",
                                        headers=origin)
        await asyncio.wait_for(reached.wait(), SAFETY)  # the relay reached the member
        await asyncio.wait_for(front.stop(), SAFETY)
        for ws in (own, relayed):
            closing = await asyncio.wait_for(ws.receive(), SAFETY)
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == aiohttp.WSCloseCode.GOING_AWAY
    finally:
        await http.close()
        for writer in member_side:
            writer.close()
        other.close()
        await engine.stop()
