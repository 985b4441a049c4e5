"""How the web front reads a browser's WebSocket (server/web/websocket.py): a binary
message goes to its session as its bytes are read, as a TCP frame does; pings, a text
message and whatever comes behind them go through aiohttp's queue, in the order sent.

The client here is a raw socket on 127.0.0.1 that speaks the WebSocket by hand, so that
several frames arrive in one read."""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import AsyncIterator

import msgpack
import pytest

from scopa.server import NetworkEngine
from scopa.server.web.front import WebFront

pytestmark = pytest.mark.integration

SAFETY = 20.0  # a safety net only: every wait ends on an event
PING, PONG, TEXT, BINARY, CLOSE = 0x9, 0xA, 0x1, 0x2, 0x8


@pytest.fixture
async def front() -> AsyncIterator[WebFront]:
    engine = NetworkEngine(host="127.0.0.1", port=0)
    await engine.start()
    web = WebFront(engine, None, names=frozenset({"localhost"}))
    await web.start("127.0.0.1", 0)
    try:
        yield web
    finally:
        await web.stop()
        await engine.stop()


def frame(opcode: int, payload: bytes) -> bytes:
    """One whole frame from a client (masked, RFC 6455 §5.3), of under 126 bytes."""
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes((0x80 | opcode, 0x80 | len(payload))) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def hello(name: str) -> bytes:
    return msgpack.packb({"v": 2, "seq": 1, "sender": "guest", "recipient": "lobby", "re": None, "name": "hello",
                          "body": {"name": name, "client": "test_web_reading"}})


class RawSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> RawSocket:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), SAFETY)
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(reader, writer)

    async def next(self) -> tuple[int, bytes]:
        """The server's next frame: (opcode, payload)."""
        first, second = await asyncio.wait_for(self.reader.readexactly(2), SAFETY)
        size = second & 0x7F
        if size == 126:
            size = int.from_bytes(await self.reader.readexactly(2), "big")
        elif size == 127:
            size = int.from_bytes(await self.reader.readexactly(8), "big")
        return first & 0x0F, await asyncio.wait_for(self.reader.readexactly(size), SAFETY)

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


def named(payload: bytes) -> str:
    name: str = msgpack.unpackb(payload)["name"]
    return name


async def test_a_command_is_handled_as_it_is_read_ahead_of_a_ping_behind_it(front: WebFront) -> None:
    """hello and a ping in one read: the hello is handled within the read (its welcome is
    written at the end of that loop turn), the ping by the reading task after it."""
    client = await RawSocket.open(front.port)
    try:
        client.writer.write(frame(BINARY, hello("ada")) + frame(PING, b"p"))
        opcode, payload = await client.next()
        assert (opcode, named(payload)) == (BINARY, "welcome")
        assert await client.next() == (PONG, b"p")
    finally:
        await client.close()


async def test_a_command_behind_a_ping_waits_for_it(front: WebFront) -> None:
    client = await RawSocket.open(front.port)
    try:
        client.writer.write(frame(PING, b"p") + frame(BINARY, hello("bea")))
        assert await client.next() == (PONG, b"p")
        opcode, payload = await client.next()
        assert (opcode, named(payload)) == (BINARY, "welcome")
    finally:
        await client.close()


async def test_a_command_behind_a_text_message_is_not_handled(front: WebFront) -> None:
    """A text message closes the connection (a fatal error): the hello sent behind it in
    the same read is not handled before it, nor after."""
    client = await RawSocket.open(front.port)
    try:
        client.writer.write(frame(TEXT, b"hello") + frame(BINARY, hello("cid")))
        opcode, payload = await client.next()
        refused = msgpack.unpackb(payload)
        assert opcode == BINARY and refused["name"] == "error" and refused["body"]["code"] == "malformed_frame"
        assert (await client.next())[0] == CLOSE
    finally:
        await client.close()
