"""The host of the server's connections (:class:`~.conn.session.SessionHost`): every command a
connection accepted is routed to the part that carries it out (the lobby, a table, the
operator, the accounts, the archive), and a connection's coming and going is told to
every part that keeps something of it."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scopa.protocol import Command, ProtocolError
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from .core import metrics, Clock, Limits, PlainSecrets
from .players import Accounts, Archive
from .lobby import Operator, LobbyFeed, SeatingRegistry, TableCommands, TableLife
from .conn import Connections, Refusal
from .greeting import Greeting

if TYPE_CHECKING:
    from .club import Club
    from .conn import ServerSession
    from .table import Table

log = logging.getLogger("scopa.server")

_ANSWERS = frozenset({wire.PlayCard.NAME, wire.MakeDeclaration.NAME})  # what answers a your_turn


class Dispatcher:
    """Routes each connection's commands, and its arrival and departure."""

    def __init__(self, limits: Limits, clock: Clock, connections: Connections, seating: SeatingRegistry, feed: LobbyFeed,
                 life: TableLife, admin: Operator, accounts: Accounts, archive: Archive, greeting: Greeting,
                 at_tables: TableCommands) -> None:
        self.limits = limits
        self.clock = clock
        """What the connections' deadlines and command rate run on."""
        self.connections = connections
        self.proxied = connections.proxied
        self.seating = seating
        self.tables = seating.tables
        self.feed = feed
        self.lobby_watchers = feed.lobby_watchers
        self.life = life
        self.admin = admin
        self.accounts = accounts
        self.archive = archive
        self.greeting = greeting
        self.at_tables = at_tables
        self.secrets = PlainSecrets()
        """Whether a connection may send a password or the operator's token (server/core/tls.py)."""
        self.club: Club | None = None
        """Quick play and tournaments (server/club/; None: the server answers their commands unexpected_command)."""

    # ------------------------------------------------------------------ connections (SessionHost)

    def connected(self, sess: ServerSession) -> str | None:
        """A new connection: why it is refused (a cap is reached), or None to keep it."""
        return self.connections.connected(sess)

    def receive(self, sess: ServerSession, command: Command) -> Refusal | None:
        """Carry out one command a connection accepted; a refused move comes back."""
        body = command.body
        if type(body) is wire.PlayCard:  # by far the most frequent: straight to its table
            return self._move(sess, body, command.seq, command.recipient)
        return self.route(sess, body, command.seq, command.recipient)

    def unreadable_answer(self, sess: ServerSession, error: ProtocolError) -> Refusal | None:
        """An answer to a your_turn that could not be decoded is refused by the table
        like any other answer (the same your_turn follows)."""
        table = self._own_table(sess, error.recipient) if error.name in _ANSWERS else None
        seat = table.seats.seat_of(sess) if table is not None else None
        if table is None or seat is None or table.turns.pending(seat) is None:
            return None
        return table.turns.refuse_unreadable(seat, error.code, error.message, error.seq)

    def _own_table(self, sess: ServerSession, recipient: str | None) -> Table | None:
        """The table ``sess`` is seated at, if ``recipient`` names it (read from the
        directory's index: on a move's path, routing asks no other part)."""
        table = self.tables.tables.get(sess.table_id) if sess.table_id is not None else None
        return table if table is not None and recipient == table.party else None

    def disconnected(self, sess: ServerSession) -> None:
        """A connection is gone: its seat waits for it (or is freed), it leaves everything it watched."""
        self.connections.release(sess)
        table = self.seating.table_of(sess)
        watched = self.seating.watched_by(sess)
        if watched is not None:
            watched.broadcaster.unwatch(sess, tell=False)
        self.lobby_watchers.discard(sess)
        if self.club is not None:
            self.club.gone(sess)
        if table is not None:
            waiting = table.state is wire.TableState.WAITING
            if table.state is wire.TableState.PLAYING or (waiting and not sess.said_bye):
                log.info("table %s: %s disconnected (%s)", table.id, sess.party, table.state.value)
                table.seat_away(sess)  # the seat waits for its client (PROTOCOL.md §7 Reconnecting)
            else:
                table.seats.unseat(sess)
                self.life.seat_freed(table)
        for own in self.tables.owned_by(sess.id):  # its waiting tables where no person sits close
            if own.state is wire.TableState.WAITING and not any(s is not None and s.bot is None for s in own.seats):
                self.life.close_waiting(own, "its creator left")
        self.tables.disown(sess.id)
        self.seating.forget(sess)
        self.connections.forget(sess)
        self.feed.lobby_changed()
        log.info("connection %s (%s) closed", sess.id, sess.party)

    # ------------------------------------------------------------------ commands

    def route(self, sess: ServerSession, body: wire.Body, seq: int, recipient: str) -> Refusal | None:
        """Carry out one command (its body, number and recipient) of ``sess``; a refused
        move comes back for the session to send."""
        match body:
            case wire.PlayCard() | wire.MakeDeclaration():  # first: by far the most frequent
                return self._move(sess, body, seq, recipient)
            case wire.Hello():
                refusal = self.proxied.admit(sess.id, sess.address, None if sess.own_address else body.proxied_for)
                if refusal is not None:
                    log.warning("refusing connection %s: %s", sess.id, refusal)
                    metrics.RATE_LIMITED_CONNECTIONS.inc()
                    sess.error(ErrorCode.RATE_LIMITED, refusal, re=seq, fatal=True)
                    sess.close()
                elif body.password is None or not self._in_clear(sess, "a password", ErrorCode.BAD_PASSWORD, seq):
                    self.greeting.hello(sess, body, seq)
            case wire.Pong() | wire.Error():
                pass
            case wire.ListTables():
                page = self.tables.page(body.state, body.players, body.after, body.limit)
                sess.tell(wire.Tables(tables=[t.info() for t in page.tables], next=page.next, total=page.total),
                          re=seq)
            case wire.WatchLobby():
                self.lobby_watchers.add(sess)
                sess.tell(self.feed.listing(), re=seq)
            case wire.UnwatchLobby():
                self.lobby_watchers.discard(sess)
                sess.tell(self.feed.listing(), re=seq)
            case wire.CreateTable():
                self.life.create(sess, body, seq)
            case wire.JoinTable():
                if self.club is None or not self.club.join_table(sess, body, seq):
                    self.at_tables.join(sess, body, seq)
            case wire.LeaveTable():
                self.at_tables.leave(sess, body.table, seq)
            case wire.Chat():
                self.at_tables.chat(sess, body, recipient, seq)
            case wire.WatchTable():
                self.seating.watch(sess, body, seq)
            case wire.Admin():
                if not self._in_clear(sess, "the operator's token", ErrorCode.BAD_TOKEN, seq):
                    self.admin.handle(sess, body, seq)
            case wire.UnwatchTable():
                self.seating.unwatch(sess, body.table, seq)
            case wire.ClaimName():
                if not self._in_clear(sess, "a password", ErrorCode.BAD_PASSWORD, seq):
                    self.accounts.claim_name(sess, body, seq)
            case _ if self.club is not None and self.club.handles(body):
                self.club.dispatch(sess, body, seq)
            case _ if self.archive.handles(body):
                self.archive.dispatch(sess, body, seq)
            case _:
                sess.error(ErrorCode.UNEXPECTED_COMMAND, f"the server does not accept {body.NAME!r}", re=seq)
        return None

    def _in_clear(self, sess: ServerSession, what: str, code: ErrorCode, seq: int) -> bool:
        """Refuse a command carrying a secret that came in clear from another machine
        (server/core/tls.py); whether it was refused."""
        refusal = self.secrets.refusal(sess.address, what)
        if refusal is None:
            return False
        log.warning("connection %s from %s: refusing %s sent without TLS", sess.id, sess.address, what)
        sess.error(code, refusal, re=seq)
        return True

    def _move(self, sess: ServerSession, body: wire.PlayCard | wire.MakeDeclaration, seq: int,
              recipient: str) -> Refusal | None:
        """A play or declaration, handed to the turns of its table with the sender's seat
        (looked up once); what answers no waiting turn is refused, charged to the sender."""
        table_id = sess.table_id
        table = self.tables.tables.get(table_id) if table_id is not None else None
        if table is None or recipient != table.party:  # the usual case: the seat's own table (as _own_table)
            table = self.seating.table_named(recipient)
            if table is None or sess.table_id != table.id:
                return Refusal(ErrorCode.NOT_AT_TABLE, f"you are not playing at {recipient}", seq,
                               sess.proto.answering(recipient), charged=True)
        return table.turns.receive(table.seats.seat_of(sess), body, seq)
