"""A client connection to a Scopa server: lobby calls and games driven by a local Player.

:class:`ClientSession` speaks the protocol of docs/PROTOCOL.md over an asyncio TCP
stream, through the sans-I/O :class:`~scopa.protocol.Connection`.  A background task
reads the stream, answers ``ping`` at once (even while a person is thinking at a
prompt) and queues every other command.  Lobby calls send one command and wait for the
reply that names it in ``re``; anything else that arrives meanwhile (a ``game_start``,
a ``table_update``) is kept, in order, for :meth:`ClientSession.play_game`, which
turns the table's commands into engine events for any :class:`~scopa.engine.Player`
(a bot, the terminal player), so the same Player runs locally and over TCP::

    async with await ClientSession.connect("127.0.0.1", 7015, "ada") as session:
        await session.create_table(preset="scopa", fill_with_bots=["greedy"])
        result = await session.play_game(GreedyBot())
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from types import TracebackType
from typing import TypeVar

from pydantic import ValidationError

from scopa.engine import Player, RuleSet
from scopa.protocol import (
    LOBBY,
    Body,
    Bye,
    Chat,
    Command,
    Connection,
    ConnectionRole,
    CreateTable,
    Error,
    ErrorCode,
    Hello,
    JoinTable,
    Joined,
    LeaveTable,
    Left,
    ListTables,
    Ping,
    Pong,
    ProtocolError,
    ResumeRequest,
    Snapshot,
    TableCreated,
    TableEvent,
    TableInfo,
    Tables,
    TableUpdate,
    UnwatchLobby,
    UnwatchTable,
    WatchLobby,
    WatchTable,
    Welcome,
    YourTurn,
)

from .game import GameResult, GameTranslator
from .notices import SeatNotice

CLIENT_SOFTWARE = "scopa-client 0.1"
DEFAULT_PORT = 7015
_MAX_NAME = 24


class SessionError(Exception):
    """Base of the client's errors."""


class ConnectionLost(SessionError):
    """The server closed the connection (or said ``bye``, or sent a fatal error)."""


class ServerRefused(SessionError):
    """The server answered a request with an ``error``; ``code`` is its ErrorCode."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


T = TypeVar("T")

_CLOSED = object()  # queue sentinel: the stream ended


def _lobby_update(command: Command) -> bool:
    return isinstance(command.body, TableUpdate) and command.sender == str(LOBBY)


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host:port`` (or ``host``, or ``:port``) → ``(host, port)``; ValueError if bad."""
    host, sep, port = text.strip().rpartition(":")
    if not sep:
        host, port = port, ""
    host = host.strip("[]") or "127.0.0.1"
    if not port:
        return host, default_port
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad port in {text!r}: use HOST:PORT, e.g. 127.0.0.1:{default_port}")
    return host, int(port)


def name_variants(name: str) -> Iterable[str]:
    """``ada``, then ``ada2``, ``ada3`` … (cut to the 24-character limit)."""
    yield name[:_MAX_NAME]
    n = 2
    while True:
        suffix = str(n)
        yield name[: _MAX_NAME - len(suffix)] + suffix
        n += 1


class ClientSession:
    """One connection to a server, after the welcome.  Use :meth:`connect` to make one."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._conn = Connection(ConnectionRole.CLIENT)
        self._inbox: asyncio.Queue[Command | object] = asyncio.Queue()
        self._backlog: deque[Command] = deque()
        self._closed_reason: str | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._lost_event = asyncio.Event()
        self.name: str = ""
        self.party: str = ""
        self.motd: str = ""
        self.server: str = ""
        self.table_id: str | None = None
        self.seat: int | None = None
        self.token: str | None = None  # the seat token (kept in memory only, to resume)
        self.last_event = 0  # the highest table event number received
        self.host, self.port, self.client = "", 0, CLIENT_SOFTWARE
        self.reconnect_for = 130.0
        """Seconds to keep trying to get back to a seat after the connection is lost
        (a little over the server's default grace period); 0: do not reconnect."""
        self.first_backoff, self.max_backoff = 0.1, 5.0
        self.reconnects = 0  # how many times this session got its seat back
        self.observers: list[Callable[[Command], None]] = []
        """Called with every command the server sends (but ping and pong) as it arrives:
        a user interface follows the table (and the lobby) this way; must not block."""
        self.link_observers: list[Callable[[bool, str], None]] = []
        """Called with ``(False, reason)`` when the connection is lost and ``(True, "")``
        when it is back (reconnected)."""
        self._password: str | None = None  # a claimed name's password, for reconnecting
        self.proxied_for: str | None = None
        """Sent in every hello by a front end (``scopa web``): whom this connection is for."""

    # ------------------------------------------------------------------ connecting

    @classmethod
    async def connect(
        cls, host: str, port: int, name: str, *, client: str = CLIENT_SOFTWARE, attempts: int = 20,
        password: str | None = None, proxied_for: str | None = None,
    ) -> ClientSession:
        """Open a connection and say hello as ``name`` (``name2``, ``name3``… if taken;
        with the ``password`` of a claimed name, only ``name`` itself); ``proxied_for``:
        see :attr:`proxied_for`."""
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as exc:
            raise ConnectionLost(f"cannot connect to {host}:{port}: {exc.strerror or exc}") from None
        session = cls(reader, writer)
        session.host, session.port, session.client = host, port, client
        session.proxied_for = proxied_for
        session._reader_task = asyncio.create_task(session._read_loop(), name="scopa-client-reader")
        try:
            session._password = password
            await session._hello(name, client, 1 if password else attempts, password)
        except BaseException:
            await session.close()
            raise
        return session

    async def _hello(self, name: str, client: str, attempts: int, password: str | None = None) -> None:
        for _, candidate in zip(range(attempts), name_variants(name)):
            seq = self._send(Hello(name=candidate, client=client, password=password, proxied_for=self.proxied_for),
                             str(LOBBY))
            reply = await self._reply_to(seq)
            if isinstance(reply.body, Welcome):
                self.name, self.party = candidate, reply.body.you
                self.motd, self.server = reply.body.motd, reply.body.server
                return
            assert isinstance(reply.body, Error)
            if reply.body.code is not ErrorCode.NAME_TAKEN:
                raise ServerRefused(reply.body.code, reply.body.message)
        raise ServerRefused(ErrorCode.NAME_TAKEN, f"no free name like {name!r} after {attempts} tries")

    @classmethod
    async def resume_seat(
        cls, host: str, port: int, name: str, token: str, *, client: str = CLIENT_SOFTWARE,
        proxied_for: str | None = None,
    ) -> ClientSession:
        """Open a connection straight back to a seat (a restarted client with a saved
        seat token): ``hello`` with ``resume``.  ServerRefused (``bad_token``) if the
        seat is gone."""
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as exc:
            raise ConnectionLost(f"cannot connect to {host}:{port}: {exc.strerror or exc}") from None
        session = cls(reader, writer)
        session.host, session.port, session.client = host, port, client
        session.name, session.token = name, token
        session.proxied_for = proxied_for
        session._reader_task = asyncio.create_task(session._read_loop(), name="scopa-client-reader")
        try:
            await session._resume_hello()
        except BaseException:
            await session.close()
            raise
        return session

    async def send_chat(self, text: str, to: str = str(LOBBY)) -> None:
        """Say ``text`` to the lobby (or to a table: ``table:<id>``)."""
        self._send(Chat(text=text[:500]), to)

    async def next_command(self) -> Command:
        """The oldest command nobody has consumed yet (the lobby's pushes, chat)."""
        return await self._next()

    async def __aenter__(self) -> ClientSession:
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
        if self._reader_task is not None:
            self._reader_task.cancel()
            with contextlib.suppress(BaseException):
                await self._reader_task
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()

    @property
    def closed(self) -> bool:
        return self._closed_reason is not None

    # ------------------------------------------------------------------ the lobby

    async def list_tables(self) -> list[TableInfo]:
        """The server's tables (``list_tables`` → ``tables``)."""
        reply = await self._request(ListTables(), str(LOBBY))
        assert isinstance(reply.body, Tables)
        return list(reply.body.tables)

    async def create_table(
        self,
        rules: RuleSet | None = None,
        *,
        preset: str | None = None,
        options: Mapping[str, bool | int | str | None] | None = None,
        fill_with_bots: Iterable[str] = (),
        sit: bool = True,
    ) -> TableInfo:
        """Open a table (full ``rules``, or ``preset`` + ``options``); seated at once if ``sit``."""
        fields = {"rules": rules, "preset": preset, "options": dict(options or {}),
                  "fill_with_bots": list(fill_with_bots), "sit": sit}
        try:
            body = CreateTable.model_validate(fields, strict=False)
        except ValidationError as exc:
            raise ValueError(f"cannot ask for that table: {exc.errors()[0]['msg']}") from None
        seq = self._send(body, str(LOBBY))
        created: TableInfo | None = None
        joined = not sit
        while created is None or not joined:
            reply = await self._reply_to(seq)
            if isinstance(reply.body, Error):
                raise ServerRefused(reply.body.code, reply.body.message)
            if isinstance(reply.body, TableCreated):
                created = reply.body.table
            elif isinstance(reply.body, Joined):
                self._seated(reply.body)
                joined = True
        return created

    async def join_table(self, table_id: str) -> Joined:
        """Take the lowest free seat at ``table_id``."""
        reply = await self._request(JoinTable(table=table_id), str(LOBBY))
        assert isinstance(reply.body, Joined)
        self._seated(reply.body)
        return reply.body

    async def leave_table(self) -> Left | None:
        """Leave the current table (a game in progress is abandoned)."""
        if self.table_id is None:
            return None
        reply = await self._request(LeaveTable(table=self.table_id), str(LOBBY))
        assert isinstance(reply.body, Left)
        self._unseated()
        return reply.body

    def _seated(self, joined: Joined) -> None:
        self.table_id, self.seat, self.token = joined.table, joined.seat, joined.token

    def _unseated(self) -> None:
        self.table_id = self.seat = self.token = None
        self.last_event = 0
        # What a finished table still sent us is of no use at the next one.
        self._backlog = deque(c for c in self._backlog if not c.sender.startswith("table:"))

    # ------------------------------------------------------------------ reconnecting

    async def resume(self) -> None:
        """Get back to our seat after the connection was lost: reconnect with exponential
        backoff (``first_backoff`` doubling up to ``max_backoff``) for ``reconnect_for``
        seconds, then ``hello`` with ``resume={token, last_event}``.  What the server
        resends (missed events or a snapshot, the pending your_turn) is queued for
        :meth:`play_game`.  Raises ConnectionLost when time runs out, ServerRefused
        (``bad_token``) when the seat is gone."""
        if self.token is None:
            raise ConnectionLost(f"connection closed: {self._closed_reason}")
        await self._with_backoff(self._resume_hello, "could not get back to the table")

    async def reconnect(self) -> None:
        """After a lost connection: back to our seat (:meth:`resume`) or, when not seated,
        back to the lobby under the same name, retrying with the same backoff."""
        if self.token is not None:
            await self.resume()
            return
        # The server may not have noticed the old connection yet: then our name is still
        # taken for a moment, and a variant of it serves.
        await self._with_backoff(lambda: self._hello(self.name or "player", self.client, attempts=5,
                                                        password=self._password),
                                 "could not reconnect")

    async def _resume_hello(self) -> None:
        assert self.token is not None
        hello = Hello(name=self.name or "player", client=self.client, proxied_for=self.proxied_for,
                      resume=ResumeRequest(token=self.token, last_event=self.last_event))
        seq = self._send(hello, str(LOBBY))
        reply = await self._reply_to(seq)
        if isinstance(reply.body, Error):
            raise ServerRefused(reply.body.code, reply.body.message)
        assert isinstance(reply.body, Welcome)
        self.party = reply.body.you
        self.name = self.party.split(":", 1)[1]
        joined = await self._reply_to(seq)
        if isinstance(joined.body, Joined):
            self._seated(joined.body)

    async def _with_backoff(self, greet: Callable[[], Awaitable[None]], failure: str) -> None:
        """Reopen the connection and ``greet`` the server until it works, waiting
        ``first_backoff`` doubling up to ``max_backoff`` between tries, for at most
        ``reconnect_for`` seconds (then ConnectionLost)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_for
        delay = self.first_backoff
        last_error = self._closed_reason
        while True:
            try:
                await self._reopen()
                await greet()
                self.reconnects += 1
                for observer in self.link_observers:
                    observer(True, "")
                return
            except ConnectionLost as exc:
                last_error = str(exc)
            if loop.time() + delay > deadline:
                raise ConnectionLost(f"{failure}: {last_error}")
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_backoff)

    async def _reopen(self) -> None:
        """A new TCP connection in place of the lost one; keeps what is still to be
        handled of the old one (but not a your_turn: the server sends it again)."""
        if self._reader_task is not None:
            self._reader_task.cancel()
            with contextlib.suppress(BaseException):
                await self._reader_task
        self._writer.close()
        kept = list(self._backlog)
        while not self._inbox.empty():
            item = self._inbox.get_nowait()
            if isinstance(item, Command):
                kept.append(item)
        self._backlog = deque(c for c in kept if (c.sender.startswith("table:") or isinstance(c.body, Left))
                              and c.re is None and not isinstance(c.body, YourTurn))
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port)
        except OSError as exc:
            raise ConnectionLost(f"cannot connect to {self.host}:{self.port}: {exc.strerror or exc}") from None
        self._reader, self._writer = reader, writer
        self._conn = Connection(ConnectionRole.CLIENT)
        self._inbox = asyncio.Queue()
        self._lost_event = asyncio.Event()
        self._closed_reason = None
        self._reader_task = asyncio.create_task(self._read_loop(), name="scopa-client-reader")

    # ------------------------------------------------------------------ watching

    async def watch_table(self, table_id: str) -> Snapshot:
        """Watch a table: its public snapshot (then public events, see :meth:`watch`)."""
        reply = await self._request(WatchTable(table=table_id), str(LOBBY))
        assert isinstance(reply.body, Snapshot)
        return reply.body

    async def unwatch_table(self, table_id: str) -> Left:
        reply = await self._request(UnwatchTable(table=table_id), str(LOBBY))
        assert isinstance(reply.body, Left)
        return reply.body

    async def watch(self, table_id: str, show: Callable[[Command], Awaitable[None] | None]) -> Left:
        """Pass each public command of the watched table to ``show`` until ``left``."""
        while True:
            command = await self._next()
            ours = command.sender == f"table:{table_id}"
            if not ours and not (isinstance(command.body, Left) and command.body.table == table_id):
                continue
            shown = show(command)
            if shown is not None:
                await shown
            if isinstance(command.body, Left):
                return command.body

    # ------------------------------------------------------------------ the lobby, live

    async def watch_lobby(self) -> list[TableInfo]:
        """Subscribe to the lobby: the tables now; then every change to a listed table
        arrives as a ``table_update`` (see :meth:`next_lobby_update`)."""
        reply = await self._request(WatchLobby(), str(LOBBY))
        assert isinstance(reply.body, Tables)
        return list(reply.body.tables)

    async def unwatch_lobby(self) -> list[TableInfo]:
        """No more lobby updates; the tables as they are now."""
        reply = await self._request(UnwatchLobby(), str(LOBBY))
        assert isinstance(reply.body, Tables)
        self._backlog = deque(c for c in self._backlog if not _lobby_update(c))
        return list(reply.body.tables)

    async def next_lobby_update(self, timeout: float | None = None) -> TableInfo | None:
        """The next table change the lobby told us of (state ``closed``: the table is
        gone); None if none came within ``timeout`` seconds."""
        found = await self._peek(_lobby_update, timeout)
        if found is None:
            return None
        self._backlog.remove(found)
        assert isinstance(found.body, TableUpdate)
        return found.body.table

    async def wait_for_game_start(self, timeout: float | None = None) -> bool:
        """Whether the table's ``game_start`` has arrived (waiting up to ``timeout`` s)."""
        return await self._peek(lambda c: c.name == "game_start", timeout) is not None

    async def play_game(
        self, player: Player, on_notice: Callable[[SeatNotice], Awaitable[None] | None] | None = None
    ) -> GameResult:
        """Play one game at the current table with ``player`` choosing the moves.

        Waits for the game to start (the table's last seat to fill), then turns every
        command into engine events for ``player.notify``, ``your_turn`` into
        ``player.choose`` and a refused move into ``player.rejected``.  Returns when the
        game ends, after the server has sent us back to the lobby.  ``on_notice`` is
        told when a seat goes away, comes back or is taken over by a bot.
        """
        if self.table_id is None or self.seat is None:
            raise SessionError("not seated at a table: create_table or join_table first")
        game = GameTranslator(player, self.seat, self.table_id, on_notice)
        while not game.over:
            command: Command | None = None
            try:
                command = await self._next()
                reply = await self._unless_lost(game.handle(command))
                if reply is not None:
                    body, recipient, re = reply
                    self._send(body, recipient, re=re)
                elif isinstance(command.body, Left) and command.body.table == self.table_id:
                    self._unseated()
                    return game.result(command.body.reason)
            except ConnectionLost:
                if self.token is None or self.reconnect_for <= 0:
                    raise
                if command is not None and not isinstance(command.body, YourTurn):
                    self._backlog.appendleft(command)  # not handled yet: after the reconnect
                await self.resume()
        # After game_end the server sends `left` (game_over): wait for it so that the
        # next lobby call does not race with the table letting us go.
        left = await self._peek(lambda c: isinstance(c.body, Left), timeout=10.0)
        if left is not None:
            self._backlog.remove(left)
        self._unseated()
        reason = left.body.reason if left is not None and isinstance(left.body, Left) else None
        return game.result(reason)

    # ------------------------------------------------------------------ plumbing

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
        reply = await self._reply_to(self._send(body, recipient))
        if isinstance(reply.body, Error):
            raise ServerRefused(reply.body.code, reply.body.message)
        return reply

    async def _reply_to(self, seq: int) -> Command:
        """The next command answering our command ``seq``; others are kept for later."""
        found = await self._peek(lambda c: c.re == seq)
        assert found is not None
        self._backlog.remove(found)
        return found

    async def _peek(self, match: Callable[[Command], bool], timeout: float | None = None) -> Command | None:
        """The first kept or incoming command that ``match``es, left in the backlog."""
        for command in self._backlog:
            if match(command):
                return command
        try:
            async with asyncio.timeout(timeout):
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
                self._writer.write(self._conn.send_body(Pong(nonce=body.nonce), recipient=command.sender, re=command.seq))
            return True
        if isinstance(body, Pong):
            return True
        if isinstance(body, Bye):
            self._lost(f"the server said bye ({body.reason or 'no reason given'})")
            return False
        if isinstance(body, Error) and body.fatal:
            self._lost(f"the server ended the connection: {body.code.value}: {body.message}")
            return False
        for observer in self.observers:
            observer(command)
        if isinstance(body, Snapshot):
            self.last_event = body.event  # numbering may have jumped (a server restart)
        elif isinstance(body, TableEvent) and command.sender.startswith("table:"):
            self.last_event = max(self.last_event, body.event)
        self._inbox.put_nowait(command)
        return True

    def _lost(self, reason: str) -> None:
        if self._closed_reason is None:
            self._closed_reason = reason
            for observer in self.link_observers:
                observer(False, reason)
        self._inbox.put_nowait(_CLOSED)
        self._lost_event.set()
