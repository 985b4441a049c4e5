"""A connection to a Scopa server that outlives its TCP stream: who we are, and getting back.

:class:`Link` says hello (``name2``, ``name3``… when the name is taken), keeps the seat
this client holds (its token, chosen by the client itself when it joins or creates a
table) and wins a lost connection back (docs/PROTOCOL.md §7): a new stream with
exponential backoff, then ``hello`` with ``resume`` to the seat or a plain ``hello`` to
the lobby.  Listeners hear of every loss and return at once (for a user interface).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import ssl
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Self

from scopa.protocol import (
    DEFAULT_PORT,
    LOBBY,
    Bye,
    Command,
    Connection,
    ConnectionRole,
    Error,
    ErrorCode,
    Hello,
    Joined,
    Left,
    ResumeRequest,
    Welcome,
    YourTurn,
)
from scopa.protocol.servers import ServerAddress, parse_server_address
from scopa.protocol.commands import Redirect

from .addresses import Addresses
from .channel import MAX_REDIRECTS, Channel, ConnectionLost, ServerRefused, Unreachable, Why, _Inbox
from .clock import Clock, SystemClock
from .trust import ServerTrust, Streams, open_stream, speaks_tls
from .liveness import LinkListener, LinkStatus

CLIENT_SOFTWARE = "scopa-client 0.1"
_MAX_NAME = 24


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host:port`` (or ``host``, or ``:port``) → ``(host, port)``; ValueError if bad
    (a ``tls://`` address too: :func:`~scopa.protocol.servers.address.parse_server_address` reads those)."""
    where = parse_server_address(text, default_port)
    if where.tls:
        raise ValueError(f"{text!r} is a TLS address: this command connects over plain TCP only")
    return where.host, where.port


def parse_servers(text: str, default_port: int = DEFAULT_PORT) -> list[ServerAddress]:
    """``host1:port,host2:port`` (one server, or members of one cluster; ``tls://`` ones
    too) → their addresses, each read by
    :func:`~scopa.protocol.servers.address.parse_server_address`; ValueError if one is bad or none given.

    >>> [str(a) for a in parse_servers("10.0.0.1:7015, tls://10.0.0.2")]
    ['10.0.0.1:7015', 'tls://10.0.0.2:7015']
    """
    found = [parse_server_address(part, default_port) for part in text.split(",") if part.strip()]
    if not found:
        raise ValueError(f"no server in {text!r}: use HOST:PORT, or several: HOST:PORT,HOST:PORT")
    return found


def name_variants(name: str) -> Iterable[str]:
    """``ada``, then ``ada2``, ``ada3`` … (cut to the 24-character limit)."""
    yield name[:_MAX_NAME]
    n = 2
    while True:
        suffix = str(n)
        yield name[: _MAX_NAME - len(suffix)] + suffix
        n += 1


class Link(Channel):
    """A :class:`Channel` that knows who it is on the server and reconnects.  Use
    :meth:`connect` (or :meth:`resume_seat`) to make one."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 clock: Clock | None = None) -> None:
        super().__init__(reader, writer, clock)
        self.name: str = ""
        self.party: str = ""
        self.motd: str = ""
        self.server: str = ""
        self.turn_timeout: float | None = None
        """The server's turn clock (``welcome``): the longest a table may ask for; None: not told."""
        self.reading_time: float | None = None
        """The seconds more each seat's first turn of a round gets (``welcome``); None: not told."""
        self.web_port: int | None = None
        """The port of the server's web page on the host reached (``welcome``); None: it serves none."""
        self.lan_hosts: tuple[str, ...] = ()
        """Where other machines reach the server (``welcome``); none from a server on loopback only."""
        self.table_id: str | None = None
        self.seat: int | None = None
        self.token: str | None = None  # the seat token (kept in memory only, to resume)
        self.joined: Joined | None = None  # the last `joined` (fresh or resumed)
        self.invite: str | None = None  # the invite code of the private table created last
        self._watch_invite: str | None = None  # the invite of the table watched (to watch it again)
        self.host, self.port, self.client = "", 0, CLIENT_SOFTWARE
        self.tls = False
        """The server speaks TLS (a ``tls://`` address), checked by :attr:`trust`."""
        self.trust: ServerTrust | None = None
        """How a TLS server's certificate is checked (None: the user's pins, client/net/trust.py)."""
        self.fingerprint: str | None = None
        """The fingerprint the server announced on the LAN, if it was found there."""
        self.addresses = Addresses([])
        """Where this session can reach its server: the addresses given, then, in a
        cluster, those its members named; tried in turn when one cannot be reached."""
        self.watching: str | None = None  # the table watched (in a cluster, its member is watched closely)
        self._unwatching: str | None = None  # the watched table asked to be let go (its `left` not here yet)
        self._hurry_when = self._hurry
        self.reconnect_for = 600.0
        """Seconds to keep trying to get back to a seat after the connection is lost; 0: do
        not reconnect.  Past the server's grace period a bot plays the seat, and the
        person's token still takes it back while the game runs."""
        self.first_backoff, self.max_backoff = 0.1, 5.0
        self.reconnects = 0  # how many times this session got its seat back
        self._password: str | None = None  # a claimed name's password, for reconnecting
        self.proxied_for: str | None = None
        """Sent in every hello by a front end (a web host in front of the server): whom this connection is for."""

    # ------------------------------------------------------------------ connecting
    @classmethod
    async def connect(
        cls, host: str, port: int, name: str, *, client: str = CLIENT_SOFTWARE, attempts: int = 20,
        clock: Clock | None = None, listener: LinkListener | None = None, password: str | None = None,
        proxied_for: str | None = None, tls: bool = False, trust: ServerTrust | None = None,
        fingerprint: str | None = None, others: Sequence[ServerAddress] = (),
    ) -> Self:
        """Open a connection and say hello as ``name`` (``name2``, ``name3``… if taken;
        with the ``password`` of a claimed name, only ``name`` itself).  ``clock``: what
        the liveness check and the reconnect backoff wait on (tests pass a fake one);
        ``listener``: added with :meth:`add_listener` before the first byte is sent;
        ``proxied_for``: see :attr:`proxied_for`; ``tls``, ``trust``, ``fingerprint``: a TLS
        server, and how its certificate is checked (client/net/trust.py).  Nothing is sent
        before the certificate is accepted (else :class:`CertificateRefused`).  ``others``:
        more addresses of the same server or cluster, tried in turn when this one cannot be
        reached."""
        addresses = Addresses([ServerAddress(host, port, tls, fingerprint), *others])
        reader, writer, where = await _open_first(addresses.given, trust, clock or SystemClock())
        session = cls(reader, writer, clock)
        session.host, session.port, session.client = where.host, where.port, client
        session.tls, session.trust, session.fingerprint = where.tls, trust, where.fingerprint
        session.addresses = addresses
        session.proxied_for = proxied_for
        if listener is not None:
            session.add_listener(listener)
        session._start_tasks()
        try:
            session._password = password
            try:
                await session._hello(name, client, 1 if password else attempts, password)
            except ConnectionLost:  # lost during the hello: the server is there, try again
                if not where.tls and await speaks_tls(where.host, where.port):
                    raise ConnectionLost(f"the server at {where} speaks TLS: connect to tls://{where}",
                                         (Unreachable("speaks_tls", str(where)),)) from None
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
                self.turn_timeout = reply.body.turn_timeout
                self._learn(reply.body)
                return
            assert isinstance(reply.body, Error)
            if reply.body.code is not ErrorCode.NAME_TAKEN:
                raise ServerRefused.of(reply.body)
        raise ServerRefused(ErrorCode.NAME_TAKEN, f"no free name like {name!r} after {attempts} tries")

    @classmethod
    async def resume_seat(
        cls, host: str, port: int, name: str, token: str, *, client: str = CLIENT_SOFTWARE,
        proxied_for: str | None = None, tls: bool = False, trust: ServerTrust | None = None,
        fingerprint: str | None = None, others: Sequence[ServerAddress] = (),
    ) -> Self:
        """Open a connection straight back to a seat (a restarted client with a saved
        seat token): ``hello`` with ``resume``.  ServerRefused (``bad_token``) if the
        seat is gone.  ``tls``, ``trust``, ``fingerprint``, ``others``: as for :meth:`connect`."""
        addresses = Addresses([ServerAddress(host, port, tls, fingerprint), *others])
        reader, writer, where = await _open_first(addresses.given, trust, SystemClock())
        session = cls(reader, writer)
        session.host, session.port, session.client = where.host, where.port, client
        session.tls, session.trust, session.fingerprint = where.tls, trust, where.fingerprint
        session.addresses = addresses
        session.name, session.token = name, token
        session.proxied_for = proxied_for
        session._start_tasks()
        try:
            await session._resume_hello()
        except BaseException:
            await session.close()
            raise
        return session
    # ------------------------------------------------------------------ the seat
    def _pending_seat(self, token: str | None) -> None:
        """A join or create under way with our own ``token``: a lost connection resumes
        with it (seat given) or learns ``bad_token`` (no seat: ask again)."""
        self.table_id = self.seat = None
        self.token = token
        self.last_event = 0

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
        try:
            await self._greet_lobby()
        except ServerRefused as exc:
            if exc.code is not ErrorCode.UNAVAILABLE:
                raise
            # a cluster's member cut off from the others (or stopping): another one, or later
            raise ConnectionLost(f"{exc.message} ({exc.code.value})") from None

    async def _greet_lobby(self) -> None:
        """A plain ``hello`` under our name (a claimed one with its password)."""
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
        """``hello`` with ``resume`` (and the seat's table: a cluster's member that does
        not serve it sends us to the one that does, and we say it there)."""
        assert self.token is not None
        ticket: str | None = None
        for _ in range(MAX_REDIRECTS + 1):
            hello = Hello(name=self.name or "player", client=self.client, proxied_for=self.proxied_for, ticket=ticket,
                          resume=ResumeRequest(token=self.token, last_event=self.last_event, table=self.table_id))
            seq = self._send(hello, str(LOBBY))
            reply = await self._reply_to(seq)
            if not isinstance(reply.body, Redirect):
                break
            await self._go_to(reply.body.address)
            ticket = reply.body.ticket
        else:
            raise ConnectionLost(f"sent on from server to server more than {MAX_REDIRECTS} times")
        if isinstance(reply.body, Error) and reply.body.code is ErrorCode.UNAVAILABLE:
            raise ConnectionLost(f"the table is between two servers: {reply.body.message}")  # try again soon
        if isinstance(reply.body, Error) and reply.body.code is ErrorCode.RATE_LIMITED:
            await self.clock.sleep(reply.body.retry_after or 1.0)  # the seat was resumed often lately: wait, retry
            raise ConnectionLost(f"the server asked us to wait: {reply.body.message}")
        if isinstance(reply.body, Error):
            raise ServerRefused.of(reply.body)
        assert isinstance(reply.body, Welcome)
        self.party, self.turn_timeout = reply.body.you, reply.body.turn_timeout
        self.name = self.party.split(":", 1)[1]
        self._learn(reply.body)
        joined = await self._reply_to(seq)
        if isinstance(joined.body, Joined):
            self._seated(joined.body)

    async def _follow(self, redirect: Redirect) -> None:
        """A cluster's member sends us to the one that serves the table: connect there and
        say ``hello`` with the ticket (our name is ours there at once)."""
        await self._go_to(redirect.address)
        seq = self._send(Hello(name=self.name or "player", client=self.client, proxied_for=self.proxied_for,
                               ticket=redirect.ticket), str(LOBBY))
        reply = await self._reply_to(seq)
        if isinstance(reply.body, Error):
            raise ServerRefused.of(reply.body)
        assert isinstance(reply.body, Welcome)
        self.party, self.motd, self.server = reply.body.you, reply.body.motd, reply.body.server
        self.turn_timeout = reply.body.turn_timeout
        self._learn(reply.body)

    async def _receive(self) -> Command:
        """The next command; a ``redirect`` that answers nothing we asked (``re`` nil: a
        tournament's table on another member, PROTOCOL.md §16) is followed here, so
        whoever waits for the seat finds it: we connect there with the ticket and that
        member seats us on arrival (``tournament_table``, ``joined``; nothing is sent
        again).  When that fails, the connection counts as lost (reconnecting to any
        member sends us on again within the grace period)."""
        while True:
            command = await super()._receive()
            if not isinstance(command.body, Redirect) or command.re is not None:
                return command
            try:
                await self._follow(command.body)
            except (ConnectionLost, ServerRefused) as exc:
                self._lost(f"could not go on to {command.body.address}: {exc}")
                self._writer.close()

    def _learn(self, welcome: Welcome) -> None:
        """The cluster's addresses a ``welcome`` named (a malformed one is passed over), its web
        page's port and its reading time."""
        self.web_port, self.reading_time = welcome.web_port, welcome.reading_time
        self.lan_hosts = tuple(welcome.lan_hosts)
        learned = []
        for text in welcome.cluster:
            with contextlib.suppress(ValueError):
                learned.append(parse_server_address(text, self.port))
        self.addresses.learn(learned)

    def _hurry(self) -> bool:
        """In a cluster, at a table or watching one: a silent member has handed its tables
        on within seconds, so its silence is noticed sooner (PROTOCOL.md §7, "Liveness")."""
        return self.addresses.cluster and (self.table_id is not None or self.token is not None
                                           or self.watching is not None)

    def _here(self) -> ServerAddress:
        """The address of the current (or last) connection."""
        return ServerAddress(self.host, self.port, self.tls, self.fingerprint)

    def _dead(self, reason: str) -> None:
        self.addresses.shunned = self._here()  # silent: tried last from now on
        super()._dead(reason)

    async def _go_to(self, address: str) -> None:
        """Leave this connection (``bye``) for a new one to ``address`` (ConnectionLost
        if it cannot be reached: then the next try starts from the known addresses)."""
        with contextlib.suppress(Exception):
            self._send(Bye(reason="sent to another server of the cluster"), str(LOBBY))
            await self._writer.drain()
        where = parse_server_address(address, self.port)
        await self._reopen(ServerAddress(where.host, where.port, where.tls))

    async def _with_backoff(self, greet: Callable[[], Awaitable[None]], failure: str) -> None:
        """Reopen the connection and ``greet`` the server until it works, waiting
        ``first_backoff`` doubling up to ``max_backoff`` between tries, for at most
        ``reconnect_for`` seconds (then ConnectionLost), all on :attr:`clock`."""
        deadline = self.clock.now() + self.reconnect_for
        delay = self.first_backoff
        last_error = self._closed_reason
        unreachable: tuple[Unreachable, ...] = ()
        while True:
            try:
                await self._reopen()
                try:
                    await greet()
                except ConnectionLost:
                    self.addresses.shunned = self._here()  # no answer there: others first
                    raise
                self.addresses.shunned = None
                self.reconnects += 1
                for observer in self.link_observers:
                    observer(True, "")
                return
            except ConnectionLost as exc:
                last_error, unreachable = str(exc), exc.unreachable
            if self.clock.now() + delay > deadline:
                raise ConnectionLost(f"{failure}: {last_error}", unreachable)
            await self.clock.sleep(delay)
            delay = min(delay * 2, self.max_backoff)

    async def _reopen(self, only: ServerAddress | None = None) -> None:
        """A new TCP connection in place of the lost one, to ``only`` or else to the
        first known address that takes one (:meth:`Addresses.order`); keeps what is still
        to be handled of the old one (but not a your_turn: the server sends it again)."""
        await self._stop_reading()
        kept = list(self._backlog)
        while not self._inbox.empty():
            item = self._inbox.get_nowait()
            if isinstance(item, Command):
                kept.append(item)
        self._backlog = deque(c for c in kept if c.re is None and not isinstance(c.body, YourTurn)
                              and (c.sender.startswith("table:") or isinstance(c.body, Left)))
        order = [only] if only is not None else self.addresses.order(self._here())
        reader, writer, where = await _open_first(order, self.trust, self.clock)
        self.host, self.port, self.tls, self.fingerprint = where.host, where.port, where.tls, where.fingerprint
        self._reader, self._writer = reader, writer
        self._conn = Connection(ConnectionRole.CLIENT)
        self._inbox = _Inbox()
        self._replies.clear()  # a new connection numbers its requests anew
        self._lost_event = asyncio.Event()
        self._closed_reason = None
        self._start_tasks()


async def _open(where: ServerAddress, trust: ServerTrust | None) -> Streams:
    """A stream to ``where``; ConnectionLost when it cannot be opened."""
    try:
        return await open_stream(where, trust)
    except ssl.SSLError as exc:
        raise ConnectionLost(f"cannot connect to {where}: the TLS handshake failed ({exc.reason or exc}); a server "
                             f"without TLS is reached at {where.host_port}, without tls://",
                             (Unreachable("tls_failed", where.host_port),)) from None
    except OSError as exc:
        why: Why = ("unknown_host" if isinstance(exc, socket.gaierror) else
                    "refused" if isinstance(exc, ConnectionRefusedError) else "unreachable")
        raise ConnectionLost(f"cannot connect to {where}: {exc.strerror or exc}", (Unreachable(why, str(where)),)) from None


CONNECT_TIMEOUT = 5.0
"""Seconds an address has to take a connection before the next one is tried."""


async def _open_first(order: Sequence[ServerAddress], trust: ServerTrust | None,
                      clock: Clock) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, ServerAddress]:
    """A stream to the first address of ``order`` that takes one within
    :data:`CONNECT_TIMEOUT`, and that address; ConnectionLost naming each failure if none does."""
    failures = []
    unreachable: list[Unreachable] = []
    for where in order:
        try:
            async with clock.timeout(CONNECT_TIMEOUT):
                reader, writer = await _open(where, trust)
        except TimeoutError:
            failures.append(f"cannot connect to {where}: no answer within {CONNECT_TIMEOUT:g} s")
            unreachable.append(Unreachable("no_answer", str(where)))
            continue
        except ConnectionLost as exc:
            failures.append(str(exc))
            unreachable.extend(exc.unreachable)
            continue
        return reader, writer, where
    raise ConnectionLost("; ".join(failures), tuple(unreachable))


def new_token() -> str:
    """A seat token chosen by the client (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)
