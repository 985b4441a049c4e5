"""The buffers of the connections: the one the connections of an event loop read into (one
for them all) and the kernel's send buffer of each (``Limits.socket_send_buffer``)."""

from __future__ import annotations

import asyncio
import socket
import weakref

__all__ = ["READ_BUFFER_SIZE", "bound_send_buffer", "read_buffer"]

READ_BUFFER_SIZE = 64 * 1024
"""Bytes one read takes at most.  Every connection of an event loop reads into the same
buffer and copies its bytes out at once, so no connection keeps one of its own, and no
read allocates the 256 KB that a plain ``asyncio.Protocol`` read does (most of the cost
of a small read: ``python benchmarks/socket_reads.py``)."""

_read_buffers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, memoryview] = weakref.WeakKeyDictionary()


def read_buffer(loop: asyncio.AbstractEventLoop) -> memoryview:
    """The buffer the connections of ``loop`` read into (one per event loop)."""
    buffer = _read_buffers.get(loop)
    if buffer is None:
        buffer = _read_buffers[loop] = memoryview(bytearray(READ_BUFFER_SIZE))
    return buffer


def bound_send_buffer(transport: asyncio.Transport, size: int | None) -> None:
    """Limits.socket_send_buffer: a small kernel buffer and write high-water mark."""
    if size is None:
        return
    sock = transport.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
        except OSError:
            pass
    transport.set_write_buffer_limits(high=size)
