"""One client connection on the server: the protocol state, a bounded outgoing queue
and the task that writes it, so a slow reader never stalls the game masters."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from scopa.protocol import Connection, ConnectionRole, ConnectionState, LocalProtocolError
from scopa.protocol.commands import Body, Error
from scopa.protocol.errors import ErrorCode

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("scopa.server")

# Frames a client may have waiting before it counts as not reading and is dropped
# (the default; the server passes ``Limits.max_queued_frames``).
MAX_QUEUED_FRAMES = 2048
MAX_QUEUED_BYTES = 256 * 1024  # Limits.max_queued_bytes


class ClientSession:
    """A connected client as the server sees it.

    What is sent to it is framed at once and written to the socket in one write at the
    end of the event-loop turn (a move's your_turn, played and deal go out together); a
    client whose unsent bytes pass ``max_queued_bytes`` does not read and is dropped."""

    def __init__(self, conn_id: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 max_queued: int = MAX_QUEUED_FRAMES, max_queued_bytes: int = MAX_QUEUED_BYTES) -> None:
        self.id = conn_id
        self.reader = reader
        self.writer = writer
        self.proto = Connection(ConnectionRole.SERVER)
        self.name: str | None = None
        self.table: Table | None = None
        self.peer = str(writer.get_extra_info("peername"))
        self._loop = asyncio.get_running_loop()
        self._out: list[bytes] = []  # frames of this loop turn, written together by _flush
        self._out_bytes = 0
        self._flush_handle: asyncio.Handle | None = None
        self.max_queued = max_queued
        self.max_queued_bytes = max_queued_bytes
        self.client = ""  # hello.client, without control characters
        self.dropped = False
        """True once the client was dropped for not reading (its queue overflowed)."""
        self.closed = False
        self.said_bye = False
        """True once the client said ``bye``: it left on purpose (a waiting seat is freed)."""

    @property
    def party(self) -> str:
        return f"player:{self.name}" if self.name else "guest"

    @property
    def welcomed(self) -> bool:
        return self.proto.state is ConnectionState.READY

    def send(self, body: Body, *, sender: str = "lobby", recipient: str | None = None, re: int | None = None,
             payload: bytes | None = None) -> None:
        """Send one command to this client (never blocks; a client that does not read is
        dropped).  ``payload``: ``body`` packed already, for a broadcast packed once."""
        if self.closed or self.proto.state is ConnectionState.CLOSED:
            return  # after bye or a fatal error nothing more is sent (PROTOCOL.md §6)
        try:
            frame = self.proto.send_body(body, recipient=recipient or self.party, sender=sender, re=re,
                                         payload=payload)
        except LocalProtocolError as exc:
            log.error("could not send %s to %s: %s", body.NAME, self.party, exc)
            return
        self._queue_frame(frame)

    def send_packed(self, name: str, payload: bytes, *, sender: str, recipient: str | None = None,
                    re: int | None = None) -> None:
        """Like :meth:`send`, for a body already packed (see ``Connection.send_payload``)."""
        if self.closed or self.proto.state is ConnectionState.CLOSED:
            return
        try:
            frame = self.proto.send_payload(name, payload, recipient=recipient or self.party, sender=sender, re=re)
        except LocalProtocolError as exc:
            log.error("could not send %s to %s: %s", name, self.party, exc)
            return
        self._queue_frame(frame)

    def _queue_frame(self, frame: bytes) -> None:
        if self.queued_bytes + len(frame) > self.max_queued_bytes:
            self._drop(f"{self.queued_bytes + len(frame)} bytes would wait for it")
            return
        if len(self._out) >= self.max_queued:
            self._drop(f"{len(self._out)} frames wait for it")
            return
        self._out.append(frame)
        self._out_bytes += len(frame)
        if self._flush_handle is None:
            self._flush_handle = self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Write this loop turn's frames in one go."""
        self._flush_handle = None
        if not self._out:
            return
        data = b"".join(self._out) if len(self._out) > 1 else self._out[0]
        self._out.clear()
        self._out_bytes = 0
        transport = self.writer.transport
        if transport.is_closing():
            return  # the peer is gone: writing on would only log asyncio's warnings
        try:
            transport.write(data)
        except (ConnectionError, OSError, RuntimeError):
            self.abort()

    @property
    def queued_bytes(self) -> int:
        """Bytes waiting for this client: not yet written, and in the transport's buffer."""
        try:
            buffered = self.writer.transport.get_write_buffer_size()
        except (AttributeError, RuntimeError):
            buffered = 0
        return self._out_bytes + buffered

    def _drop(self, why: str) -> None:
        log.warning("%s does not read (%s); dropping the connection", self.party, why)
        self.dropped = True
        self.abort()

    def error(self, code: ErrorCode, message: str, re: int | None = None, sender: str = "lobby", fatal: bool = False) -> None:
        self.send(Error(code=code, message=message[:500], fatal=fatal), sender=sender, re=re)

    def close(self) -> None:
        """Write what is waiting, then close (the transport sends its buffer first)."""
        if self.closed:
            return
        if self._flush_handle is not None:
            self._flush_handle.cancel()
        self._flush()
        self.closed = True
        self.writer.close()

    def abort(self) -> None:
        """Close at once, dropping anything waiting."""
        self.closed = True
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        self._out.clear()
        self._out_bytes = 0
        self.writer.transport.abort()

    async def wait_closed(self) -> None:
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass
