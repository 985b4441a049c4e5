"""Framing: a 4-byte big-endian unsigned length, then that many bytes of payload.

:class:`FrameBuffer` turns a byte stream fed in arbitrary chunks into whole payloads.
The length is checked against the maximum as soon as the 4 prefix bytes are in, so an
oversize frame is refused before any of its body is buffered.  After an oversize
prefix the stream cannot be resynchronised: the buffer stays broken (every later call
raises the same :class:`FrameTooLarge`) and the connection must be closed.
"""

from __future__ import annotations

import struct

from .errors import ErrorCode, FrameTooLarge, LocalProtocolError, TruncatedFrame

PREFIX_SIZE = 4
MAX_FRAME_SIZE = 64 * 1024
"""Largest payload (not counting the 4 prefix bytes) either end may send."""

_PREFIX = struct.Struct(">I")


def frame_payload(payload: bytes, *, max_frame_size: int = MAX_FRAME_SIZE) -> bytes:
    """Prefix ``payload`` with its length; :class:`LocalProtocolError` if it is too large."""
    return frame_parts(payload, max_frame_size=max_frame_size)


def frame_parts(*parts: bytes, max_frame_size: int = MAX_FRAME_SIZE) -> bytes:
    """One frame of the payload made of ``parts`` put together (see :func:`frame_payload`)."""
    size = sum(map(len, parts))
    return b"".join((frame_prefix(size, max_frame_size), *parts))


pack_prefix = _PREFIX.pack
"""The 4-byte length prefix of a payload of that size, unchecked (:func:`frame_prefix` checks it)."""


def frame_prefix(size: int, max_frame_size: int = MAX_FRAME_SIZE) -> bytes:
    """The 4-byte length prefix of a payload of ``size`` bytes; :class:`LocalProtocolError`
    if it is too large."""
    if size > max_frame_size:
        raise LocalProtocolError(
            f"payload of {size} bytes exceeds the {max_frame_size}-byte frame limit",
            code=ErrorCode.FRAME_TOO_LARGE,
        )
    return _PREFIX.pack(size)


class FrameBuffer:
    """Bytes in (any chunking), whole payloads out."""

    __slots__ = ('_broken', '_buf', 'max_frame_size')

    def __init__(self, *, max_frame_size: int = MAX_FRAME_SIZE) -> None:
        self.max_frame_size = max_frame_size
        self._buf = bytearray()
        self._broken: FrameTooLarge | None = None

    def feed(self, data: bytes) -> None:
        """Append received bytes (any amount, including none)."""
        if self._broken is None:
            self._buf += data

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned as a payload."""
        return len(self._buf)

    @property
    def broken(self) -> bool:
        """True after an oversize prefix: nothing more can be read from this stream."""
        return self._broken is not None

    def next_payload(self) -> bytes | None:
        """The next whole payload, or ``None`` if more bytes are needed."""
        if self._broken is not None:
            raise self._broken
        if len(self._buf) < PREFIX_SIZE:
            return None
        (size,) = _PREFIX.unpack_from(self._buf)
        if size > self.max_frame_size:
            self._buf.clear()
            self._broken = FrameTooLarge(
                f"frame announces {size} bytes; the limit is {self.max_frame_size}", fatal=True
            )
            raise self._broken
        end = PREFIX_SIZE + size
        if len(self._buf) < end:
            return None
        payload = bytes(self._buf[PREFIX_SIZE:end])
        del self._buf[:end]
        return payload

    def close(self) -> None:
        """The peer closed the stream: :class:`TruncatedFrame` if it stopped inside a frame."""
        if self._broken is None and self._buf:
            n = len(self._buf)
            self._buf.clear()
            raise TruncatedFrame(f"stream ended with {n} bytes of an unfinished frame")
