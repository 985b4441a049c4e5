"""A connection's ``hello``: a name for it (not one in use, not one a waiting seat holds,
not one like the server's bots'; a claimed name only with its password; in a cluster,
not one in use on another server either), or, with a seat token, its seat and its name
back (``resume``)."""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Callable

from scopa.bots import STRATEGIES
from scopa.protocol import PROTOCOL_VERSION
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from .core import clean_text, name_key, reserved_name
from .players import Accounts, Rater
from .conn import Connections
from .lobby import TableDirectory, LobbyFeed, UNAVAILABLE, Claim, HandOn, SharedLobby
from .table import ResumeGate, token_digest

if TYPE_CHECKING:
    from .conn import ServerSession

log = logging.getLogger("scopa.server")

SERVER_NAME = "scopa-server 0.1"


class Greeting:
    """Names the connections that say ``hello`` and gives seats back to those that resume."""

    def __init__(self, connections: Connections, tables: TableDirectory, feed: LobbyFeed, accounts: Accounts,
                 ratings: Rater, turn_timeout: float | None = None) -> None:
        self.names = connections.names
        self.turn_timeout = turn_timeout  # the server's turn clock, told in ``welcome``
        self.web_port: int | None = None  # the web page's port, told in ``welcome`` (set once it listens)
        self.lan_hosts: list[str] = []  # where other machines reach this server, told in ``welcome``
        self.proxied = connections.proxied
        self.tables = tables
        self.feed = feed
        self.accounts = accounts
        self.ratings = ratings
        self.resumes = ResumeGate(tables.limits, tables.clock)
        self.shared: SharedLobby | None = None
        """In a cluster: the lobby shared with the other servers (names unique across them)."""
        self.on_welcome: Callable[[ServerSession], None] | None = None
        """Told of each connection welcomed by name (quick play and tournaments: server/club/)."""

    def hello(self, sess: ServerSession, body: wire.Hello, seq: int, verified: bool = False) -> None:
        if body.resume is not None:
            self._resume(sess, body.resume, seq, body.name)
            return
        if not verified and self.accounts.hello_deferred(sess, body, seq, lambda: self.hello(sess, body, seq, True)):
            return  # a claimed name: its password is checked first
        refusal = self._name_refusal(body.name)
        if refusal is not None:
            sess.error(ErrorCode.NAME_TAKEN, refusal, re=seq)
            return
        if self.shared is not None and body.ticket is not None:  # sent here by another server
            self.shared.redeem(body.ticket, body.name, lambda claim: self._claimed(sess, body, seq, claim))
            return
        if self.shared is not None:
            self.shared.claim_name(body.name, lambda claim: self._claimed(sess, body, seq, claim))
            return
        self._welcome(sess, body, seq)

    def _name_refusal(self, name: str) -> str | None:
        """Why this server may not give ``name`` to a connection, or None."""
        if name_key(name) in self.names or self._away_name(name):
            return f"the name {name!r} is taken; choose another"
        if reserved_name(name, STRATEGIES):
            return f"names like {name!r} are the server's bots'; choose another"
        return None

    def _claimed(self, sess: ServerSession, body: wire.Hello, seq: int, claim: Claim) -> None:
        """The cluster's answer to the claim of a hello's name."""
        assert self.shared is not None
        refusal = self._name_refusal(body.name) if claim is Claim.CLAIMED else None
        if claim is Claim.CLAIMED and (sess.closed or refusal is not None):
            self.shared.release_name(body.name)
        if sess.closed:
            return
        if claim is Claim.UNAVAILABLE:
            sess.error(ErrorCode.UNAVAILABLE, UNAVAILABLE, re=seq)
        elif claim is Claim.TAKEN and body.ticket is not None:
            sess.error(ErrorCode.BAD_TOKEN, "that ticket is not valid (unknown, used, out of date or for another "
                                            "name); say hello without it", re=seq)
        elif claim is Claim.TAKEN:
            sess.error(ErrorCode.NAME_TAKEN, f"the name {body.name!r} is taken on another server; choose another",
                       re=seq)
        elif refusal is not None:
            sess.error(ErrorCode.NAME_TAKEN, refusal, re=seq)
        else:
            self._welcome(sess, body, seq)

    def _welcome(self, sess: ServerSession, body: wire.Hello, seq: int) -> None:
        sess.name = body.name
        sess.client = sys.intern(clean_text(body.client)[:100])  # most clients say the same few
        self.names[name_key(body.name)] = sess
        sess.tell(self._welcome_body(sess.party), re=seq)
        self.feed.lobby_changed()
        log.info("connection %s is %s (client %r)", sess.id, sess.party, sess.client)
        if self.on_welcome is not None:
            self.on_welcome(sess)

    def _welcome_body(self, you: str) -> wire.Welcome:
        """The ``welcome`` of the client named ``you`` (its session's party, the one string
        the connection keeps as its client's party too; in a cluster, with the addresses it
        can be reached at)."""
        return wire.Welcome(you=you, server=SERVER_NAME, protocol=PROTOCOL_VERSION, turn_timeout=self.turn_timeout,
                            reading_time=wire.READING_TIME, web_port=self.web_port, lan_hosts=self.lan_hosts,
                            cluster=self.shared.addresses() if self.shared is not None else [])

    def _away_name(self, name: str) -> bool:
        """Whether ``name`` (in any case) belongs to a seat waiting for its client."""
        key = name_key(name)
        return any(s is not None and s.away and name_key(s.name) == key
                   for t in self.tables.with_away_seats() for s in t.seats)

    def _resume_elsewhere(self, sess: ServerSession, table_id: str, seq: int, where: HandOn) -> None:
        """A seat of a table this server does not serve: the client is sent to the one
        that does, or asked to try again while the table is between two servers."""
        if sess.closed or where.send(sess, table_id, re=seq):
            return
        if where.moving or where.address is not None:
            sess.error(ErrorCode.UNAVAILABLE, "that table is moving to another server of the cluster; try again in a "
                                              "moment", re=seq)
        else:
            sess.error(ErrorCode.BAD_TOKEN, "that seat token is not valid (or its game is gone)", re=seq)

    def _resume(self, sess: ServerSession, resume: wire.ResumeRequest, seq: int, name: str = "") -> None:
        """hello with a seat token: the client gets its seat (and its name) back."""
        found = None
        digest = token_digest(resume.token)
        table = self.tables.table_of_token(digest)
        index = table.seats.find_digest(digest) if table is not None else None
        if table is not None and index is not None:
            found = (table, index)
        if found is None and self.shared is not None and resume.table is not None and resume.table not in self.tables:
            # The token is checked where the table is: the ticket lets the client through,
            # it does not give it the name it said (which is nobody's proof of the seat).
            self.shared.hand_on(resume.table, name, lambda where: self._resume_elsewhere(sess, resume.table or "", seq,
                                                                                          where), naming=False)
            return
        if found is None:
            sess.error(ErrorCode.BAD_TOKEN, "that seat token is not valid (or its game is gone)", re=seq)
            return
        table, i = found
        seat = table.seats[i]
        assert seat is not None
        old = seat.session
        wait = self.resumes.wait(table.id, i) if old is not sess else None
        if wait is not None:  # the connection holding the seat (if any) keeps it
            sess.error(ErrorCode.RATE_LIMITED, f"this seat was resumed {self.resumes.limits.resumes_per_seat} times "
                                               f"in {self.resumes.limits.resume_window:g} s; try again in "
                                               f"{wait:.1f} s", re=seq, retry_after=round(wait, 3))
            log.warning("connection %s: seat %s of table %s resumed too often; retry in %.1f s", sess.id, i, table.id,
                        wait)
            return
        if old is not None and old is not sess:
            # The old connection has not noticed it is dead (or the client opened a new
            # one anyway): the seat goes with the token, the old connection is closed.
            table.seats.detach(old)
            if old.name and self.names.get(name_key(old.name)) is old:
                del self.names[name_key(old.name)]
            old.tell(wire.Bye(reason="your seat was resumed on another connection"))
            old.close()
        holder = self.names.get(name_key(seat.name))
        if holder is not None and holder is not sess:
            sess.error(ErrorCode.NAME_TAKEN, f"the seat's name {seat.name!r} is in use by another client", re=seq)
            return
        sess.name = seat.name
        self.names[name_key(seat.name)] = sess
        if self.shared is not None and old is None:  # the name was released when its connection dropped
            self.shared.claim_name(seat.name, lambda claim: None)
        sess.tell(self._welcome_body(sess.party), re=seq)
        log.info("connection %s resumes seat %s of table %s as %s", sess.id, i, table.id, sess.party)
        self.ratings.fair.seen(table.id, i, self.proxied.origin(sess.id, sess.address))
        table.resume(sess, i, resume.token, resume.last_event, re=seq)
