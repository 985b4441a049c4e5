"""The NetworkEngine: the asyncio TCP server, its lobby and its tables.

It holds the authoritative state of every table; each table drives its own GameMaster
(in a task of its own).  Every command a client sends is
checked against the connection it came on (``scopa.protocol.Connection`` rejects a
forged sender) and against the table it names.

Every connection lives under the server's :class:`~scopa.server.limits.Limits`
(``NetworkEngine(..., limits=Limits(...))``): a ``hello`` within ``hello_timeout``, each
frame whole within ``frame_timeout`` of its first byte, a ``ping`` after
``ping_interval`` of silence and a close after ``ping_timeout`` more, caps on
connections overall and per address, a bounded outgoing queue (a client that does not
read is dropped; nobody waits for it) and a token bucket on commands (``rate_limited``,
then a fatal ``rate_limited`` for a persistent flood).  The accept/read loop below
enforces them; see ``server/limits.py`` for the defaults.
"""

from __future__ import annotations

import asyncio
import signal
import itertools
import logging
import random
import time
from collections.abc import Callable, Coroutine, Sequence

from scopa.bots import STRATEGIES, make_bot
from scopa.engine import Player, RuleSetError
from scopa.protocol import DEFAULT_PORT, PROTOCOL_VERSION, Command, ProtocolError
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire
from scopa.protocol.errors import ErrorCode
from scopa.protocol.parties import parse_party

from . import admin
from .accounts import Accounts
from .announce import Announcer, LanIdentity, lan_announcer, lobby_record
from .archive import Archive
from .clock import Clock, SystemClock
from .collector import Collector
from .limits import Limits
from .lobby import TableDirectory, build_rules
from .session import ServerSession
from .journal import CloseTable, CreateTable, Journal, JournalBackend, MarkDamaged
from .journal_values import TableResult
from .writer import QueuedStorage
from .writer_process import open_storage
from .web import WebOptions, start_front
from .proxied import ProxiedClients
from .ratings import Rater
from .table import Table, token_digest
from .text import Names, clean_text, name_key, reserved_name
from .workers import BotPool

log = logging.getLogger("scopa.server")

SERVER_NAME = "scopa-server 0.1"
DEFAULT_TURN_TIMEOUT = 60.0  # seconds a seat at a public table has for a move
_ANSWERS = frozenset({wire.PlayCard.NAME, wire.MakeDeclaration.NAME})  # what answers a your_turn


class NetworkEngine:
    """Many tables, one lobby, one TCP listener."""

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT, seed: int | None = None,
                 db: str | None = None, storage: Journal | JournalBackend | None = None, *,
                 limits: Limits | None = None, grace: float = 120.0,
                 turn_timeout: float | None = DEFAULT_TURN_TIMEOUT, clock: Clock | None = None,
                 admin_token_file: str | None = None, accounts: bool = False, bot_workers: int = 1,
                 trusted_proxies: Sequence[str] = (), rate_shared_addresses: Sequence[str] = ()) -> None:
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
        per identity (server/proxied.py); ``rate_shared_addresses``: addresses (or networks)
        whose players are rated against one another (server/rated.py)."""
        if bot_workers < 1:
            raise ValueError("bot_workers must be at least 1")
        self.bot_workers = bot_workers
        self._bot_pool: BotPool | None = None
        self.grace = grace
        self.turn_timeout = turn_timeout
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.host = host
        self.port = port
        self._seeds = random.Random(seed) if seed is not None else random.SystemRandom()
        self.limits = limits if limits is not None else Limits()
        self.sessions: dict[int, ServerSession] = {}
        self.names: dict[str, ServerSession] = Names()  # by name_key(): names that look alike are one
        self.tables = TableDirectory(self.limits, self.clock, on_expired=self._waited_too_long)
        self._watching: dict[int, Table] = {}  # connection id -> the table it watches
        self.damaged: dict[str, str] = {}  # table id -> why the journal could not restore it
        self.admin = admin.Operator(self, admin_token_file)
        self.stopped = asyncio.Event()
        """Set when the operator asked the server to stop (``serve`` then shuts down)."""
        self._ids = itertools.count(1)
        self._table_ids = itertools.count(1)
        self.storage: Journal | None = open_storage(db, storage)
        if isinstance(self.storage, QueuedStorage):  # a write the journal cannot store waits on this clock
            self.storage.schedule = lambda seconds, retry: self.clock.call_later(seconds, retry)
            self.storage.on_waiting = self._save_waiting
        self._server: asyncio.Server | None = None
        self._per_address: dict[str, int] = {}  # open connections by remote address
        self.proxied = ProxiedClients(trusted_proxies, self.limits.max_connections_per_address)
        self.lobby_watchers: set[ServerSession] = set()
        """Connections that asked (watch_lobby) for a table_update on every table change."""
        self._changed: dict[str, Table] = {}  # tables changed in this event-loop turn
        self._flush: asyncio.Handle | None = None
        self.lobby_listeners: list[Callable[[], None]] = []
        """Called when the tables or the clients may have changed (the LAN announcement)."""
        self.announcer: Announcer | None = None
        self.accounts = Accounts(self.storage, self.clock, self.limits, enabled=accounts)  # claimed names
        self.ratings = Rater(self.storage, rate_shared_addresses)  # who is rated, and how much
        self.archive = Archive(self.storage, self.ratings, self.accounts)  # finished games and records

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        if self.storage is not None:
            await self._restore_tables()
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self.new_session, self.host, self.port)
        sock = self._server.sockets[0]
        self.port = sock.getsockname()[1]
        self.admin.write_token()
        log.info("listening on %s:%s", self.host, self.port)

    def new_session(self) -> ServerSession:
        """A connection of this server (TCP, or a browser's WebSocket: server/web.py)."""
        return ServerSession(next(self._ids), self)

    async def stop(self) -> None:
        """Stop listening, say bye to every client, cancel the games, close everything."""
        if self._server is not None:
            self._server.close()
        self.tables.stop_expiry()
        for table in list(self.tables.values()):
            if table.task is not None:
                table.task.cancel()
            if self.storage is not None and table.state is wire.TableState.PLAYING:
                # Journaled games are suspended, not abandoned: the next start resumes them.
                table.storage = None
                for sess in table.sessions():
                    sess.table_id = None
        for sess in list(self.sessions.values()):
            sess.send(wire.Bye(reason="server shutting down"))
            sess.close()
        for sess in list(self.sessions.values()):
            try:
                await asyncio.wait_for(sess.wait_closed(), 2)
            except TimeoutError:
                sess.abort()
        await self.ratings.close()
        await self.archive.close()
        await self.accounts.close()
        for table in self.tables.values():
            table.cancel_timers()  # grace periods armed by the disconnections above
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._bot_pool is not None:
            await asyncio.to_thread(self._bot_pool.close)
            self._bot_pool = None
        if self._server is not None:
            await self._server.wait_closed()
        if self.storage is not None:
            await self.storage.close()
            self.storage = None
        self.admin.remove_token()
        log.info("server stopped")

    # ------------------------------------------------------------------ persistence

    async def _restore_tables(self) -> None:
        """Rebuild the journaled unfinished games and resume them; table ids go on after
        the highest one ever stored."""
        assert self.storage is not None
        self._table_ids = itertools.count(await self.storage.last_table_id() + 1)
        self.damaged = dict(await self.storage.load_damaged())
        for stored in await self.storage.load_unfinished():
            if stored.damage is not None:
                self._mark_damaged(stored.id, stored.damage)
                continue
            if stored.status != "playing" or any(s is None for s in stored.seats):
                # A table still gathering players: its clients are gone with the old process.
                self.storage.write(CloseTable(stored.id, "server restarted before the game began"))
                continue
            try:
                table = Table.from_storage(stored, self.storage, on_finished=self._table_finished,
                                           on_result=self.archive.finish,
                                           bot_factory=self._make_bot, grace=self.grace, clock=self.clock, turn_timeout=self.turn_timeout,
                                           update_interval=self.limits.table_update_interval,
                                           on_changed=self._table_changed)
            except Exception as exc:  # noqa: BLE001 - one bad journal must not keep other games down
                self._mark_damaged(stored.id, f"its game does not replay: {type(exc).__name__}: {exc}")
                continue
            self.tables.add(table)
            log.info("table %s: restored at action %s", table.id, len(stored.actions))
        now = time.time()
        for done in (await self.storage.load_finished_since(now - self.grace))[-self.limits.finished_tables_kept:]:
            if done.table.id in self.tables:
                continue
            expires_in = done.result.finished_at + self.grace - now
            self.tables[done.table.id] = Table.finished_from_storage(done, expires_in, grace=self.grace,
                                                                     clock=self.clock)

    def _make_bot(self, strategy: str, name: str, seed: int) -> Player:
        """A table's built-in bot: one that searches thinks in the worker pool, so its
        moves never hold up this event loop; the others play in process."""
        if getattr(STRATEGIES.get(strategy), "thinks", False):
            if self._bot_pool is None:
                self._bot_pool = BotPool(self.bot_workers)
            return self._bot_pool.player(strategy, name, seed)
        return make_bot(strategy, name, seed=seed)

    def _mark_damaged(self, table_id: str, reason: str) -> None:
        """A journaled table that cannot be restored: said once in the log, kept for the
        operator (``scopa admin ... damaged``), never tried again."""
        reason = (reason.strip().splitlines() or ["unreadable"])[0][:300]
        log.error("table %s: damaged in the journal, not restored: %s", table_id, reason)
        self.damaged[table_id] = reason
        assert self.storage is not None
        try:
            self.storage.write(MarkDamaged(table_id, reason))
        except Exception as exc:  # noqa: BLE001 - the log line above is what matters
            log.error("table %s: could not mark it damaged: %s", table_id, exc)

    async def results(self, limit: int = 100) -> list[TableResult]:
        """Finished games kept by the storage, newest first (none without storage)."""
        return await self.storage.load_results(limit) if self.storage is not None else []

    # ------------------------------------------------------------------ connections (SessionHost)

    def connected(self, sess: ServerSession) -> str | None:
        """A new connection: why it is refused (a cap is reached), or None to keep it."""
        refusal = self._connection_refusal(sess.address)
        if refusal is not None:
            return refusal
        self._per_address[sess.address] = self._per_address.get(sess.address, 0) + 1
        self.sessions[sess.id] = sess
        log.info("connection %s from %s", sess.id, sess.peer)
        return None

    def _connection_refusal(self, address: str) -> str | None:
        """Why a new connection from ``address`` is refused (a cap is reached), or None."""
        limits = self.limits
        if limits.max_connections is not None and sum(self._per_address.values()) >= limits.max_connections:
            return f"the server has its maximum of {limits.max_connections} connections; try later"
        per = limits.max_connections_per_address
        if per is not None and self._per_address.get(address, 0) >= per and not self.proxied.trusts(address):
            return f"{per} connections from your address are open already"
        return None

    def _release_address(self, address: str) -> None:
        left = self._per_address.get(address, 0) - 1
        if left > 0:
            self._per_address[address] = left
        else:
            self._per_address.pop(address, None)

    def table_of(self, sess: ServerSession) -> Table | None:
        """The table ``sess`` is seated at, if any."""
        return self.tables.get(sess.table_id) if sess.table_id is not None else None

    def dispatch(self, sess: ServerSession, command: Command) -> None:
        """Carry out one command a connection accepted."""
        self._dispatch(sess, command.body, command.seq, command.recipient)

    def unreadable_answer(self, sess: ServerSession, error: ProtocolError) -> bool:
        """An answer to a your_turn that could not be decoded is refused by the table
        like any other answer (the same your_turn follows)."""
        table = self._awaiting_table(sess, error.recipient) if error.name in _ANSWERS else None
        if table is None:
            return False
        table.refuse_unreadable(sess, error.code, error.message, error.seq)
        return True

    def _awaiting_table(self, sess: ServerSession, recipient: str | None) -> Table | None:
        """This client's table, if the command went to it and a your_turn of this
        client's seat there is waiting for an answer."""
        table = self._own_table(sess, recipient)
        return table if table is not None and table.turn_of(sess) is not None else None

    def _own_table(self, sess: ServerSession, recipient: str | None) -> Table | None:
        """The table ``sess`` is seated at, if ``recipient`` names it."""
        table = self.table_of(sess)
        return table if table is not None and recipient == table.party else None

    def solicited(self, sess: ServerSession, cmd: Command, ping_outstanding: bool) -> bool:
        """Whether the command answers a question of the server (not rate-limited): a
        ``pong`` to our ping, or a play or declare for the turn this seat's your_turn
        waits on (at most MAX_REFUSALS refused answers per turn, then the game master
        plays; one for a turn that is over is charged like anything else)."""
        body = cmd.body
        if isinstance(body, wire.Pong):
            return ping_outstanding
        if not isinstance(body, (wire.PlayCard, wire.MakeDeclaration)):
            return False
        table = self._own_table(sess, cmd.recipient)
        turn = table.turn_of(sess) if table is not None else None
        return turn is not None and (body.turn is None or body.turn == turn.event)

    def disconnected(self, sess: ServerSession) -> None:
        """A connection is gone: its seat waits for it (or is freed), it leaves everything it watched."""
        self._release_address(sess.address)
        self.proxied.release(sess.id)
        table = self.table_of(sess)
        watched = self.watched_by(sess)
        if watched is not None:
            watched.unwatch(sess, tell=False)
        self.lobby_watchers.discard(sess)
        if table is not None:
            waiting = table.state is wire.TableState.WAITING
            if table.state is wire.TableState.PLAYING or (waiting and not sess.said_bye):
                log.info("table %s: %s disconnected (%s)", table.id, sess.party, table.state.value)
                table.seat_away(sess)  # the seat waits for its client (PROTOCOL.md §7 Reconnecting)
            else:
                table.unseat(sess)
                self._seat_freed(table)
        for own in self.tables.owned_by(sess.id):  # its waiting tables where no person sits close
            if own.state is wire.TableState.WAITING and not any(s is not None and s.bot is None for s in own.seats):
                self.close_waiting(own, "its creator left")
        self.tables.disown(sess.id)
        self._watching.pop(sess.id, None)
        if sess.name and self.names.get(name_key(sess.name)) is sess:
            del self.names[name_key(sess.name)]
        self.sessions.pop(sess.id, None)
        self._lobby_changed()
        log.info("connection %s (%s) closed", sess.id, sess.party)

    def _lobby_changed(self) -> None:
        for listener in self.lobby_listeners:
            listener()

    # ------------------------------------------------------------------ commands

    def _dispatch(self, sess: ServerSession, body: wire.Body, seq: int, recipient: str) -> None:
        match body:
            case wire.PlayCard() | wire.MakeDeclaration():  # first: by far the most frequent
                self._move(sess, body, seq, recipient)
            case wire.Hello():
                refusal = self.proxied.admit(sess.id, sess.address, body.proxied_for)
                if refusal is not None:
                    log.warning("refusing connection %s: %s", sess.id, refusal)
                    sess.error(ErrorCode.RATE_LIMITED, refusal, re=seq, fatal=True)
                    sess.close()
                    return
                self._hello(sess, body, seq)
            case wire.Pong() | wire.Error():
                pass
            case wire.ListTables():
                page = self.tables.page(body.state, body.players, body.after, body.limit)
                sess.send(wire.Tables(tables=[t.info() for t in page.tables], next=page.next, total=page.total),
                          re=seq)
            case wire.WatchLobby():
                self.lobby_watchers.add(sess)
                sess.send(self._listing(), re=seq)
            case wire.UnwatchLobby():
                self.lobby_watchers.discard(sess)
                sess.send(self._listing(), re=seq)
            case wire.CreateTable():
                self._create(sess, body, seq)
            case wire.JoinTable():
                self._join(sess, body, seq)
            case wire.LeaveTable():
                self._leave(sess, body.table, seq)
            case wire.Chat():
                self._chat(sess, body, recipient, seq)
            case wire.WatchTable():
                self._watch(sess, body, seq)
            case wire.Admin():
                self.admin.handle(sess, body, seq)
            case wire.UnwatchTable():
                self._unwatch(sess, body.table, seq)
            case wire.ClaimName():
                self.accounts.claim_name(sess, body, seq)
            case _ if self.archive.handles(body):
                self.archive.dispatch(sess, body, seq)
            case _:
                sess.error(ErrorCode.UNEXPECTED_COMMAND, f"the server does not accept {body.NAME!r}", re=seq)

    def _listing(self) -> wire.Tables:
        """The answer to watch_lobby and unwatch_lobby: the first page of the public
        tables, as ``list_tables`` without a filter."""
        page = self.tables.page()
        return wire.Tables(tables=[t.info() for t in page.tables], next=page.next, total=page.total)

    # ------------------------------------------------------------------ table updates

    def _table_changed(self, table: Table) -> None:
        """Table.on_changed: one table_update per changed table at the end of this
        event-loop turn, however many changes it saw meanwhile."""
        self.tables.update(table)  # the lobby's index, caps and away/token lookups follow at once
        self._changed[table.id] = table
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_soon(self._send_updates)

    def _send_updates(self) -> None:
        self._flush = None
        changed, self._changed = list(self._changed.values()), {}
        self._lobby_changed()
        for table in changed:
            table.send_update()
            if table.private:
                continue
            body = wire.TableUpdate(table=table.info())
            for sess in self.lobby_watchers:
                if sess.table_id != table.id and sess not in table.spectators:  # else sent by the table
                    sess.send(body)

    def _close_table(self, table: Table) -> None:
        """The table leaves the lobby: lobby watchers get its last update (``closed``)."""
        self.tables.pop(table.id, None)
        self.ratings.fair.forget(table.id)
        table.closed = True
        self._table_changed(table)

    def _hello(self, sess: ServerSession, body: wire.Hello, seq: int, verified: bool = False) -> None:
        if body.resume is not None:
            self._resume(sess, body.resume, seq)
            return
        if not verified and self.accounts.hello_deferred(sess, body, seq, lambda: self._hello(sess, body, seq, True)):
            return  # a claimed name: its password is checked first
        if name_key(body.name) in self.names or self._away_name(body.name):
            sess.error(ErrorCode.NAME_TAKEN, f"the name {body.name!r} is taken; choose another", re=seq)
            return
        if reserved_name(body.name, STRATEGIES):
            sess.error(ErrorCode.NAME_TAKEN, f"names like {body.name!r} are the server's bots'; choose another",
                       re=seq)
            return
        sess.name = body.name
        sess.client = clean_text(body.client)[:100]
        self.names[name_key(body.name)] = sess
        sess.send(wire.Welcome(you=f"player:{body.name}", server=SERVER_NAME, protocol=PROTOCOL_VERSION), re=seq)
        self._lobby_changed()
        log.info("connection %s is %s (client %r)", sess.id, sess.party, sess.client)

    def _away_name(self, name: str) -> bool:
        """Whether ``name`` (in any case) belongs to a seat waiting for its client."""
        key = name_key(name)
        return any(s is not None and s.away and name_key(s.name) == key
                   for t in self.tables.with_away_seats() for s in t.seats)

    def _resume(self, sess: ServerSession, resume: wire.ResumeRequest, seq: int) -> None:
        """hello with a seat token: the client gets its seat (and its name) back."""
        found = None
        digest = token_digest(resume.token)
        table = self.tables.table_of_token(digest)
        index = table.find_digest(digest) if table is not None else None
        if table is not None and index is not None:
            found = (table, index)
        if found is None:
            sess.error(ErrorCode.BAD_TOKEN, "that seat token is not valid (or its game is gone)", re=seq)
            return
        table, i = found
        seat = table.seats[i]
        assert seat is not None
        old = seat.session
        if old is not None and old is not sess:
            # The old connection has not noticed it is dead (or the client opened a new
            # one anyway): the seat goes with the token, the old connection is closed.
            table.detach(old)
            if old.name and self.names.get(name_key(old.name)) is old:
                del self.names[name_key(old.name)]
            old.send(wire.Bye(reason="your seat was resumed on another connection"))
            old.close()
        holder = self.names.get(name_key(seat.name))
        if holder is not None and holder is not sess:
            sess.error(ErrorCode.NAME_TAKEN, f"the seat's name {seat.name!r} is in use by another client", re=seq)
            return
        sess.name = seat.name
        self.names[name_key(seat.name)] = sess
        sess.send(wire.Welcome(you=f"player:{seat.name}", server=SERVER_NAME, protocol=PROTOCOL_VERSION), re=seq)
        log.info("connection %s resumes seat %s of table %s as %s", sess.id, i, table.id, sess.party)
        self.ratings.fair.seen(table.id, i, self.proxied.origin(sess.id, sess.address))
        table.resume(sess, i, resume.token, resume.last_event, re=seq)

    def watched_by(self, sess: ServerSession) -> Table | None:
        table = self._watching.get(sess.id)
        return table if table is not None and sess in table.spectators else None

    def _watch(self, sess: ServerSession, body: wire.WatchTable, seq: int) -> None:
        table_id, table = body.table, self.tables.get(body.table)
        over = table is not None and table.state is wire.TableState.FINISHED and body.last_event is None
        if table is None or over or not table.admits(body.invite):
            # A private table without its invite code is no table at all to this client.
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no table {table_id!r} to watch", re=seq)
            return
        if sess.table_id is not None:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are seated at table {sess.table_id}", re=seq)
            return
        before = self.watched_by(sess)
        if before is not None and before is not table:
            before.unwatch(sess, tell=False)  # one table at a time: watching another moves you
        log.info("table %s: %s watches", table.id, sess.party)
        if table.state is not wire.TableState.FINISHED:
            self._watching[sess.id] = table
        table.watch(sess, re=seq, last_event=body.last_event)

    def _unwatch(self, sess: ServerSession, table_id: str, seq: int) -> None:
        table = self.watched_by(sess)
        if table is None or table.id != table_id:
            sess.error(ErrorCode.NOT_AT_TABLE, f"you are not watching table {table_id}", re=seq)
            return
        table.unwatch(sess, re=seq)

    def _create(self, sess: ServerSession, body: wire.CreateTable, seq: int) -> None:
        if sess.table_id is not None and body.sit:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are already at table {sess.table_id}", re=seq)
            return
        try:
            rules = rules_from_wire(body.rules) if body.rules is not None else build_rules(body.preset, body.options)
        except RuleSetError as exc:
            sess.error(ErrorCode.BAD_RULES, str(exc), re=seq)
            return
        turn_timeout, refusal = self._turn_timeout_for(body)
        if refusal is not None:
            sess.error(ErrorCode.BAD_RULES, refusal, re=seq)
            return
        unknown = [b for b in body.fill_with_bots if b not in STRATEGIES]
        if unknown:
            sess.error(ErrorCode.UNKNOWN_BOT, f"no bot called {unknown[0]!r}; there are: {', '.join(STRATEGIES)}", re=seq)
            return
        if len(body.fill_with_bots) + (1 if body.sit else 0) > rules.players:
            sess.error(ErrorCode.BAD_RULES, f"{len(body.fill_with_bots)} bots do not fit at a {rules.players}-player table",
                       re=seq)
            return
        if body.sit and not self._token_free(sess, body.token, seq):
            return
        bot_game = not body.sit and len(body.fill_with_bots) == rules.players
        origin = self.proxied.origin(sess.id, sess.address)
        refusal = self.tables.refusal(sess.id, bot_game, origin)
        if refusal is not None:
            sess.error(ErrorCode.TOO_MANY_TABLES, refusal, re=seq)
            return
        table = Table(str(next(self._table_ids)), rules, self._seeds.randrange(2**63),
                      on_finished=self._table_finished, on_vacated=self._seat_freed,
                      on_changed=self._table_changed, grace=self.grace, bot_takeover=body.bot_takeover,
                      turn_timeout=turn_timeout, clock=self.clock, bot_factory=self._make_bot,
                      update_interval=self.limits.table_update_interval)
        invite = table.new_invite() if body.private else None
        if self.storage is not None:  # journaled before table_created is sent, seats after it
            options: dict[str, object] = {"preset": body.preset, "options": body.options,
                                          "bot_takeover": table.bot_takeover, "turn_timeout": table.turn_timeout}
            if invite is not None:
                options["invite_digest"] = table.invite_digest
            self.storage.write(CreateTable(table.id, rules, table.seed, table.private, options))
            table.storage = self.storage
            table.on_result = self.archive.finish
        if body.sit:
            self._stop_watching(sess)
        self.tables.add(table, owner=sess.id, origin=origin)
        self._table_changed(table)
        log.info("table %s created by %s: %s", table.id, sess.party, rules.describe())
        joined: tuple[int, str] | None = None
        if body.sit:
            joined = table.seat_client(sess, body.token)
            self.ratings.fair.seen(table.id, joined[0], origin, fresh=True)
        for strategy in body.fill_with_bots:
            table.seat_bot(strategy)
        sess.send(wire.TableCreated(table=table.info(), invite=invite), re=seq)
        if joined is not None:
            seat, token = joined
            sess.send(wire.Joined(table=table.id, seat=seat, side=rules.side_of(seat), token=token), re=seq)
        table.announce_seats()
        if table.full:
            table.start()
            self.tables.update(table)

    def _turn_timeout_for(self, body: wire.CreateTable) -> tuple[float | None, str | None]:
        """The turn clock a new table gets, or why it may not have the one it asks for."""
        server = self.turn_timeout
        if body.no_turn_timer:
            if not body.private:
                return None, "only a private table may play without a turn timer"
            return None, None
        if body.turn_timeout is None:
            return server, None
        if server is not None and body.turn_timeout > server:
            return None, (f"turn_timeout {body.turn_timeout:g} s is longer than this server's {server:g} s; "
                          "a table may only shorten it")
        return body.turn_timeout, None

    def _stop_watching(self, sess: ServerSession) -> None:
        """A spectator who sits down stops watching (or it would get every event twice)."""
        watched = self.watched_by(sess)
        if watched is not None:
            watched.unwatch(sess, tell=False)
        self._watching.pop(sess.id, None)

    def close_waiting(self, table: Table, reason: str) -> None:
        """Close a table that waits for players: its seated clients are told ``left``."""
        for s in table.sessions():
            s.send(wire.Left(table=table.id, reason=wire.LeftReason.CLOSED.value))
            s.table_id = None
        for s in list(table.spectators):
            table.unwatch(s, tell=True)
        table.cancel_timers()
        self._close_table(table)
        if self.storage is not None and table.storage is not None:
            try:
                self.storage.write(CloseTable(table.id, reason))
            except Exception as exc:  # noqa: BLE001 - the table is gone either way
                log.error("table %s: could not journal its closing: %s", table.id, exc)
        log.info("table %s: closed (%s)", table.id, reason)

    def _waited_too_long(self, table: Table) -> None:
        self.close_waiting(table, f"nobody sat down at it for {self.limits.waiting_table_expiry:g} s")

    def _token_free(self, sess: ServerSession, token: str | None, seq: int) -> bool:
        """A seat token the client chose must not be one a seat holds already."""
        if token is None or self.tables.table_of_token(token_digest(token)) is None:
            return True
        sess.error(ErrorCode.BAD_TOKEN, "that seat token is in use; choose another", re=seq)
        return False

    def _join(self, sess: ServerSession, body: wire.JoinTable, seq: int) -> None:
        table_id = body.table
        table = self.tables.get(table_id)
        if table is None or not table.admits(body.invite):
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no table {table_id!r}", re=seq)
            return
        if sess.table_id is not None:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are already at table {sess.table_id}", re=seq)
            return
        if table.state is not wire.TableState.WAITING or table.full:
            sess.error(ErrorCode.TABLE_FULL, f"table {table_id} is {'full' if table.full else table.state.value}", re=seq)
            return
        self._stop_watching(sess)
        if not self._token_free(sess, body.token, seq):
            return
        seat, token = table.seat_client(sess, body.token)
        self.ratings.fair.seen(table.id, seat, self.proxied.origin(sess.id, sess.address), fresh=True)
        sess.send(wire.Joined(table=table.id, seat=seat, side=table.rules.side_of(seat), token=token), re=seq)
        log.info("table %s: %s sits at seat %s", table.id, sess.party, seat)
        table.announce_seats()
        if table.full:
            table.start()
            self.tables.update(table)

    def _leave(self, sess: ServerSession, table_id: str, seq: int) -> None:
        table = self.table_of(sess)
        if table is None or table.id != table_id:
            sess.error(ErrorCode.NOT_AT_TABLE, f"you are not at table {table_id}", re=seq)
            return
        if table.state is wire.TableState.PLAYING:
            table.abandon(f"{sess.party} left", leaver=sess, re=seq)  # game_end and left to all
            return
        table.unseat(sess)
        sess.send(wire.Left(table=table.id, reason=wire.LeftReason.LEFT.value), re=seq)
        self._seat_freed(table)

    def _seat_freed(self, table: Table) -> None:
        """After a person left a waiting table (or did not come back to it): tell the
        others, or close a table with nobody but bots left (in the journal too)."""
        if any(s is not None and s.bot is None for s in table.seats):
            table.announce_seats()
            return
        if table.id not in self.tables:
            return
        self._close_table(table)
        table.cancel_timers()
        log.info("table %s closed: nobody is waiting at it", table.id)
        if self.storage is not None and table.storage is not None:
            try:
                self.storage.write(CloseTable(table.id, "everyone left before the game began"))
            except Exception:  # noqa: BLE001 - the lobby goes on; the journal keeps a stale row
                log.exception("table %s: could not record its closing", table.id)

    def _table_named(self, recipient: str) -> Table | None:
        """The table a recipient party (``table:<id>``) names, if it exists."""
        try:
            table_id = parse_party(recipient).table_id
        except ValueError:
            return None
        return self.tables.get(table_id or "")

    def _move(self, sess: ServerSession, body: wire.PlayCard | wire.MakeDeclaration, seq: int, recipient: str) -> None:
        table = self._own_table(sess, recipient)  # the usual case: the seat's own table
        if table is None:
            table = self._table_named(recipient)
            if table is None or sess.table_id != table.id:
                sess.error(ErrorCode.NOT_AT_TABLE, f"you are not playing at {recipient}", re=seq,
                           sender=sess.proto.answering(recipient))
                return
        table.receive(sess, body, seq)

    def _chat(self, sess: ServerSession, body: wire.Chat, recipient: str, seq: int) -> None:
        text = clean_text(body.text)  # no escape sequence reaches anyone's terminal
        if not text:
            sess.error(ErrorCode.BAD_BODY, "the chat text is empty once control characters are removed", re=seq)
            return
        msg = wire.ChatMessage(author=sess.party, text=text)
        if recipient == "lobby":
            for other in self.sessions.values():
                if other.welcomed:
                    other.send(msg)
            return
        table = self._table_named(recipient)
        if table is None or sess.table_id != table.id:
            sess.error(ErrorCode.NOT_AT_TABLE, f"you are not seated at {recipient}", re=seq,
                       sender=sess.proto.answering(recipient))
            return
        table.tell_all(msg)  # seats and spectators

    def _save_waiting(self, table_id: str, why: str | None) -> None:
        """The journal cannot save ``table_id``'s writes for now (``why``), or can again (None)."""
        table = self.tables.get(table_id)
        if table is not None and not table.closed:
            table.tell_all(wire.SaveWaiting(waiting=why is not None, reason=(why or "")[:200]))

    def _table_finished(self, table: Table) -> None:
        for old in self.tables.prune_finished():  # the oldest finished tables leave the lobby
            old.closed = True
            self._table_changed(old)
            old.cancel_timers()


async def serve(host: str = "127.0.0.1", port: int = DEFAULT_PORT, seed: int | None = None,
                db: str | None = None, accounts: bool = False, *, limits: Limits | None = None,
                turn_timeout: float | None = DEFAULT_TURN_TIMEOUT, admin_token_file: str | None = None,
                bot_workers: int = 1, trusted_proxies: Sequence[str] = (), rate_shared_addresses: Sequence[str] = (),
                beside: Callable[[NetworkEngine], Coroutine[object, object, None]] | None = None,
                lan: LanIdentity | None = None, web: WebOptions | None = None,
                announce: Callable[[NetworkEngine], None] | None = None) -> None:
    """Run a server until cancelled (Ctrl-C, SIGTERM) or stopped by the operator, then
    shut down cleanly; ``db``: the journal (a SQLite file or a postgresql:// URL; games
    survive restarts) or None (nothing persists); ``accounts``: names may be claimed with
    a password (needs ``db``); ``trusted_proxies``, ``rate_shared_addresses``: see
    NetworkEngine; ``beside``: run with the started engine until the server stops (its
    failure stops the server too); ``lan``: announce the server on the LAN under this name
    (never when it listens on loopback only; withdrawn when it stops); ``web``: also serve
    browsers (server/web.py); ``announce``: called once the server has opened its journal
    and listens."""
    engine = NetworkEngine(host, port, seed, db=db, limits=limits, turn_timeout=turn_timeout,
                           admin_token_file=admin_token_file, accounts=accounts, bot_workers=bot_workers,
                           trusted_proxies=trusted_proxies, rate_shared_addresses=rate_shared_addresses)
    await engine.start()
    try:
        front = await start_front(engine, web) if web is not None else None
    except BaseException:
        await engine.stop()  # its web port is taken (or refused): the server does not run half
        raise
    if lan is not None:
        engine.announcer = lan_announcer(engine.host, engine.port,
                                         lambda: lobby_record(engine.tables, len(engine.names), lan), engine.clock)
    if engine.announcer is not None:
        if front is not None:
            engine.announcer.set_web_port(front.port)
        engine.lobby_listeners.append(engine.announcer.changed)
        engine.announcer.start()
    if announce is not None:
        announce(engine)
    _stop_on_sigterm(engine)
    collector = Collector(engine.clock)
    collector.start()
    companion = asyncio.create_task(beside(engine), name="beside-the-server") if beside is not None else None
    try:
        if companion is None:
            await engine.stopped.wait()
        else:
            stopped = asyncio.ensure_future(engine.stopped.wait())
            await asyncio.wait({companion, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if companion.done():
                companion.result()  # the companion's failure is the server's
    finally:
        if companion is not None and not companion.done():
            companion.cancel()
            await asyncio.gather(companion, return_exceptions=True)
        collector.stop()
        if engine.announcer is not None:
            await engine.announcer.stop()  # the goodbye goes out while the server still answers
        await engine.stop()
        if front is not None:
            await front.stop()


def _stop_on_sigterm(engine: NetworkEngine) -> None:
    """SIGTERM (a service manager's stop) stops the server as Ctrl-C does: the games are
    suspended, every client told ``bye``, the journal closed."""
    def stop() -> None:
        log.info("SIGTERM: stopping the server")
        engine.stopped.set()

    try:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop)
    except (NotImplementedError, RuntimeError, ValueError):
        pass  # no signals here (not the main thread, or not a Unix loop): Ctrl-C only
