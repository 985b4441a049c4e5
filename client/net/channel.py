"""One TCP connection to a Scopa server, as the client sees it: the bytes, the commands.

:class:`Channel` speaks the protocol of docs/PROTOCOL.md over an asyncio stream through
the sans-I/O :class:`~scopa.protocol.Connection`.  A background task reads the stream,
answers ``ping`` at once (even while a person is thinking at a prompt) and queues every
other command; a request waits for the reply that names it in ``re`` while anything
else that arrives meanwhile is kept, in order, for whoever reads next.  A silent link is
noticed by a :class:`~scopa.client.net.liveness.Watchdog`.  Getting a lost connection back
is the next layer's work (:class:`~scopa.client.net.link.Link`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Literal, NamedTuple, Self, TypeVar

from scopa.protocol import (
    LOBBY,
    Body,
    Bye,
    Command,
    Connection,
    ConnectionRole,
    Error,
    ErrorCode,
    Ping,
    Pong,
    ProtocolError,
    Snapshot,
    TableInfo,
    TableUpdate,
    event_number,
)
from scopa.protocol.commands import Redirect

from .clock import Clock, SystemClock
from .liveness import DEAD_AFTER, PING_AFTER, LinkEvent, LinkListener, LinkStatus, Watchdog
from ..game import TurnClock


MAX_REDIRECTS = 3
"""How many ``redirect``s in a row one request follows (a cluster sends a client on once)."""


class SessionError(Exception):
    """Base of the client's errors."""


Why = Literal["refused", "no_answer", "unknown_host", "unreachable", "tls_failed", "speaks_tls"]
"""Why an address could not be reached: nothing listens there, nothing answered in time,
no computer has that name, no way there, a plain server reached over TLS, a TLS server
reached without it."""


class Unreachable(NamedTuple):
    """An address a connection could not be opened to, and why (the client's text says it
    in words)."""

    why: Why
    address: str


class ConnectionLost(SessionError):
    """The server closed the connection (or said ``bye``, or sent a fatal error), or could
    not be reached: then ``unreachable`` names each address tried and why."""

    def __init__(self, message: str, unreachable: tuple[Unreachable, ...] = ()) -> None:
        super().__init__(message)
        self.unreachable = unreachable


class ServerRefused(SessionError):
    """The server answered a request with an ``error``; ``code`` is its ErrorCode."""

    def __init__(self, code: ErrorCode, message: str, retry_after: float | None = None, fatal: bool = False) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after
        """Seconds the server asked us to wait before trying again (None: it did not say)."""
        self.fatal = fatal
        """The server closed the connection after it."""

    @classmethod
    def of(cls, error: Error) -> ServerRefused:
        """The refusal an ``error`` command says."""
        return cls(error.code, error.message, error.retry_after, error.fatal)


T = TypeVar("T")

_CLOSED = object()  # queue sentinel: the stream ended
REPLY_SEQS = 64
"""Requests whose replies are kept apart (the newest): a late reply to an older one is
left with the other commands."""


class _Inbox(asyncio.Queue[object]):
    """The queue of received commands, which can also say what is waiting in it."""

    _queue: deque[object]  # asyncio.Queue's own store (its _init makes it)

    def waiting(self) -> list[object]:
        return list(self._queue)


class Channel:
    """One connection's commands: sending, replies matched to requests, what else came."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 clock: Clock | None = None) -> None:
        self._reader = reader
        self._writer = writer
        self._conn = Connection(ConnectionRole.CLIENT)
        self._inbox: _Inbox = _Inbox()
        self._backlog: deque[Command] = deque()
        self._replies: OrderedDict[int, deque[Command]] = OrderedDict()
        """The replies to each request waited for (by its ``seq``; the last REPLY_SEQS),
        kept apart from the other commands: each goes to the call that asked."""
        self._replied = asyncio.Event()  # set (and replaced) when a reply comes, or the link goes
        self._closed_reason: str | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._lost_event = asyncio.Event()
        self.last_event = 0  # the highest table event number received
        self.observers: list[Callable[[Command], object]] = []
        """Called with every command the server sends (but ping and pong) as it arrives:
        a user interface follows the table (and the lobby) this way; must not block."""
        self.link_observers: list[Callable[[bool, str], object]] = []
        """Called with ``(False, reason)`` when the connection is lost and ``(True, "")``
        when it is back (reconnected)."""
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.ping_after, self.dead_after = PING_AFTER, DEAD_AFTER
        """Liveness (PROTOCOL.md §7): ping after ``ping_after`` s of silence, give the link
        up ``dead_after`` s later if nothing came back."""
        self.turn_clock = TurnClock()
        """The turn clock of the table played or watched, as its commands tell it, from
        when each arrived (a user interface counts it down)."""
        self.table_map: TableInfo | None = None
        """The map of a table as that table last told it (``table_update``, ``snapshot``),
        heard as it came: a private table, listed nowhere, is known so too (its spectators)."""
        self._listeners: list[LinkListener] = []
        self._hurry_when: Callable[[], bool] | None = None
        """Asked by the watchdog whether to notice silence sooner now (a :class:`~scopa.client.net.link.Link` says)."""
        self._watchdog: Watchdog | None = None
        self._watchdog_task: asyncio.Task[None] | None = None

    async def next_command(self) -> Command:
        """The oldest command nobody has consumed yet (the lobby's pushes, chat)."""
        return await self._next()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self, reason: str = "bye") -> None:
        """Say ``bye`` (if the connection is still open) and close it."""
        if self._closed_reason is None:
            with contextlib.suppress(Exception):
                self._send(Bye(reason=reason[:200]), str(LOBBY))
                await self._writer.drain()
            self._closed_reason = "closed by this client"
        await self._stop_reading()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()

    @property
    def closed(self) -> bool:
        return self._closed_reason is not None

    def add_listener(self, listener: LinkListener) -> None:
        """Call ``listener`` with a :class:`LinkEvent` the moment the connection is lost
        (``lost``), when it is back (``reconnected``) and when reconnecting gave up
        (``gave_up``).  It runs in the event loop and must not block."""
        self._listeners.append(listener)

    def _tell(self, status: LinkStatus, reason: str) -> None:
        event = LinkEvent(status, reason)
        for listener in list(self._listeners):
            listener(event)
    # ------------------------------------------------------------------ liveness
    def _start_tasks(self) -> None:
        """The reader of the current connection, and its liveness watchdog."""
        self._reader_task = asyncio.create_task(self._read_loop(), name="scopa-client-reader")
        if self.ping_after > 0 and self.dead_after > 0:
            self._watchdog = Watchdog(self.clock, self.ping_after, self.dead_after, self._ping, self._dead,
                                      hurry=self._hurry_when)
            self._watchdog_task = asyncio.create_task(self._watchdog.run(), name="scopa-client-watchdog")

    async def _stop_reading(self) -> None:
        """The watchdog and the reader stopped, the stream closed (not waited for)."""
        self._stop_watchdog()
        if self._reader_task is not None:
            self._reader_task.cancel()
            with contextlib.suppress(BaseException):
                await self._reader_task
        self._writer.close()

    def _stop_watchdog(self) -> None:
        if self._watchdog_task is not None:
            self._watchdog_task.cancel()
            self._watchdog_task = None
        self._watchdog = None

    def _ping(self) -> None:
        with contextlib.suppress(ConnectionLost, ProtocolError):
            self._send(Ping(nonce=secrets.randbelow(2**32)), str(LOBBY))

    def _dead(self, reason: str) -> None:
        """The watchdog heard nothing after its ping: drop the connection (and reconnect)."""
        self._watchdog_task = None  # it ends by itself
        self._lost(reason)
        self._writer.transport.abort()

    def _stop_watchdog_soon(self) -> None:
        task = self._watchdog_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._watchdog_task = self._watchdog = None
    # ------------------------------------------------------------------ commands in and out
    async def _unless_lost(self, work: Awaitable[T]) -> T:
        """``await work``, unless the connection is lost first (a Player thinking, a
        person at the prompt): then it is cancelled and :class:`ConnectionLost` raised."""
        task = asyncio.ensure_future(work)
        lost = asyncio.ensure_future(self._lost_event.wait())
        try:
            await asyncio.wait((task, lost), return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
            if not task.done():
                task.cancel()
        if task.done() and not task.cancelled():
            return task.result()
        raise ConnectionLost(f"connection closed: {self._closed_reason}")

    def _send(self, body: Body, recipient: str, re: int | None = None) -> int:
        if self._closed_reason is not None:
            raise ConnectionLost(f"connection closed: {self._closed_reason}")
        command = self._conn.command(body, recipient=recipient, re=re)
        self._writer.write(self._conn.send(command))
        return command.seq

    async def _request(self, body: Body, recipient: str) -> Command:
        """Send ``body`` and wait for its answer (ServerRefused for an error).  A
        ``redirect`` is followed (:meth:`_follow`) and the request sent again there."""
        for _ in range(MAX_REDIRECTS + 1):
            reply = await self._reply_to(self._send(body, recipient))
            if isinstance(reply.body, Redirect):
                await self._follow(reply.body)
                continue
            if isinstance(reply.body, Error):
                raise ServerRefused.of(reply.body)
            return reply
        raise SessionError(f"sent on from server to server more than {MAX_REDIRECTS} times")

    async def _follow(self, redirect: Redirect) -> None:
        """Go where a ``redirect`` sends us (a :class:`~scopa.client.net.link.Link` can)."""
        raise SessionError(f"the server sent us to {redirect.address} for table {redirect.table}")

    async def _reply_to(self, seq: int) -> Command:
        """The next command answering our command ``seq`` (a request may have several
        replies: each call takes the next); other commands are left for their readers.
        Concurrent calls each get their own request's replies."""
        replies = self._replies.get(seq)
        if replies is None:
            replies = self._replies[seq] = deque(c for c in self._backlog if c.re == seq)
            for c in replies:
                self._backlog.remove(c)
            while len(self._replies) > REPLY_SEQS:
                self._replies.popitem(last=False)
        while not replies:
            if self._closed_reason is not None:
                raise ConnectionLost(f"connection closed: {self._closed_reason}")
            await self._replied.wait()
        return replies.popleft()

    async def _peek(self, match: Callable[[Command], bool], timeout: float | None = None) -> Command | None:
        """The first kept or incoming command that ``match``es, left in the backlog."""
        for command in self._backlog:
            if match(command):
                return command
        try:
            async with self.clock.timeout(timeout):
                while True:
                    command = await self._receive()
                    self._backlog.append(command)
                    if match(command):
                        return command
        except TimeoutError:
            return None

    async def _next(self) -> Command:
        """The oldest command not yet consumed."""
        if self._backlog:
            return self._backlog.popleft()
        return await self._receive()

    async def _receive(self) -> Command:
        item = await self._inbox.get()
        if item is _CLOSED:
            self._inbox.put_nowait(_CLOSED)  # every later read fails the same way
            raise ConnectionLost(f"connection closed: {self._closed_reason}")
        assert isinstance(item, Command)
        return item

    async def _read_loop(self) -> None:
        try:
            while True:
                data = await self._reader.read(65536)
                if not data:
                    self._lost("the server closed the connection")
                    return
                if self._watchdog is not None:
                    self._watchdog.heard()
                self._conn.feed(data)
                while True:
                    try:
                        command = self._conn.next_command()
                    except ProtocolError as exc:
                        if exc.fatal:
                            self._lost(f"unreadable data from the server: {exc.message}")
                            return
                        with contextlib.suppress(ProtocolError):
                            self._writer.write(self._conn.error_for(exc, recipient=str(LOBBY)))
                        continue
                    if command is None:
                        break
                    if not self._dispatch(command):
                        return
        except (ConnectionError, OSError) as exc:
            self._lost(f"connection error: {exc}")

    def _dispatch(self, command: Command) -> bool:
        """Handle what needs no caller; False once the connection is over."""
        body = command.body
        if isinstance(body, Ping):
            with contextlib.suppress(ProtocolError):
                reply = self._conn.reply(command)  # the protocol answers a ping itself
                if reply is not None:
                    self._writer.write(reply)
            return True
        if isinstance(body, Pong):
            return True
        if isinstance(body, Bye):
            self._lost(f"the server said bye ({body.reason or 'no reason given'})")
            return False
        if isinstance(body, Error) and body.fatal:
            self._lost(f"the server ended the connection: {body.code.value}: {body.message}")
            return False
        if command.sender.startswith("table:"):
            self.turn_clock.heard(body, self.clock.now())
            if isinstance(body, (TableUpdate, Snapshot)) and command.sender == f"table:{body.table.id}":
                self.table_map = body.table
        for observer in self.observers:
            observer(command)
        if isinstance(body, Snapshot):
            self.last_event = body.event  # numbering may have jumped (a server restart)
        elif (number := event_number(body)) is not None and command.sender.startswith("table:"):
            self.last_event = max(self.last_event, number)
        replies = self._replies.get(command.re) if command.re is not None else None
        if replies is not None:  # a call waits for it: to that call
            replies.append(command)
            self._replied.set()
            self._replied = asyncio.Event()
            return True
        self._inbox.put_nowait(command)
        return True

    def _lost(self, reason: str) -> None:
        first = self._closed_reason is None
        if first:
            self._closed_reason = reason
            self.turn_clock.stop()  # counted again from what the server says once back
            for observer in self.link_observers:
                observer(False, reason)
        self._inbox.put_nowait(_CLOSED)
        self._lost_event.set()
        self._replied.set()  # each call waiting for a reply learns the link is gone
        self._replied = asyncio.Event()
        if first:
            self._stop_watchdog_soon()
            self._tell(LinkStatus.LOST, reason)
