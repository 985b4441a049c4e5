"""The WebSocket messages a session's frames become (server/web/websocket.py): the
bytes aiohttp's own writer puts on the wire for each body, all frames of one write in
one go, in order."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiohttp._websocket.writer import WebSocketWriter
from aiohttp import WSMsgType

from scopa.server.web.websocket import messages

pytestmark = pytest.mark.unit


def frame_prefix(size: int) -> bytes:
    """A frame's length prefix (PROTOCOL.md §1), for any size."""
    return size.to_bytes(4, "big")

SIZES = (0, 1, 125, 126, 127, 65535, 65536, 70000)
"""Each of the three lengths of a header (RFC 6455 §5.2) and their edges."""


class Wire(asyncio.Transport):
    """What a :class:`WebSocketWriter` writes, kept."""

    def __init__(self) -> None:
        super().__init__()
        self.data = bytearray()

    def write(self, data: Any) -> None:
        self.data += data

    def is_closing(self) -> bool:
        return False


class Protocol:
    _paused = False


def aiohttps(bodies: list[bytes]) -> bytes:
    """The bytes aiohttp's server writer sends for ``bodies``, one ``send_bytes`` each
    (no permessage-deflate, as the front opens its WebSockets)."""
    wire = Wire()
    writer = WebSocketWriter(Protocol(), wire, use_mask=False, compress=0)  # type: ignore[arg-type]

    async def send() -> None:
        for body in bodies:
            await writer.send_frame(body, WSMsgType.BINARY)

    asyncio.run(send())
    return bytes(wire.data)


@pytest.mark.parametrize("size", SIZES)
def test_one_frame_is_the_message_aiohttp_would_send(size: int) -> None:
    body = bytes(i % 251 for i in range(size))
    assert bytes(messages(frame_prefix(size) + body)) == aiohttps([body])


def test_the_frames_of_one_write_are_as_many_messages_in_order() -> None:
    bodies = [bytes([n % 256]) * size for n, size in enumerate(SIZES)]
    frames = b"".join(frame_prefix(len(b)) + b for b in bodies)
    assert bytes(messages(frames)) == aiohttps(bodies)
    assert bytes(messages(memoryview(bytearray(frames)))) == aiohttps(bodies)


def test_a_partial_frame_at_the_end_is_left_out() -> None:
    whole = frame_prefix(3) + b"abc"
    assert bytes(messages(whole + frame_prefix(10) + b"abcd")) == aiohttps([b"abc"])
    assert bytes(messages(whole + b"\x00\x00")) == aiohttps([b"abc"])
