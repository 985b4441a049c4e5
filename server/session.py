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
    """A connected client as the server sees it."""

    def __init__(self, conn_id: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 max_queued: int = MAX_QUEUED_FRAMES, max_queued_bytes: int = MAX_QUEUED_BYTES) -> None:
        self.id = conn_id
        self.reader = reader
        self.writer = writer
        self.proto = Connection(ConnectionRole.SERVER)
        self.name: str | None = None
        self.table: Table | None = None
        self.peer = str(writer.get_extra_info("peername"))
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(max_queued)
        self.max_queued_bytes = max_queued_bytes
        self._queued_bytes = 0  # in the queue, not yet handed to the transport
        self.client = ""  # hello.client, without control characters
        self.dropped = False
        """True once the client was dropped for not reading (its queue overflowed)."""
        self._writer_task = asyncio.create_task(self._write_loop(), name=f"writer-{conn_id}")
        self.closed = False
        self.said_bye = False
        """True once the client said ``bye``: it left on purpose (a waiting seat is freed)."""

    @property
    def party(self) -> str:
        return f"player:{self.name}" if self.name else "guest"

    @property
    def welcomed(self) -> bool:
        return self.proto.state is ConnectionState.READY

    def send(self, body: Body, *, sender: str = "lobby", recipient: str | None = None, re: int | None = None) -> None:
        """Queue one command for this client (never blocks; a full queue drops the client)."""
        if self.closed or self.proto.state is ConnectionState.CLOSED:
            return  # after bye or a fatal error nothing more is sent (PROTOCOL.md §6)
        try:
            frame = self.proto.send_body(body, recipient=recipient or self.party, sender=sender, re=re)
        except LocalProtocolError as exc:
            log.error("could not send %s to %s: %s", body.NAME, self.party, exc)
            return
        if self.queued_bytes + len(frame) > self.max_queued_bytes:
            self._drop(f"{self.queued_bytes + len(frame)} bytes would wait for it")
            return
        try:
            self._queue.put_nowait(frame)
        except asyncio.QueueFull:
            self._drop(f"{self._queue.qsize()} frames wait for it")
            return
        self._queued_bytes += len(frame)

    @property
    def queued_bytes(self) -> int:
        """Bytes waiting for this client: in the queue and in the transport's buffer."""
        try:
            buffered = self.writer.transport.get_write_buffer_size()
        except (AttributeError, RuntimeError):
            buffered = 0
        return self._queued_bytes + buffered

    def _drop(self, why: str) -> None:
        log.warning("%s does not read (%s); dropping the connection", self.party, why)
        self.dropped = True
        self.abort()

    def error(self, code: ErrorCode, message: str, re: int | None = None, sender: str = "lobby", fatal: bool = False) -> None:
        self.send(Error(code=code, message=message[:500], fatal=fatal), sender=sender, re=re)

    async def _write_loop(self) -> None:
        try:
            while True:
                frame = await self._queue.get()
                if frame is None:
                    break
                self._queued_bytes -= len(frame)
                if self.writer.transport.is_closing():
                    break  # the peer is gone: writing on would only log asyncio's warnings
                self.writer.write(frame)
                await self.writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.closed = True
            self.writer.close()

    def close(self) -> None:
        """Flush what is queued, then close."""
        if not self.closed:
            try:
                self._queue.put_nowait(None)
            except asyncio.QueueFull:
                self.abort()

    def abort(self) -> None:
        """Close at once, dropping anything queued."""
        self.closed = True
        self._writer_task.cancel()
        self.writer.transport.abort()

    async def wait_closed(self) -> None:
        try:
            await self._writer_task
        except asyncio.CancelledError:
            pass
