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

A lost connection is won back by the session itself in every phase (docs/PROTOCOL.md
§7): a lobby call is asked again on a new connection; a seat (at a waiting table, in a
game, just after one) is resumed with its token, which the session chooses itself when
it joins or creates a table, so even a connection lost before ``joined`` arrived ends
with the seat or with certainty that there was none.  A silent link is noticed by a
:class:`~scopa.client.liveness.Watchdog`; :meth:`ClientSession.add_listener` hears
of every loss and return at once (for a user interface).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from types import TracebackType
from typing import TypeVar

from pydantic import ValidationError

from scopa.engine import Player, RuleSet
from scopa.protocol import (
    DEFAULT_PORT,
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
    GameStart,
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
    SeatBack,
    Snapshot,
    TableCreated,
    event_number,
    TableInfo,
    TableState,
    Tables,
    TableState,
    TableUpdate,
    UnwatchLobby,
    UnwatchTable,
    WatchLobby,
    WatchTable,
    Welcome,
    YourTurn,
)
from .clock import Clock, SystemClock
from scopa.protocol.convert import rules_from_wire, rules_to_wire

from .game import GameResult, GameTranslator
from .liveness import DEAD_AFTER, PING_AFTER, LinkEvent, LinkListener, LinkStatus, Watchdog
from .notices import SeatNotice

CLIENT_SOFTWARE = "scopa-client 0.1"
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


class _Inbox(asyncio.Queue[object]):
    """The queue of received commands, which can also say what is waiting in it."""

    _queue: deque[object]  # asyncio.Queue's own store (its _init makes it)

    def waiting(self) -> list[object]:
        return list(self._queue)


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

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 clock: Clock | None = None) -> None:
        self._reader = reader
        self._writer = writer
        self._conn = Connection(ConnectionRole.CLIENT)
        self._inbox: _Inbox = _Inbox()
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
        self.invite: str | None = None  # the invite code of the private table created last
        self._watch_invite: str | None = None  # the invite of the table watched (to watch it again)
        self.last_event = 0  # the highest table event number received
        self.host, self.port, self.client = "", 0, CLIENT_SOFTWARE
        self.reconnect_for = 130.0
        """Seconds to keep trying to get back to a seat after the connection is lost
        (a little over the server's default grace period); 0: do not reconnect."""
        self.first_backoff, self.max_backoff = 0.1, 5.0
        self.reconnects = 0  # how many times this session got its seat back
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
        self.joined: Joined | None = None  # the last `joined` (fresh or resumed)
        self._listeners: list[LinkListener] = []
        self._watchdog: Watchdog | None = None
        self._watchdog_task: asyncio.Task[None] | None = None
        self._password: str | None = None  # a claimed name's password, for reconnecting
        self.proxied_for: str | None = None
        """Sent in every hello by a front end (a web host in front of the server): whom this connection is for."""

    # ------------------------------------------------------------------ connecting

    @classmethod
    async def connect(
        cls, host: str, port: int, name: str, *, client: str = CLIENT_SOFTWARE, attempts: int = 20,
        clock: Clock | None = None, listener: LinkListener | None = None, password: str | None = None,
        proxied_for: str | None = None,
    ) -> ClientSession:
        """Open a connection and say hello as ``name`` (``name2``, ``name3``… if taken;
        with the ``password`` of a claimed name, only ``name`` itself).  ``clock``: what
        the liveness check and the reconnect backoff wait on (tests pass a fake one);
        ``listener``: added with :meth:`add_listener` before the first byte is sent;
        ``proxied_for``: see :attr:`proxied_for`."""
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as exc:
            raise ConnectionLost(f"cannot connect to {host}:{port}: {exc.strerror or exc}") from None
        session = cls(reader, writer, clock)
        session.host, session.port, session.client = host, port, client
        session.proxied_for = proxied_for
        if listener is not None:
            session.add_listener(listener)
        session._start_tasks()
        try:
            session._password = password
            try:
                await session._hello(name, client, 1 if password else attempts, password)
            except ConnectionLost:  # lost during the hello: the server is there, try again
                session.name = name
                await session._reconnect_or_raise()
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
        session._start_tasks()
        try:
            await session._resume_hello()
        except BaseException:
            await session.close()
            raise
        return session

    async def send_chat(self, text: str, to: str = str(LOBBY)) -> None:
        """Say ``text`` to the lobby (or to a table: ``table:<id>``)."""
        self._send(Chat(text=text[:500]), to)

    def replaying(self) -> bool:
        """Whether what is being handled now is history: the commands received but not
        handled yet include this seat's own ``seat_back``, which the server sends right
        after the events a returning seat missed (PROTOCOL.md §7, Reconnecting)."""
        if self.seat is None:
            return False
        return any(isinstance(c, Command) and isinstance(c.body, SeatBack) and c.body.seat == self.seat
                   for c in [*self._backlog, *self._inbox.waiting()])

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
        self._stop_watchdog()
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

    def add_listener(self, listener: LinkListener) -> None:
        """Call ``listener`` with a :class:`LinkEvent` the moment the connection is lost
        (``lost``), when it is back (``reconnected``) and when reconnecting gave up
        (``gave_up``).  It runs in the event loop and must not block."""
        self._listeners.append(listener)

    def _tell(self, status: LinkStatus, reason: str) -> None:
        event = LinkEvent(status, reason)
        for listener in list(self._listeners):
            listener(event)

    # ------------------------------------------------------------------ the lobby

    async def list_tables(self, state: TableState | None = None) -> list[TableInfo]:
        """The server's public tables, the first page (``list_tables`` → ``tables``);
        ``state``: only the tables in that state."""
        return list((await self.tables_page(state)).tables)

    async def tables_page(self, state: TableState | None = None, players: int | None = None,
                          after: str | None = None) -> Tables:
        """One page of the public tables (``after``: the ``next`` of the page before)."""
        while True:
            try:
                reply = await self._request(ListTables(state=state, players=players, after=after), str(LOBBY))
            except ConnectionLost:
                await self._reconnect_or_raise()
                continue
            assert isinstance(reply.body, Tables)
            return reply.body

    async def create_table(
        self,
        rules: RuleSet | None = None,
        *,
        preset: str | None = None,
        options: Mapping[str, bool | int | str | None] | None = None,
        fill_with_bots: Iterable[str] = (),
        sit: bool = True,
        private: bool = False,
        turn_timeout: float | None = None,
        no_turn_timer: bool = False,
        bot_takeover: bool = True,
    ) -> TableInfo:
        """Open a table (full ``rules``, or ``preset`` + ``options``); seated at once if ``sit``.

        If the connection is lost meanwhile, the session reconnects: seated (``sit``), it
        resumes the seat if the table was made, or asks again if it was not; without a
        seat it raises :class:`ConnectionLost` once reconnected (asking again might open
        a second table).  A ``private`` table's invite code (for :meth:`join_table` and
        :meth:`watch_table` of the people invited) is kept in :attr:`invite`.  The turn
        clock: ``turn_timeout`` seconds (None: the server's), or none at all at a private
        table (``no_turn_timer``); ``bot_takeover``: a bot plays a seat left empty past
        the grace period (else the game is abandoned)."""
        token = new_token() if sit and self.table_id is None else None
        wire_rules = rules_to_wire(rules) if rules is not None else None
        fields = {"rules": wire_rules, "preset": preset, "options": dict(options or {}),
                  "fill_with_bots": list(fill_with_bots), "sit": sit, "token": token,
                  "private": private, "turn_timeout": turn_timeout, "no_turn_timer": no_turn_timer,
                  "bot_takeover": bot_takeover}
        try:
            body = CreateTable.model_validate(fields, strict=False)
        except ValidationError as exc:
            raise ValueError(f"cannot ask for that table: {exc.errors()[0]['msg']}") from None
        if self.table_id is not None:  # seated already: the server says so
            return await self._create(body, sit)
        while True:
            if self.table_id is None:
                self._pending_seat(token)
                try:
                    return await self._create(body, sit)
                except ConnectionLost:
                    await self._reconnect_or_raise()
                    if not sit:
                        raise
                    if self.table_id is None:
                        continue  # the table was not made: ask again
                except ServerRefused:
                    self._pending_seat(None)
                    raise
            try:  # the table was made and we are back at our seat: which table is it?
                return await self._table_info_after_resume()
            except ConnectionLost:
                await self._reconnect_or_raise()

    async def _create(self, body: CreateTable, sit: bool) -> TableInfo:
        seq = self._send(body, str(LOBBY))
        created: TableInfo | None = None
        joined = not sit
        while created is None or not joined:
            reply = await self._reply_to(seq)
            if isinstance(reply.body, Error):
                raise ServerRefused(reply.body.code, reply.body.message)
            if isinstance(reply.body, TableCreated):
                created = reply.body.table
                self.invite = reply.body.invite
            elif isinstance(reply.body, Joined):
                self._seated(reply.body)
                joined = True
        return created

    async def join_table(self, table_id: str, invite: str | None = None) -> Joined:
        """Take the lowest free seat at ``table_id`` (a private table: with its ``invite``;
        after a lost connection: the seat resumed if the server gave it, else asked for
        again)."""
        if self.table_id is not None:  # seated already: the server says so
            reply = await self._request(JoinTable(table=table_id, invite=invite), str(LOBBY))
            raise SessionError(f"the server seated us twice ({reply.name})")
        token = new_token()
        while True:
            self._pending_seat(token)
            try:
                reply = await self._request(JoinTable(table=table_id, token=token, invite=invite), str(LOBBY))
            except ConnectionLost:
                await self._reconnect_or_raise()
                if self.table_id is not None and self.joined is not None:
                    return self.joined  # the join had been made: resumed
                continue
            except ServerRefused:
                self._pending_seat(None)
                raise
            assert isinstance(reply.body, Joined)
            self._seated(reply.body)
            return reply.body

    async def leave_table(self) -> Left | None:
        """Leave the current table (a game in progress is abandoned)."""
        while self.table_id is not None:
            table = self.table_id
            try:
                reply = await self._request(LeaveTable(table=table), str(LOBBY))
            except ConnectionLost:
                await self._reconnect_or_raise()
                continue  # resumed: leave again; the seat gone: left already
            assert isinstance(reply.body, Left)
            self._unseated()
            return reply.body
        return None

    def _pending_seat(self, token: str | None) -> None:
        """A join or create under way with our own ``token``: a lost connection resumes
        with it (seat given) or learns ``bad_token`` (no seat: ask again)."""
        self.table_id = self.seat = None
        self.token = token
        self.last_event = 0

    async def _table_info_after_resume(self) -> TableInfo:
        """The table we are back at after a create whose answer was lost: from the
        snapshot the server sends after ``joined`` (the table still waiting), or from
        the ``game_start`` among the missed events (its game began meanwhile)."""
        mine = f"table:{self.table_id}"
        found = await self._peek(lambda c: c.sender == mine and isinstance(c.body, (Snapshot, GameStart)))
        assert found is not None and self.table_id is not None
        if isinstance(found.body, Snapshot):
            self._backlog.remove(found)
            return found.body.table
        assert isinstance(found.body, GameStart)
        seats: list[str | None] = [None] * found.body.rules.players
        for s in found.body.seats:
            seats[s.seat] = s.name
        description = rules_from_wire(found.body.rules).describe()[:200]
        return TableInfo(id=self.table_id, rules=found.body.rules, description=description,
                         seats=seats, state=TableState.PLAYING)

    def _seated(self, joined: Joined) -> None:
        self.table_id, self.seat, self.token = joined.table, joined.seat, joined.token
        self.joined = joined

    def _unseated(self) -> None:
        self.table_id = self.seat = self.token = None
        self.joined = None
        self.last_event = 0
        # What a finished table still sent us is of no use at the next one.
        self._backlog = deque(c for c in self._backlog
                              if not c.sender.startswith("table:") and not isinstance(c.body, Left))

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
        await self._reconnecting(self._resume_hello, "could not get back to the table")

    async def reconnect(self) -> None:
        """After a lost connection: back to our seat (the token's ``hello`` resume) or,
        when not seated or the seat is gone (``bad_token``: then unseated), back to the
        lobby under the same name, retrying with the same backoff."""
        await self._reconnecting(self._greet, "could not reconnect")

    async def _greet(self) -> None:
        if self.token is not None:
            try:
                await self._resume_hello()
                return
            except ServerRefused as exc:
                if exc.code is not ErrorCode.BAD_TOKEN:
                    raise
                self._unseated()  # never seated, left already, or the seat's time is up
        # The server may not have noticed the old connection yet: then our name is still
        # taken for a moment, and a variant of it serves.
        if self._password is None:
            await self._hello(self.name or "player", self.client, attempts=5)
            return
        try:  # a claimed name is ours alone: wait until the server lets the old connection go
            await self._hello(self.name or "player", self.client, attempts=1, password=self._password)
        except ServerRefused as exc:
            if exc.code is not ErrorCode.NAME_TAKEN:
                raise
            raise ConnectionLost(f"the name {self.name!r} is still held by the lost connection") from None

    async def _reconnect_or_raise(self) -> None:
        """Reconnect after a lost connection, or re-raise it when reconnecting is off."""
        if self.reconnect_for <= 0:
            raise ConnectionLost(f"connection closed: {self._closed_reason}")
        await self.reconnect()

    async def _reconnecting(self, greet: Callable[[], Awaitable[None]], failure: str) -> None:
        try:
            await self._with_backoff(greet, failure)
        except (ConnectionLost, ServerRefused) as exc:
            self._tell(LinkStatus.GAVE_UP, str(exc))
            raise
        where = f"table {self.table_id}" if self.table_id is not None else "the lobby"
        self._tell(LinkStatus.RECONNECTED, f"back in {where} as {self.name}")

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
        ``reconnect_for`` seconds (then ConnectionLost), all on :attr:`clock`."""
        deadline = self.clock.now() + self.reconnect_for
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
            if self.clock.now() + delay > deadline:
                raise ConnectionLost(f"{failure}: {last_error}")
            await self.clock.sleep(delay)
            delay = min(delay * 2, self.max_backoff)

    async def _reopen(self) -> None:
        """A new TCP connection in place of the lost one; keeps what is still to be
        handled of the old one (but not a your_turn: the server sends it again)."""
        self._stop_watchdog()
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
        self._backlog = deque(c for c in kept if c.re is None and not isinstance(c.body, YourTurn)
                              and (c.sender.startswith("table:") or isinstance(c.body, Left)))
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port)
        except OSError as exc:
            raise ConnectionLost(f"cannot connect to {self.host}:{self.port}: {exc.strerror or exc}") from None
        self._reader, self._writer = reader, writer
        self._conn = Connection(ConnectionRole.CLIENT)
        self._inbox = _Inbox()
        self._lost_event = asyncio.Event()
        self._closed_reason = None
        self._start_tasks()

    def _start_tasks(self) -> None:
        """The reader of the current connection, and its liveness watchdog."""
        self._reader_task = asyncio.create_task(self._read_loop(), name="scopa-client-reader")
        if self.ping_after > 0 and self.dead_after > 0:
            self._watchdog = Watchdog(self.clock, self.ping_after, self.dead_after, self._ping, self._dead)
            self._watchdog_task = asyncio.create_task(self._watchdog.run(), name="scopa-client-watchdog")

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

    # ------------------------------------------------------------------ watching

    async def watch_table(self, table_id: str, invite: str | None = None) -> Snapshot:
        """Watch a table: its public snapshot (then public events, see :meth:`watch`); a
        private table: with its ``invite``."""
        reply = await self._request(WatchTable(table=table_id, invite=invite), str(LOBBY))
        assert isinstance(reply.body, Snapshot)
        self._watch_invite = invite
        return reply.body

    async def unwatch_table(self, table_id: str) -> Left:
        reply = await self._request(UnwatchTable(table=table_id), str(LOBBY))
        assert isinstance(reply.body, Left)
        return reply.body

    async def watch(self, table_id: str, show: Callable[[Command], Awaitable[None] | None]) -> Left:
        """Pass each public command of the watched table to ``show`` until ``left``.  A
        lost connection is reconnected (unless ``reconnect_for`` is 0) and the table
        watched again from the last event seen: the events missed meanwhile come first,
        then the table's snapshot; none is lost and none comes twice."""
        while True:
            try:
                command = await self._next()
            except ConnectionLost:
                await self._reconnect_or_raise()
                await self._watch_again(table_id)
                continue
            ours = command.sender == f"table:{table_id}"
            if not ours and not (isinstance(command.body, Left) and command.body.table == table_id):
                continue
            shown = show(command)
            if shown is not None:
                await shown
            if isinstance(command.body, Left):
                return command.body

    async def _watch_again(self, table_id: str) -> None:
        """``watch_table`` with ``last_event``: the missed events, then the snapshot,
        are left queued for :meth:`watch`."""
        seq = self._send(WatchTable(table=table_id, invite=self._watch_invite, last_event=self.last_event), str(LOBBY))
        reply = await self._peek(lambda c: c.re == seq)
        assert reply is not None
        if isinstance(reply.body, Error):
            self._backlog.remove(reply)
            raise ServerRefused(reply.body.code, reply.body.message)

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
        """Whether the table's ``game_start`` has arrived (waiting up to ``timeout`` s).
        A lost connection is resumed meanwhile; False if the seat was lost with it, or
        if the server closed the table (``left``: e.g. nobody came for too long)."""
        while True:
            try:
                table = self.table_id
                found = await self._peek(lambda c: c.name == "game_start" or (
                    isinstance(c.body, Left) and c.body.table == table), timeout)
                if found is not None and isinstance(found.body, Left):
                    self._unseated()
                    return False
                return found is not None
            except ConnectionLost:
                if self.token is None:
                    raise
                await self._reconnect_or_raise()
                if self.token is None:
                    return False

    async def play_game(
        self, player: Player, on_notice: Callable[[SeatNotice], Awaitable[None] | None] | None = None,
        on_snapshot: Callable[[Snapshot], Awaitable[None] | None] | None = None,
    ) -> GameResult:
        """Play one game at the current table with ``player`` choosing the moves.

        Waits for the game to start (the table's last seat to fill), then turns every
        command into engine events for ``player.notify``, ``your_turn`` into
        ``player.choose`` and a refused move into ``player.rejected``.  Returns when the
        game ends, after the server has sent us back to the lobby.  ``on_notice`` is
        told when a seat goes away, comes back or is taken over by a bot; ``on_snapshot``
        of a snapshot that stands for the events missed while away (after a restart).
        """
        if self.table_id is None or self.seat is None:
            raise SessionError("not seated at a table: create_table or join_table first")
        game = GameTranslator(player, self.seat, self.table_id, on_notice, on_snapshot)
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
        left = await self._left_after_the_end(self.table_id)
        if left is not None:
            self._backlog.remove(left)
        self._unseated()
        reason = left.body.reason if left is not None and isinstance(left.body, Left) else None
        return game.result(reason)

    async def _left_after_the_end(self, table: str | None) -> Command | None:
        """The table's ``left`` after its ``game_end`` (a lost connection resumes for it)."""
        while True:
            try:
                return await self._peek(lambda c: isinstance(c.body, Left) and c.body.table == table, timeout=10.0)
            except ConnectionLost:
                await self._reconnect_or_raise()
                if self.token is None:
                    return None  # the seat's time is up: nothing more to hear from the table

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
        for observer in self.observers:
            observer(command)
        if isinstance(body, Snapshot):
            self.last_event = body.event  # numbering may have jumped (a server restart)
        elif (number := event_number(body)) is not None and command.sender.startswith("table:"):
            self.last_event = max(self.last_event, number)
        self._inbox.put_nowait(command)
        return True

    def _lost(self, reason: str) -> None:
        first = self._closed_reason is None
        if first:
            self._closed_reason = reason
            for observer in self.link_observers:
                observer(False, reason)
        self._inbox.put_nowait(_CLOSED)
        self._lost_event.set()
        if first:
            self._stop_watchdog_soon()
            self._tell(LinkStatus.LOST, reason)

    def _stop_watchdog_soon(self) -> None:
        task = self._watchdog_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._watchdog_task = self._watchdog = None


def new_token() -> str:
    """A seat token chosen by the client (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)
