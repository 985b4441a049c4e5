"""One client connection on the server: the one object that owns its bytes in and out,
its protocol state, its deadlines (hello, frame, ping), its command rate and its unsent
frames.  It is an ``asyncio.BufferedProtocol``: the event loop reads what arrives into
a buffer all connections share (see :data:`~.buffers.READ_BUFFER_SIZE`), the session takes its
bytes out, decodes and checks them and hands each command to the server (its :class:`SessionHost`).

What is sent to a client is framed at once and written in one write as soon as its table's move is
carried out, else at the end of the event-loop turn (a move's played, deal and your_turn go out together);
a client whose unsent bytes pass ``max_queued_bytes`` does not read and is dropped."""

from __future__ import annotations

import asyncio
import logging
import random
import time
import weakref
from collections.abc import Callable
from typing import Literal, Protocol, cast

from scopa.protocol import (
    Command,
    Connection,
    ConnectionRole,
    ConnectionState,
    LocalProtocolError,
    Message,
    Outgoing,
    Prepared,
    ProtocolError,
)
from scopa.protocol.commands import Body, Error, Hello, MakeDeclaration, PlayCard, Ping, Pong, Redirect
from scopa.protocol.errors import ErrorCode

from ..core import metrics, Clock, Limits, RateLimiter
from .buffers import bound_send_buffer, read_buffer
from .deadlines import Deadlines, DeadlineEntry, next_deadline
from .replies import Refusal

log = logging.getLogger("scopa.server")

_ANSWERS = (PlayCard, MakeDeclaration)  # what answers a your_turn: charged by what it answers, not as it comes

# The states read on every frame in and out, as plain names: an enum member read from its
# class goes through the enum's metaclass (``EnumType.__getattr__``), ten times slower.
_CLOSED = ConnectionState.CLOSED
_READY = ConnectionState.READY

# Frames a client may have waiting in one loop turn before it counts as not reading (Limits.max_queued_frames' default)
MAX_QUEUED_FRAMES = 2048
MAX_QUEUED_BYTES = 256 * 1024  # Limits.max_queued_bytes
FLUSH_AT = 64 * 1024
"""Bytes of one loop turn after which they are written at once rather than at its end."""

Verdict = Literal["ok", "refused", "drop"]


def turn_queued(session: ServerSession, since: float) -> None:
    """A your_turn is queued for ``session`` after a move taken at ``since`` (``time.perf_counter``): timed once written."""
    if session._queued and not session._turn_from:
        session._turn_from = since


class SessionHost(Protocol):
    """What a connection needs of the server it belongs to."""

    limits: Limits
    clock: Clock
    """What the deadlines and the command rate run on."""

    def connected(self, sess: ServerSession) -> str | None:
        """A new connection: why it is refused (a cap is reached), or None to keep it."""

    def receive(self, sess: ServerSession, command: Command) -> Refusal | None:
        """Carry out one command the connection accepted (one call per command); a refused
        ``play`` or ``declare`` comes back for the session to send."""

    def unreadable_answer(self, sess: ServerSession, error: ProtocolError) -> Refusal | None:
        """An answer to a your_turn that could not be decoded: the table's refusal of it
        (as it refuses any answer), or None to report it as a plain error."""

    def disconnected(self, sess: ServerSession) -> None:
        """The connection is gone (after everything it sent was handled)."""


class WriteBatch:
    """The connections with frames waiting in this loop turn, written by one callback at its end (one
    scheduled call per turn for the whole server, not one per connection).  ``after_read``, when set, is
    called once a connection has handled a read and returned: the tables carry out the moves it brought."""

    __slots__ = ("_loop", "_waiting", "_handle", "after_read")
    _by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, WriteBatch] = weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waiting: list[ServerSession] = []
        self._handle: asyncio.Handle | None = None
        self.after_read: Callable[[], None] | None = None

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> WriteBatch:
        """The batch of ``loop`` (one per event loop)."""
        return cls._by_loop.get(loop) or cls._by_loop.setdefault(loop, cls(loop))

    def add(self, sess: ServerSession) -> None:
        self._waiting.append(sess)
        if self._handle is None:
            self._handle = self._loop.call_soon(self._write)

    def _write(self) -> None:
        self._handle = None
        self.write_now()

    def write_now(self) -> None:
        """Write the frames waiting so far (a table's, as soon as its move is carried out)."""
        if waiting := self._waiting:
            self._waiting = []
            for sess in waiting:
                sess._flush()


class ServerSession(asyncio.BufferedProtocol):
    """A connected client as the server sees it."""

    __slots__ = ('__weakref__', '_clock', '_connected_at', '_deadline', '_deadline_at', '_deadlines', '_batch', '_frame_started', '_hello_seen', '_inbox', '_last_heard', '_gone', '_loop', '_lost', '_out', '_out_bytes', '_party', '_party_of', '_queued', '_written', '_ping_sent', '_rate', '_turn_from', 'address', 'client', 'closed', 'dropped', 'handed_on', 'host', 'own_address', 'id', 'limits', 'max_queued', 'max_queued_bytes', 'name', 'peer', 'proto', 'refused', 'said_bye', 'table_id', 'transport')

    def __init__(self, conn_id: int, host: SessionHost) -> None:
        self.id = conn_id
        self.host = host
        limits = host.limits
        self.limits = limits
        self.proto = Connection(ConnectionRole.SERVER)
        self.name: str | None = None
        self._party_of: str | None = None  # the name self._party was made for
        self._party = "guest"
        self.table_id: str | None = None
        """The table this client is seated at (the server's TableDirectory has it)."""
        self.peer: object = ""
        """The client's address as the event loop gave it (shared with the transport: no
        string of its own a connection), for the log and the operator's list."""
        self.address = ""
        """The remote IP address (the key of the per-address cap)."""
        self.client = ""  # hello.client, without control characters
        self.max_queued = limits.max_queued_frames
        self.max_queued_bytes = limits.max_queued_bytes
        self.dropped = False
        """True once the client was dropped for not reading (its queue overflowed)."""
        self.closed = False
        self.said_bye = False
        """True once the client said ``bye``: it left on purpose (a waiting seat is freed)."""
        self.refused = False
        """True if the server refused the connection as it came (a cap was reached)."""
        self.handed_on: Callable[[Redirect], None] | None = None
        """Told of each ``redirect`` sent to this client (the web front relays the next
        WebSocket that gives its ticket: server/web/relay.py)."""
        self.own_address = False
        """True: counted by its own address whatever its ``hello`` says (``proxied_for`` is
        ignored: a browser on the web front, never a front end speaking for others)."""
        self.transport: asyncio.Transport | None = None
        self._loop = asyncio.get_running_loop()
        self._out: list[bytes] = []  # frames of this loop turn, written together by _flush
        self._out_bytes = 0
        self._written = 0  # the transport's buffer after our last write
        self._queued = False  # in this loop turn's write batch
        self._turn_from = 0.0  # a your_turn is queued: when the move it follows was taken (0: none)
        self._batch = WriteBatch.of(self._loop)
        self._inbox = read_buffer(self._loop)
        self._gone = False  # connection_lost was called
        self._lost: asyncio.Future[None] | None = None  # made for whoever waits for the end
        self._clock = clock = host.clock
        self._rate: RateLimiter = limits.rate_limiter(clock)
        now = clock.now()
        self._connected_at = self._last_heard = now
        self._frame_started: float | None = None  # when the first byte of an unfinished frame came
        self._ping_sent: float | None = None  # when an unanswered ping of ours went out
        self._hello_seen = False
        self._deadlines = Deadlines.of(self._loop, clock)  # every connection's of this clock and loop: one timer
        self._deadline: DeadlineEntry | None = None
        self._deadline_at: float | None = None

    # ------------------------------------------------------------------ asyncio.BufferedProtocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # a stream transport (uvloop's is not a subclass)
        transport = self.transport
        peer = self.peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
        refusal = self.host.connected(self)
        if refusal is not None:
            self.refused = True
            log.warning("refusing a connection from %s: %s", self.address, refusal)
            metrics.RATE_LIMITED_CONNECTIONS.inc()
            self.error(ErrorCode.RATE_LIMITED, refusal, fatal=True, retry_after=5.0)  # PROTOCOL.md §7: 5 s
            self.close()
            return
        bound_send_buffer(transport, self.limits.socket_send_buffer)
        self._arm_deadline()

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._inbox

    def buffer_updated(self, nbytes: int) -> None:
        self.data_received(bytes(self._inbox[:nbytes]))  # the buffer is the next one's too

    def eof_received(self) -> bool:
        return False  # the client closed its side: close ours too

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._cancel_deadline()
        self._out.clear()
        self._out_bytes = 0
        if not self.refused:
            try:
                self.host.disconnected(self)
            except Exception:  # noqa: BLE001 - the server goes on
                log.exception("connection %s: error while forgetting it", self.id)
        self._gone = True
        if self._lost is not None and not self._lost.done():
            self._lost.set_result(None)

    # ------------------------------------------------------------------ receiving

    def data_received(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            now = self._clock.now()
            self.proto.feed(data)
            completed = False
            host = self.host
            while not self.closed:
                try:
                    command = self.proto.next_command()
                except ProtocolError as exc:
                    completed = True
                    if not self._refuse_error(exc):
                        return
                    continue
                if command is None:
                    break
                completed = True
                ping_outstanding = self._ping_sent is not None
                self._last_heard, self._ping_sent = now, None
                body = command.body
                if isinstance(body, Hello):
                    self._hello_seen = True
                # a move is charged by what it answers (Refusal.charged); a pong to our ping is free
                if not isinstance(body, _ANSWERS) and not (ping_outstanding and isinstance(body, Pong)):
                    verdict = self.charge(command.seq, self.proto.answering(command.recipient))
                    if verdict == "drop":
                        return
                    if verdict != "ok":
                        continue
                if isinstance(body, Ping):  # the protocol answers it (nothing else has its reply)
                    reply = self.proto.reply(command)
                    if reply is not None:
                        self._queue_frame(reply)
                        continue
                if self.proto.state is _CLOSED and not isinstance(body, Error):
                    self.said_bye = True  # bye: the client leaves on purpose
                    self.close()
                    return
                refusal = host.receive(self, command)
                if refusal is not None and not self._send_refusal(refusal, command.recipient):
                    return
            if not self.proto.buffered:
                self._frame_started = None
            elif completed or self._frame_started is None:
                self._frame_started = now  # a new frame began in this chunk
            self._arm_deadline()
        except Exception:  # a bug in handling one client must not take the server down
            log.exception("connection %s: unexpected error", self.id)
            self.abort()

    def _refuse_error(self, exc: ProtocolError) -> bool:
        """Answer a command that broke the protocol; False if the connection is closing."""
        sender = self.proto.answering(exc.recipient)
        if exc.fatal:
            self.error(exc.code, exc.message, re=exc.seq, sender=sender, fatal=True)
            self.close()
            return False
        refusal = self.host.unreadable_answer(self, exc)
        if refusal is not None:
            return self._send_refusal(refusal, exc.recipient)
        verdict = self.charge(exc.seq, sender)
        if verdict == "drop":
            return False
        if verdict == "ok":
            self.error(exc.code, exc.message, re=exc.seq, sender=sender)
        return True

    def _send_refusal(self, refusal: Refusal, recipient: str | None) -> bool:
        """Send a refused command's error (and the your_turn again), charged first when it
        answered nothing; False if the connection is closing."""
        if refusal.charged:
            verdict = self.charge(refusal.re, self.proto.answering(recipient))
            if verdict != "ok":
                return verdict != "drop"
        self.error(refusal.code, refusal.message, re=refusal.re, sender=refusal.sender)
        if refusal.again is not None:
            self.send(refusal.again)
        return True

    def charge(self, seq: int | None, sender: str = "lobby") -> Verdict:
        """Charge one command to the token bucket: ``ok`` (run it), ``refused`` (answered
        ``rate_limited``) or ``drop`` (a persistent flood: fatal error sent, closing)."""
        rate = self._rate
        if rate.allow():
            return "ok"
        metrics.RATE_LIMITED_COMMANDS.inc()
        if rate.flooding:
            log.warning("connection %s (%s) floods commands; dropping it", self.id, self.party)
            self.error(ErrorCode.RATE_LIMITED, "too many commands refused; closing the connection", re=seq,
                       sender=sender, fatal=True)
            self.close()
            return "drop"
        self.error(ErrorCode.RATE_LIMITED, "too many commands; slow down", re=seq, sender=sender, retry_after=1.0)
        return "refused"

    # ------------------------------------------------------------------ deadlines

    def _arm_deadline(self) -> None:
        """One timer per connection, at its earliest deadline.  Activity only pushes
        deadlines later, so the timer is moved only when one comes earlier; a timer that
        fires early (the client spoke meanwhile) re-arms itself."""
        if self.closed:
            return
        limits = self.limits
        if self._hello_seen and self._frame_started is None and self._ping_sent is None \
                and limits.ping_interval is not None:
            when = self._last_heard + limits.ping_interval  # next_deadline's usual case, without the call
        else:
            nxt = next_deadline(limits, self._hello_seen, self._connected_at, self._frame_started,
                                self._last_heard, self._ping_sent)
            if nxt is None:
                self._cancel_deadline()
                return
            when = nxt[0]
        if self._deadline is not None and self._deadline_at is not None and self._deadline_at <= when:
            return
        self._cancel_deadline()
        self._deadline_at = when
        self._deadline = self._deadlines.arm(when, self)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadlines.cancel(self._deadline)
        self._deadline = self._deadline_at = None

    def deadline_due(self) -> None:
        """Its deadline is due (:class:`Deadlines`): a ping, a timeout, or a deadline armed again."""
        self._deadline = self._deadline_at = None
        if self.closed:
            return
        nxt = next_deadline(self.limits, self._hello_seen, self._connected_at, self._frame_started,
                            self._last_heard, self._ping_sent)
        now = self._clock.now()
        if nxt is None:
            return
        when, kind = nxt
        if when > now:
            self._arm_deadline()
            return
        if kind == "ping":
            self._ping_sent = now
            self.tell(Ping(nonce=random.randrange(2**32)))
            self._arm_deadline()
            return
        limits = self.limits
        if kind == "hello":
            code, message = ErrorCode.NOT_HELLO_YET, f"no hello within {limits.hello_timeout:g} s of connecting"
        elif kind == "frame":
            code, message = ErrorCode.TIMEOUT, f"a frame was not finished within {limits.frame_timeout:g} s"
        else:
            code, message = ErrorCode.TIMEOUT, f"no answer to ping within {limits.ping_timeout:g} s"
        log.info("connection %s (%s): %s; closing", self.id, self.party, message)
        self.error(code, message, fatal=True)
        self.close()

    # ------------------------------------------------------------------ sending

    @property
    def party(self) -> str:
        """``player:<name>`` once named, else ``guest`` (one string while the name stays)."""
        name = self.name
        if name is not self._party_of:
            self._party_of, self._party = name, f"player:{name}" if name else "guest"
        return self._party

    @property
    def welcomed(self) -> bool:
        return self.proto.state is _READY

    def send(self, outgoing: Outgoing) -> None:
        """Send one command to this client (never blocks; a client that does not read is
        dropped): a :class:`Message`, a :class:`Packed` body, a :class:`Prepared`
        broadcast or a whole command."""
        if self.closed or self.proto.state is _CLOSED:
            return  # after bye or a fatal error nothing more is sent (PROTOCOL.md §6)
        try:
            proto = self.proto
            frame = proto.send_prepared(outgoing) if type(outgoing) is Prepared else proto.send(outgoing)
        except LocalProtocolError as exc:
            log.error("could not send %s to %s: %s", outgoing.name, self.party, exc)
            return
        self._queue_frame(frame)

    def tell(self, body: Body, re: int | None = None) -> None:
        """``body`` from the lobby to this client (``re``: the command it answers)."""
        if self.handed_on is not None and isinstance(body, Redirect):
            self.handed_on(body)
        self.send(Message(body, self.party, "lobby", re))

    def error(self, code: ErrorCode, message: str, re: int | None = None, sender: str = "lobby",
              fatal: bool = False, retry_after: float | None = None) -> None:
        metrics.REFUSED[code].inc()
        self.send(Message(Error(code=code, message=message[:500], fatal=fatal, retry_after=retry_after), self.party,
                          sender, re))

    def _queue_frame(self, frame: bytes) -> None:
        size = len(frame)
        waiting = self._out_bytes + size
        if waiting > FLUSH_AT:
            # Much to say in one turn (a burst of requests): the socket takes it now.
            self._flush()
            waiting = self._out_bytes + size
        # The transport's buffer only drains between our writes: what it held after the
        # last one bounds it, and the exact figure is only needed near the limit.
        if waiting + self._written > self.max_queued_bytes and self.queued_bytes + size > self.max_queued_bytes:
            self._drop(f"{self.queued_bytes + size} bytes would wait for it")
            return
        out = self._out
        if len(out) >= self.max_queued:
            self._drop(f"{len(out)} frames wait for it")
            return
        out.append(frame)
        self._out_bytes = waiting
        if not self._queued:
            self._queued = True
            self._batch.add(self)

    def _flush(self) -> None:
        """Write this loop turn's frames in one go (a queued your_turn timed: :func:`turn_queued`)."""
        self._queued = False
        out = self._out
        if not out:
            return
        turn_from, self._turn_from = self._turn_from, 0.0
        data = b"".join(out) if len(out) > 1 else out[0]
        out.clear()
        self._out_bytes = 0
        transport = self.transport
        if transport is None or transport.is_closing():
            return  # the peer is gone: writing on would only log asyncio's warnings
        transport.write(data)
        self._written = transport.get_write_buffer_size()
        if turn_from:
            metrics.TURN_SECONDS.observe(time.perf_counter() - turn_from)

    @property
    def queued_bytes(self) -> int:
        """Bytes waiting for this client: not yet written, and in the transport's buffer."""
        transport = self.transport
        buffered = transport.get_write_buffer_size() if transport is not None and not transport.is_closing() else 0
        return self._out_bytes + buffered

    def _drop(self, why: str) -> None:
        log.warning("%s does not read (%s); dropping the connection", self.party, why)
        self.dropped = True
        self.abort()

    # ------------------------------------------------------------------ closing

    def close(self) -> None:
        """Write what is waiting, then close (the transport sends its buffer first)."""
        if self.closed:
            return
        self._flush()
        self.closed = True
        self._cancel_deadline()
        if self.transport is not None:
            self.transport.close()

    def abort(self) -> None:
        """Close at once, dropping anything waiting."""
        self.closed = True
        self._cancel_deadline()
        self._out.clear()
        self._out_bytes = 0
        if self.transport is not None:
            self.transport.abort()

    async def wait_closed(self) -> None:
        """Until the connection is gone (the transport told us so)."""
        if self._gone:
            return
        if self._lost is None:
            self._lost = self._loop.create_future()
        await asyncio.shield(self._lost)
