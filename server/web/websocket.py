"""A WebSocket carrying the protocol: one binary message is one command's msgpack body,
the bytes a TCP frame carries after its 4-byte length prefix (PROTOCOL.md §1,
"WebSocket").

The connection is the same :class:`~scopa.server.conn.session.ServerSession` as on TCP, with
:class:`WebSocketTransport` as its transport: the session writes length-prefixed frames
and the transport sends each one's body as one message; each message received is given
to the session with its prefix put back.  So the limits, the per-address caps, the
command rate, the deadlines (hello, ping) and resuming a seat are the TCP ones.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from typing import Any

from aiohttp import WSMsgType, web

from scopa.protocol.errors import ErrorCode
from scopa.protocol.framing import MAX_FRAME_SIZE, PREFIX_SIZE, frame_prefix

from ..conn import ServerSession

log = logging.getLogger("scopa.server.web")

_PREFIX = struct.Struct(">I")
_LENGTH_16 = struct.Struct(">BBH")
_LENGTH_64 = struct.Struct(">BBQ")
_BINARY = 0x82
"""The first byte of a whole binary message's frame (FIN and opcode 2, RFC 6455 §5.2)."""


def messages(frames: bytes | bytearray | memoryview) -> bytearray:
    """``frames`` (whole length-prefixed frames) as WebSocket messages from a server: each
    body one unmasked, uncompressed binary frame, in order; a partial frame at the end is
    left out (the session writes whole frames only)."""
    view = memoryview(frames)
    out = bytearray()
    at, end = 0, len(view)
    while at + PREFIX_SIZE <= end:
        (size,) = _PREFIX.unpack_from(view, at)
        at += PREFIX_SIZE
        if at + size > end:
            break
        if size < 126:
            out += bytes((_BINARY, size))
        elif size < 65536:
            out += _LENGTH_16.pack(_BINARY, 126, size)
        else:
            out += _LENGTH_64.pack(_BINARY, 127, size)
        out += view[at:at + size]
        at += size
    return out


class WebSocketTransport(asyncio.Transport):
    """What a :class:`ServerSession` writes to, sent over one WebSocket.

    ``write`` takes whole frames (the session writes nothing else: one write per loop
    turn) and writes their bodies, each one binary message, to the TCP connection under
    the WebSocket at once, in one write.  The WebSocket was opened without
    permessage-deflate, and a server masks nothing, so a message is its two to ten bytes
    of header and the body: what aiohttp would write for each ``send_bytes``, less a task
    and a system call per message.  Nothing is written once aiohttp has begun closing the
    WebSocket (its close frame is the last).  ``close`` closes the WebSocket after what was
    written; ``abort`` drops the TCP connection under it."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        super().__init__()
        self._ws = ws
        self._tcp = request.transport
        self._peer = request.transport.get_extra_info("peername") if request.transport is not None else None
        self._closing = False
        self._closer: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ asyncio.Transport

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername":
            return self._peer
        return default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        tcp = self._tcp
        if self._closing or self._ws.closed or tcp is None or tcp.is_closing():
            return
        tcp.write(messages(data))

    def get_write_buffer_size(self) -> int:
        tcp = self._tcp
        return tcp.get_write_buffer_size() if tcp is not None and not tcp.is_closing() else 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        if self._tcp is not None:
            self._tcp.set_write_buffer_limits(high=high, low=low)

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        self._closer = asyncio.get_running_loop().create_task(self._close(), name="websocket-close")

    def abort(self) -> None:
        self._closing = True
        if self._closer is not None:
            self._closer.cancel()
        if self._tcp is not None:
            self._tcp.abort()

    async def closed(self) -> None:
        """Until the closing that :meth:`close` began is done (at once if none was)."""
        if self._closer is not None:
            await asyncio.gather(self._closer, return_exceptions=True)

    async def _close(self) -> None:
        try:
            await self._ws.close()
        except (ConnectionError, RuntimeError):
            pass  # the browser is gone; the receiving side notices it too


async def run_session(request: web.Request, session: ServerSession, ws: web.WebSocketResponse) -> None:
    """Drive ``session`` over the prepared ``ws`` until either side closes."""
    transport = WebSocketTransport(ws, request)
    session.connection_made(transport)
    try:
        async for message in ws:
            if session.closed:
                break
            if message.type is WSMsgType.BINARY:
                data: bytes = message.data
                session.data_received(frame_prefix(len(data)) + data)
            elif message.type is WSMsgType.TEXT:
                session.error(ErrorCode.MALFORMED_FRAME, "send each command as one binary message (msgpack)", fatal=True)
                session.close()
            else:
                break
    except Exception:  # noqa: BLE001 - one browser's failure must not take the server down
        log.exception("connection %s: WebSocket error", session.id)
        session.abort()
    finally:
        if not transport.is_closing():
            transport.close()
        await transport.closed()
        if not ws.closed:
            await ws.close()
        session.connection_lost(None)


MAX_MESSAGE = MAX_FRAME_SIZE + 1
"""aiohttp's ``max_msg_size``: it closes the WebSocket (code 1009) on a message of this
size or more, so the largest one a browser may send is the largest frame body,
``MAX_FRAME_SIZE`` bytes, as over TCP."""
