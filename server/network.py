"""The NetworkEngine: the asyncio TCP server, its lobby and its tables.

It holds the authoritative state of every table; each table drives its own GameMaster
(in a task of its own).  Every command a client sends is
checked against the connection it came on (``scopa.protocol.Connection`` rejects a
forged sender) and against the table it names.

The engine makes the server's parts and joins them, each knowing only those below it:
the connections and their caps (server/conn/connections.py), who sits or watches where
(server/lobby/seating.py), the lobby's feed of table updates (server/lobby/feed.py), the
tables' life from creation or restoration to closing (server/lobby/life.py), the
``hello`` (server/greeting.py), what a connection does at a table
(server/lobby/commands.py) and the routing of each command to one of them
(server/dispatch.py).  ``serve`` (server/serving.py) runs an engine with its web port
and LAN announcement.  With ``cluster`` options the engine is one member of a cluster of
servers sharing one lobby through Redis (server/cluster/, imported only then).

Every connection lives under the server's :class:`~scopa.server.core.limits.Limits`
(``NetworkEngine(..., limits=Limits(...))``): a ``hello`` within ``hello_timeout``, each
frame whole within ``frame_timeout`` of its first byte, a ``ping`` after
``ping_interval`` of silence and a close after ``ping_timeout`` more, caps on
connections overall and per address, a bounded outgoing queue (a client that does not
read is dropped; nobody waits for it) and a token bucket on commands (``rate_limited``,
then a fatal ``rate_limited`` for a persistent flood).  Each connection
(server/conn/session.py) enforces them; see ``server/core/limits.py`` for the defaults.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from scopa.protocol import DEFAULT_PORT, decode, encode, make_command
from scopa.protocol import commands as wire
from scopa.protocol.envelope import build_wire_models
from scopa.protocol.record import build_record_models
from scopa.protocol.servers import TLS_SCHEME

from .lobby import Operator, HeldTables, TableDirectory, LobbyFeed, SeatingRegistry, TableCommands, TableLife
from .players import Accounts, Archive, Rater
from .lan import Announcer, reachable_hosts
from .core import Clock, SystemClock, Limits, clean_text, name_key, HANDSHAKE_TIMEOUT, PlainSecrets, ServerTls
from .conn import Connections, ServerSession, SessionHost, WriteBatch
from .dispatch import Dispatcher
from .greeting import Greeting
from .journal import Journal, JournalBackend, TableResult, QueuedStorage, open_storage
from .table import Table

if TYPE_CHECKING:
    from .club import Club, ClubOptions
    from .cluster import ClusterMember, ClusterOptions

log = logging.getLogger("scopa.server")

DEFAULT_TURN_TIMEOUT = 60.0  # seconds a seat at a public table has for a move


class ReadSession(ServerSession):
    """A connection of the engine: once the session has handled what it read and returned,
    the tables carry out at once the moves it brought (``WriteBatch.after_read``), before
    the next connection's read of the same loop turn; a session is never written to from
    within its own read.  The web front does the same after each message of a browser's
    session (server/web/websocket.py)."""

    __slots__ = ("_writes",)

    def __init__(self, conn_id: int, host: SessionHost) -> None:
        super().__init__(conn_id, host)
        self._writes = WriteBatch.of(asyncio.get_running_loop())

    def buffer_updated(self, nbytes: int) -> None:
        ServerSession.buffer_updated(self, nbytes)
        after_read = self._writes.after_read
        if after_read is not None:
            after_read()


def first_use() -> None:
    """Do once, before a server listens, what its first client would otherwise wait for
    (and whose memory would look like that client's): build the tables that fold names
    (server/core/text.py) from the confusables data, with Unicode's normalisation and
    category data paged in, and decode a ``hello`` frame, which pages in the model
    validators' code, after building every wire and record model (deferred on import).
    Idempotent; a few milliseconds the first time in a process after the models."""
    build_wire_models()
    build_record_models()
    name_key(clean_text("first-use"))
    decode(encode(make_command(wire.Hello(name="first-use", client="first-use"), seq=1, sender="guest",
                               recipient="lobby")))


class NetworkEngine:
    """Many tables, one lobby, one TCP listener: the parts of the server, made and joined
    here, started and stopped here."""

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT, seed: int | None = None,
                 db: str | None = None, storage: Journal | JournalBackend | None = None, *,
                 limits: Limits | None = None, grace: float = 120.0,
                 turn_timeout: float | None = DEFAULT_TURN_TIMEOUT, clock: Clock | None = None,
                 admin_token_file: str | None = None, accounts: bool = False, bot_workers: int = 1,
                 trusted_proxies: Sequence[str] = (), rate_shared_addresses: Sequence[str] = (),
                 cluster: ClusterOptions | None = None, tls: ServerTls | None = None,
                 allow_plain_secrets: bool = False, club: ClubOptions | None = None) -> None:
        """``db``: an SQLite file journaling every table (unfinished games are restored
        from it by :meth:`start`); or any ``storage``; neither: nothing persists.

        ``grace``: seconds a seat whose client dropped mid-game is kept for it (then a
        bot plays it, or the game is abandoned: the table's ``bot_takeover``);
        ``turn_timeout``: the turn clock of new tables (a table may ask for a shorter one;
        only a private table may have none; None: no turn clock unless a table asks);
        ``clock``: what those timers wait on (tests pass a ``FakeClock``);
        ``admin_token_file``: where :meth:`start` writes the operator's token (0600; a
        ``{port}`` in it becomes the port listened on; None: nowhere, and no operator
        can act on this server); ``accounts``: names may be claimed with a password
        (kept in the storage, which is then needed); ``bot_workers``: processes in the
        pool where bots that search (``expert``) think, made when the first one sits; ``trusted_proxies``: addresses (or
        networks) of front ends whose connections say whom they are for and are capped
        per identity (server/core/proxies.py); ``rate_shared_addresses``: addresses (or networks)
        whose players are rated against one another (server/players/fairness.py); ``cluster``: share
        the lobby with the other servers of a cluster (server/cluster/): their tables are
        listed here, names are unique across them; ``tls``: every port of the server speaks
        TLS with this certificate (server/core/tls.py); ``allow_plain_secrets``: without
        ``tls``, passwords and the operator's commands are taken from any address, not
        only from loopback; ``club``: run quick play and tournaments (server/club/)."""
        if bot_workers < 1:
            raise ValueError("bot_workers must be at least 1")
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.host = host
        self.port = port
        self.limits = limits if limits is not None else Limits()
        self.connections = Connections(self.limits, trusted_proxies)
        self.sessions = self.connections.sessions
        self.names = self.connections.names
        self.proxied = self.connections.proxied
        self.tables = TableDirectory(self.limits, self.clock)
        self.seating = SeatingRegistry(self.tables)
        self.feed = LobbyFeed(self.tables)
        self.lobby_watchers = self.feed.lobby_watchers
        self.lobby_listeners = self.feed.lobby_listeners
        self.stopped = asyncio.Event()
        """Set when the operator asked the server to stop (``serve`` then shuts down)."""
        self._ids = itertools.count(1)
        storage_ = open_storage(db, storage)
        self.accounts = Accounts(storage_, self.clock, self.limits, enabled=accounts)  # claimed names
        self.ratings = Rater(storage_, rate_shared_addresses)  # who is rated, and how much
        self.archive = Archive(storage_, self.ratings, self.accounts)  # finished games and records
        self.life = TableLife(self.tables, self.seating, self.feed, storage_, limits=self.limits, clock=self.clock,
                              ratings=self.ratings, archive=self.archive, proxied=self.proxied, seed=seed,
                              grace=grace, turn_timeout=turn_timeout, bot_workers=bot_workers)
        self.tables.on_expired = self.life.waited_too_long
        self.archive.table_of = self.tables.get  # without a journal: the record of a game just finished
        if isinstance(storage_, QueuedStorage):  # a write the journal cannot store waits on this clock
            storage_.schedule = lambda seconds, retry: self.clock.call_later(seconds, retry)
            storage_.on_waiting = self.life.save_waiting
        self.admin = Operator(self.connections, self.seating, self.life, self.stopped, admin_token_file)
        self.router = Dispatcher(self.limits, self.clock, self.connections, self.seating, self.feed, self.life,
                                 self.admin, self.accounts, self.archive,
                                 Greeting(self.connections, self.tables, self.feed, self.accounts, self.ratings,
                                          turn_timeout),
                                 TableCommands(self.connections, self.seating, self.life, self.ratings))
        self.tls = tls
        self.router.secrets = PlainSecrets(tls=tls is not None, allowed=allow_plain_secrets)
        self.club: Club | None = None
        """Quick play and tournaments (None: not run here)."""
        if club is not None:
            from .club import Club

            self.club = self.router.club = Club(club, self.life, self.router.at_tables, self.connections, self.clock,
                                                self.ratings, self.admin.holds)
            self.router.greeting.on_welcome = self.club.welcomed
        self._server: asyncio.Server | None = None
        self._front: asyncio.Server | None = None  # in a cluster: the port shared with the members on this host
        self.announcer: Announcer | None = None
        self.cluster: ClusterMember | None = None
        """This server's membership of a cluster (None: a server of its own)."""
        if cluster is not None:
            from .cluster import ClusterMember  # Redis is imported only by a cluster member

            if cluster.shared_journal and storage_ is None:
                raise ValueError("a cluster sharing one journal needs one (db or storage)")
            keeper = HeldTables(self.life, self.tables, self.seating) if cluster.shared_journal else None
            held = self.club.commands.held if self.club is not None and cluster.shared_journal else None
            self.cluster = ClusterMember(cluster, self.clock, self.connections, self.tables, self.feed, keeper,
                                         journal=storage_, tournaments=held)
            if self.club is not None:  # its tournaments are leased like the tables
                self.club.tournaments.leases = self.cluster.tournament_leases
                self.club.tournaments.leases_interval = cluster.lease_ttl / 3
                relay = self.cluster.tournament_relay
                if relay is not None:  # its tournaments' commands and news go between the members
                    self.club.relay_through(relay)
                    relay.on_asked, relay.on_told = self.club.members.asked, self.club.members.told
                    relay.on_came = self.club.tournaments.came
            self.life.shared = self.router.greeting.shared = self.router.at_tables.shared = self.cluster
            self.seating.shared = self.cluster

    @property
    def storage(self) -> Journal | None:
        """The journal (None without one, and once stopped)."""
        return self.life.storage

    @property
    def damaged(self) -> dict[str, str]:
        """Table id -> why the journal could not restore it."""
        return self.life.damaged

    # ------------------------------------------------------------------ lifecycle

    async def start(self, join: bool = True) -> None:
        """Restore the journal's tables and listen; a cluster member then joins the cluster,
        unless ``join`` is false (it calls :meth:`join_cluster` once it also listens
        elsewhere, as its web page: the cluster lists no member before it can be reached)."""
        if self.storage is not None:  # a cluster sharing the journal restores the tables it takes the leases of
            await self.life.restore_tables(games=self.cluster is None or not self.cluster.options.shared_journal)
            if self.club is not None:
                await self.club.restore()
        first_use()
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self.new_session, self.host, self.port, **self.tls_options())
        sock = self._server.sockets[0]
        self.port = sock.getsockname()[1]
        self.admin.write_token(self.port)
        self.router.greeting.lan_hosts = reachable_hosts(self.host)
        log.info("listening on %s:%s%s", self.host, self.port, " (TLS)" if self.tls is not None else "")
        if self.cluster is not None and self.cluster.options.front_port is not None:
            self._front = await loop.create_server(self.new_session, self.host, self.cluster.options.front_port,
                                                   reuse_port=True, **self.tls_options())
            log.info("listening on %s:%s too, with the cluster's other members on this host",
                     self.host, self.cluster.options.front_port)
        if join:
            await self.join_cluster()

    def tls_options(self) -> dict[str, Any]:
        """``create_server``'s TLS arguments (none without TLS)."""
        if self.tls is None:
            return {}
        return {"ssl": self.tls.context, "ssl_handshake_timeout": HANDSHAKE_TIMEOUT}

    async def join_cluster(self) -> None:
        """A cluster member joins its cluster (nothing without one); call it once."""
        if self.cluster is not None:
            address = self.cluster.options.advertise or host_port(self.host, self.port)
            if self.tls is not None and not address.startswith(TLS_SCHEME):
                address = TLS_SCHEME + address  # the redirects to this member name a TLS address
            self.life.member = address
            self.cluster.id_floor = self.life.last_stored_id
            await self.cluster.start(address)

    def new_session(self) -> ServerSession:
        """A connection of this server (TCP, or a browser's WebSocket: server/web/front.py)."""
        return ReadSession(next(self._ids), self.router)

    def seat_open(self, table_id: str, invite: str | None) -> tuple[bool | None, wire.TableState | None]:
        """Whether a link to ``table_id`` (with ``invite``, a private table's code) would
        seat its person now (a waiting table with a free seat), as ``join_table`` answers
        it, and the table's state (a finished game's link says so); (None, None) when this
        server has no such table the link may see."""
        table = self.tables.get(table_id)
        if table is None or not table.admits(invite):
            return None, None
        return table.state is wire.TableState.WAITING and not table.seats.full, table.state

    async def stop(self) -> None:
        """Stop listening, say bye to every client, cancel the games, close everything."""
        if self.cluster is not None:
            await self.cluster.stop()  # first: the other servers' lobbies stop listing its tables
        for server in (self._server, self._front):
            if server is not None:
                server.close()
        self.tables.stop_expiry()
        for table in list(self.tables.values()):
            if table.task is not None:
                table.task.cancel()
            if self.storage is not None and table.state is wire.TableState.PLAYING:
                # Journaled games are suspended, not abandoned: the next start resumes them.
                table.journal.storage = None
                for sess in table.seats.sessions():
                    sess.table_id = None
        for sess in list(self.sessions.values()):
            sess.tell(wire.Bye(reason="server shutting down"))
            sess.close()
        for sess in list(self.sessions.values()):
            try:
                await asyncio.wait_for(sess.wait_closed(), 2)
            except TimeoutError:
                sess.abort()
        if self.club is not None:
            await self.club.close()
        await self.ratings.close()
        await self.archive.close()
        await self.accounts.close()
        for table in self.tables.values():
            table.cancel_timers()  # grace periods armed by the disconnections above
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.life.close_bots()
        for server in (self._server, self._front):
            if server is not None:
                await server.wait_closed()
        if self.storage is not None:
            await self.storage.close()
            self.life.storage = None
        self.admin.remove_token()
        log.info("server stopped")

    # ------------------------------------------------------------------ queries

    def table_of(self, sess: ServerSession) -> Table | None:
        """The table ``sess`` is seated at, if any."""
        return self.seating.table_of(sess)

    def watched_by(self, sess: ServerSession) -> Table | None:
        """The table ``sess`` watches, if any."""
        return self.seating.watched_by(sess)

    async def results(self, limit: int = 100) -> list[TableResult]:
        """Finished games kept by the storage, newest first (none without storage)."""
        return await self.life.results(limit)


def host_port(host: str, port: int) -> str:
    """``host:port`` as a client connects to it (an IPv6 host in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
