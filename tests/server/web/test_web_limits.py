"""The web front's limits at their edges: a message of exactly the largest frame body
is accepted, as over TCP; a browser is counted by its own address whatever ``proxied_for``
its ``hello`` says, even at a trusted front end's address; the per-address cap is at most
half the overall cap; a trusted address (``Limits.trusted_addresses``) has no
per-address cap."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgpack
import pytest

from scopa.protocol import commands as wire
from scopa.protocol.framing import MAX_FRAME_SIZE, frame_prefix
from scopa.server import Limits
from scopa.server.web.front import WebLimits, per_address_cap

from test_web_front import root, status_line, stop_holding, web_front  # noqa: F401 - root: the fixture
from ws_client import WsClient

pytestmark = pytest.mark.integration

SAFETY = 20.0  # a safety net only: every wait ends on an answer


def _chat_of_size(size: int, sender: str) -> bytes:
    """A ``chat`` command (its text far too long: ``bad_body``) packed in exactly ``size`` bytes."""
    def packed(n: int) -> bytes:
        data: bytes = msgpack.packb({"v": 2, "seq": 2, "sender": sender, "recipient": "lobby", "re": None,
                                     "name": "chat", "body": {"text": "x" * n}})
        return data
    n = size - len(packed(0))
    while len(packed(n)) > size:  # the string's length prefix grows with it
        n -= 1
    message = packed(n)
    assert len(message) == size
    return message


async def test_a_message_of_exactly_the_largest_frame_is_answered_on_the_web_as_over_tcp(root: Path) -> None:
    engine, front = await web_front(root)
    browser = await WsClient.open(front.port, "edgar")
    reader, writer = await asyncio.open_connection("127.0.0.1", engine.port)
    try:
        message = _chat_of_size(MAX_FRAME_SIZE, browser.party)
        await browser.ws.send_bytes(message)
        on_web = await browser.recv()
        assert on_web.name == "error" and on_web.body.code == "bad_body" and not on_web.body.fatal  # type: ignore[union-attr]
        seq = browser.send(wire.Ping(nonce=3))  # the WebSocket is still open
        assert (await browser.recv_until("pong")).re == seq

        writer.write(frame_prefix(len(msgpack.packb({"v": 2, "seq": 1, "sender": "guest", "recipient": "lobby",
                                                     "re": None, "name": "hello", "body": {"name": "tessa"}}))))
        writer.write(msgpack.packb({"v": 2, "seq": 1, "sender": "guest", "recipient": "lobby", "re": None,
                                    "name": "hello", "body": {"name": "tessa"}}))
        over_tcp = _chat_of_size(MAX_FRAME_SIZE, "player:tessa")
        writer.write(frame_prefix(len(over_tcp)) + over_tcp)
        unpacker = msgpack.Unpacker()
        names: list[str] = []
        while len(names) < 2:
            head = await asyncio.wait_for(reader.readexactly(4), SAFETY)
            unpacker.feed(await reader.readexactly(int.from_bytes(head, "big")))
            reply = next(unpacker)
            names.append(reply["name"])
            if reply["name"] == "error":
                assert reply["body"]["code"] == on_web.body.code  # type: ignore[union-attr]
        assert names == ["welcome", "error"]
    finally:
        writer.close()
        await browser.close()
        await engine.stop()
        await front.stop()


async def test_a_browser_at_a_trusted_proxys_address_is_counted_by_that_address(root: Path) -> None:
    """PROTOCOL.md §7: only a front end's relay speaks for others; a browser's own
    ``proxied_for`` on /ws does not make it someone else."""
    engine, front = await web_front(root, Limits(max_connections_per_address=2), trusted_proxies=("127.0.0.1",))
    browsers = [await WsClient.open(front.port) for _ in range(3)]
    try:
        replies = []
        for n, b in enumerate(browsers):
            b.send(wire.Hello(name=f"mask{n}", proxied_for=f"someone-else-{n}"))
            replies.append(await b.recv())
        assert [r.name for r in replies] == ["welcome", "welcome", "error"]
        assert replies[2].body.code == "rate_limited" and replies[2].body.fatal  # type: ignore[union-attr]
    finally:
        for b in browsers:
            await b.close()
        await engine.stop()
        await front.stop()


async def test_one_address_cannot_fill_a_small_web_port(root: Path) -> None:
    """An overall cap of 16 (what a low open-files limit leaves) with the default
    per-address cap of 32: one address gets at most 8, and another still gets in."""
    engine, front = await web_front(root, web=WebLimits(total=16))
    held = []
    try:
        while (await status_line(front.port, "127.0.0.2")).startswith(b"HTTP/1.1 200") and len(held) < 16:
            held.append(await asyncio.open_connection("127.0.0.1", front.port, local_addr=("127.0.0.2", 0)))
        assert len(held) <= 8
        assert (await status_line(front.port, "127.0.0.3")).startswith(b"HTTP/1.1 200")
    finally:
        await stop_holding(engine, front, held)


def test_the_per_address_cap_is_never_above_half_the_overall_cap() -> None:
    assert per_address_cap(32, 16) == 8
    assert per_address_cap(32, 2000) == 32
    assert per_address_cap(None, 16) == 8
    assert per_address_cap(32, None) == 32
    assert per_address_cap(32, 1) == 1
    for total in range(1, 200):
        cap = per_address_cap(32, total)
        assert cap is not None and 1 <= cap <= max(1, total // 2)


async def test_a_trusted_address_is_not_capped_per_address_on_the_web_port(root: Path) -> None:
    engine, front = await web_front(root, Limits(trusted_addresses=("127.0.0.2",)), WebLimits(per_address=2))
    held = [await asyncio.open_connection("127.0.0.1", front.port, local_addr=("127.0.0.2", 0)) for _ in range(4)]
    try:
        assert (await status_line(front.port, "127.0.0.2")).startswith(b"HTTP/1.1 200")
    finally:
        await stop_holding(engine, front, held)


@pytest.mark.process
def test_with_a_hard_limit_of_1024_open_files_one_address_cannot_fill_the_web_port() -> None:
    """`scopa serve --web` in a process whose open files are capped at 1024 (soft and
    hard): its web port's overall cap comes out at 16 and one address still gets at most
    half of it; another address is served."""
    import re
    import resource
    import signal
    import socket
    import subprocess

    from procs import ROOT, SCOPA

    def cap_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    proc = subprocess.Popen([*SCOPA, "serve", "--port", "0", "--web", "0", "--admin-token-file", "",
                             "--no-announce"], cwd=ROOT, text=True, preexec_fn=cap_files,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    held: list[socket.socket] = []

    def status(source: str) -> bytes:
        with socket.create_connection(("127.0.0.1", port), timeout=SAFETY, source_address=(source, 0)) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return s.makefile("rb").readline()

    try:
        for line in proc.stdout:
            found = re.search(r"Open: http://127\.0\.0\.1:(\d+)/", line)
            if found:
                break
        assert found
        port = int(found.group(1))
        while status("127.0.0.2").startswith(b"HTTP/1.1 200") and len(held) < 16:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=SAFETY,
                                                 source_address=("127.0.0.2", 0)))
        assert len(held) <= 8
        assert status("127.0.0.3").startswith(b"HTTP/1.1 200")
    finally:
        for s in held:
            s.close()
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=SAFETY)
