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
from collections import deque
from typing import Any

from aiohttp import WSMsgType, web

from scopa.protocol.errors import ErrorCode
from scopa.protocol.framing import MAX_FRAME_SIZE, PREFIX_SIZE, frame_prefix

from ..conn import ServerSession

log = logging.getLogger("scopa.server.web")

_PREFIX = struct.Struct(">I")


class WebSocketTransport(asyncio.Transport):
    """What a :class:`ServerSession` writes to, sent over one WebSocket.

    ``write`` takes whole frames (the session writes nothing else) and queues their
    bodies; one task sends them in order.  ``close`` sends what is queued, then closes
    the WebSocket; ``abort`` drops the queue and the TCP connection under it."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        super().__init__()
        self._ws = ws
        self._tcp = request.transport
        self._peer = request.transport.get_extra_info("peername") if request.transport is not None else None
        self._queue: deque[bytes] = deque()
        self._queued_bytes = 0
        self._wake = asyncio.Event()
        self._closing = False
        self._sender = asyncio.create_task(self._send_loop(), name="websocket-sender")

    # ------------------------------------------------------------------ asyncio.Transport

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername":
            return self._peer
        return default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closing:
            return
        view = memoryview(data)
        at = 0
        while at + PREFIX_SIZE <= len(view):
            (size,) = _PREFIX.unpack_from(view, at)
            body = bytes(view[at + PREFIX_SIZE: at + PREFIX_SIZE + size])
            self._queue.append(body)
            self._queued_bytes += len(body)
            at += PREFIX_SIZE + size
        self._wake.set()

    def get_write_buffer_size(self) -> int:
        buffered = self._tcp.get_write_buffer_size() if self._tcp is not None and not self._tcp.is_closing() else 0
        return self._queued_bytes + buffered

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        if self._tcp is not None:
            self._tcp.set_write_buffer_limits(high=high, low=low)

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        self._closing = True
        self._wake.set()

    def abort(self) -> None:
        self._closing = True
        self._queue.clear()
        self._queued_bytes = 0
        self._sender.cancel()
        if self._tcp is not None:
            self._tcp.abort()

    # ------------------------------------------------------------------ sending

    async def _send_loop(self) -> None:
        ws = self._ws
        try:
            while True:
                while self._queue:
                    body = self._queue.popleft()
                    self._queued_bytes -= len(body)
                    await ws.send_bytes(body)
                if self._closing:
                    break
                self._wake.clear()
                await self._wake.wait()
            await ws.close()
        except (ConnectionError, RuntimeError):
            pass  # the browser is gone; the receiving side notices it too
        except asyncio.CancelledError:
            raise


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
        await asyncio.gather(transport._sender, return_exceptions=True)
        if not ws.closed:
            await ws.close()
        session.connection_lost(None)


MAX_MESSAGE = MAX_FRAME_SIZE + 1
"""aiohttp's ``max_msg_size``: it closes the WebSocket (code 1009) on a message of this
size or more, so the largest one a browser may send is the largest frame body,
``MAX_FRAME_SIZE`` bytes, as over TCP."""
