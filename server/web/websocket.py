"""A WebSocket carrying the protocol: one binary message is one command's msgpack body,
the bytes a TCP frame carries after its 4-byte length prefix (PROTOCOL.md §1,
"WebSocket").

The connection is the same :class:`~scopa.server.conn.session.ServerSession` as on TCP, with
:class:`WebSocketTransport` as its transport: the session writes length-prefixed frames
and the transport sends each one's body as one message; each message received is given
to the session with its prefix put back.  So the limits, the per-address caps, the
command rate, the deadlines (hello, ping) and resuming a seat are the TCP ones.

A binary message goes to the session as soon as aiohttp's reader has parsed it, within
the read of its bytes, as a TCP frame does (:class:`SessionSocket`), not through aiohttp's
queue and the task reading it: everything else (pings, pongs, a close, a text message,
an error) and any binary message behind one of those still waiting goes through the queue,
to the reading task, in order.
"""

from __future__ import annotations

import asyncio
import logging
import struct
from typing import Any

from aiohttp import WSMsgType, web

try:
    from aiohttp._websocket.reader import WebSocketDataQueue, WebSocketReader
except ImportError:  # an aiohttp whose reader is made otherwise: every message through its queue
    _OWN_READER = False
else:
    _OWN_READER = True

from scopa.protocol.errors import ErrorCode
from scopa.protocol.framing import MAX_FRAME_SIZE, PREFIX_SIZE, frame_prefix

from ..conn import ServerSession, WriteBatch

log = logging.getLogger("scopa.server.web")

MAX_MESSAGE = MAX_FRAME_SIZE + 1
"""aiohttp's ``max_msg_size``: it closes the WebSocket (code 1009) on a message of this
size or more, so the largest one a browser may send is the largest frame body,
``MAX_FRAME_SIZE`` bytes, as over TCP."""

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


_BINARY_MESSAGE = WSMsgType.BINARY
_QUEUE_LIMIT = 2**16
"""aiohttp's own limit of its queue (it stops reading past twice as many bytes waiting)."""


if _OWN_READER:
    class _DirectQueue(WebSocketDataQueue):
        """aiohttp's queue of one WebSocket's messages, but a binary message with none
        waiting before it goes to ``session`` at once."""

        session: ServerSession | None = None
        writes: WriteBatch | None = None

        def feed_data(self, data: Any, size: int) -> None:
            session = self.session
            if session is not None and data[0] is _BINARY_MESSAGE and not self._buffer and not session.closed:
                body: bytes = data[1]
                session.data_received(frame_prefix(len(body)) + body)
                after_read = self.writes.after_read if self.writes is not None else None
                if after_read is not None:  # the moves it brought, carried out now that it returned
                    after_read()
            else:
                super().feed_data(data, size)


class SessionSocket(web.WebSocketResponse):
    """The WebSocket of a browser's session: uncompressed (no permessage-deflate), the
    largest message :data:`MAX_MESSAGE` less one, autoping, no heartbeat of aiohttp's
    (the session's pings are the protocol's), its binary messages handed to the session
    as they are parsed once :meth:`deliver_to` is called.

    That takes aiohttp's reader made with a queue of :class:`_DirectQueue`'s, put in place of
    its own as it is made, before a byte reaches it; with an aiohttp whose reader is made
    otherwise, or when bytes came with the upgrade request, aiohttp's own is kept and
    every message goes through its queue."""

    def __init__(self) -> None:
        super().__init__(max_msg_size=MAX_MESSAGE, autoping=True, heartbeat=None, compress=False)
        self._direct: Any = None
        self._direct_parser: Any = None

    def _post_start(self, request: Any, *args: Any) -> None:
        handler = request.protocol
        clean = getattr(handler, "_message_tail", None) == b""  # nothing came after the upgrade request
        super()._post_start(request, *args)
        if clean and _OWN_READER and not self.compress:
            self._own_reader(handler)

    def _own_reader(self, handler: Any) -> None:
        if not all(hasattr(o, a) for o, a in ((self, "_reader"), (handler, "_payload_parser"))):
            return
        queue = _DirectQueue(handler, _QUEUE_LIMIT, loop=asyncio.get_running_loop())
        try:
            parser = WebSocketReader(queue, MAX_MESSAGE, compress=False, decode_text=True)
        except TypeError:  # made otherwise in this aiohttp
            return
        self._reader, handler._payload_parser = queue, parser
        if hasattr(self, "_parser"):
            self._parser = parser
        self._direct, self._direct_parser = queue, parser

    def deliver_to_nobody(self) -> None:
        """Every message through aiohttp's queue from now on."""
        if self._direct is not None:
            self._direct.session = None

    def deliver_to(self, session: ServerSession) -> bool:
        """Hand each binary message to ``session`` as it is parsed from now on; False if
        they all go through aiohttp's queue."""
        if self._direct is None:
            return False
        self._direct.session = session
        self._direct.writes = WriteBatch.of(asyncio.get_running_loop())
        return True


async def run_session(request: web.Request, session: ServerSession, ws: web.WebSocketResponse) -> None:
    """Drive ``session`` over the prepared ``ws`` until either side closes (a binary message
    goes to the session as it is read when ``ws`` is a :class:`SessionSocket`)."""
    transport = WebSocketTransport(ws, request)
    writes = WriteBatch.of(asyncio.get_running_loop())
    session.connection_made(transport)
    if isinstance(ws, SessionSocket):
        ws.deliver_to(session)
    try:
        async for message in ws:
            if session.closed:
                break
            if message.type is WSMsgType.BINARY:
                data: bytes = message.data
                session.data_received(frame_prefix(len(data)) + data)
                if writes.after_read is not None:  # the moves it brought, carried out now that it returned
                    writes.after_read()
            elif message.type is WSMsgType.TEXT:
                session.error(ErrorCode.MALFORMED_FRAME, "send each command as one binary message (msgpack)", fatal=True)
                session.close()
            else:
                break
    except Exception:  # noqa: BLE001 - one browser's failure must not take the server down
        log.exception("connection %s: WebSocket error", session.id)
        session.abort()
    finally:
        if isinstance(ws, SessionSocket):
            ws.deliver_to_nobody()
        if not transport.is_closing():
            transport.close()
        await transport.closed()
        if not ws.closed:
            await ws.close()
        session.connection_lost(None)

