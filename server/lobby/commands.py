"""What a connection does at a table: sit down (``join_table``), leave it and chat, at a
table or in the lobby (in a cluster, every server's lobby).  A ``play`` or ``declare``
goes from the dispatcher straight to its table's turns."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from ..conn import Connections
from ..players import Rater
from .seating import SeatingRegistry
from .shared import UNAVAILABLE, SharedLobby
from .life import TableLife, tell_seated
from .rematch import rematch_of
from ..core import clean_text

if TYPE_CHECKING:
    from ..conn import ServerSession
    from ..table import Table

log = logging.getLogger("scopa.server")


class TableCommands:
    """Carries out join_table, leave_table and chat."""

    def __init__(self, connections: Connections, seating: SeatingRegistry, life: TableLife, ratings: Rater) -> None:
        self.sessions = connections.sessions
        self.proxied = connections.proxied
        self.seating = seating
        self.tables = seating.tables
        self.life = life
        self.ratings = ratings
        self.shared: SharedLobby | None = None
        """In a cluster: the lobby shared with the other servers (lobby chat reaches them)."""

    def join(self, sess: ServerSession, body: wire.JoinTable, seq: int) -> None:
        table_id = body.table
        table = self.tables.get(table_id)
        missing = f"there is no table {table_id!r}"
        if table is None and not self.seating.elsewhere(sess, table_id, seq, body.invite, missing):
            return
        if table is None or not (table.admits(body.invite) or sess.name in table.rematch_names):
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no table {table_id!r}", re=seq)
            return
        if table.private and table.state is wire.TableState.FINISHED and table.admits(body.invite):
            table = rematch_of(table, self.tables.tables.values()) or table  # its invite leads to its waiting rematch
        if sess.table_id is not None:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are already at table {sess.table_id}", re=seq)
            return
        if table.state is not wire.TableState.WAITING or table.seats.full:
            how = table.state.value if table.state is not wire.TableState.WAITING else "full"  # a game over: finished
            sess.error(ErrorCode.TABLE_FULL, f"table {table_id} is {how}", re=seq)
            return
        self.sit(sess, table, body.token, seq)

    def sit(self, sess: ServerSession, table: Table, token: str | None, seq: int | None, at: int | None = None) -> bool:
        """Seat ``sess`` at ``table`` (at seat ``at``: one the server chose for it), told
        ``joined`` (``re`` = ``seq``) once the journal holds it; the game starts when the
        table is full.  Whether it sat (a token in use is refused)."""
        self.seating.stop_watching(sess)
        if not self.life.token_free(sess, token, seq or 0):
            return False
        seat, token = table.seats.seat_client(sess, token, at)
        self.ratings.fair.seen(table.id, seat, self.proxied.origin(sess.id, sess.address), fresh=True)
        joined = wire.Joined(table=table.id, seat=seat, side=table.rules.side_of(seat), token=token,
                             chat=list(table.broadcaster.said) if table.rematch_of is not None else [])
        log.info("table %s: %s sits at seat %s", table.id, sess.party, seat)
        table.journal.tell_when_stored(lambda: tell_seated(table, sess, joined, seq))
        if table.seats.full:
            table.start()
            self.tables.update(table)
        return True

    def leave(self, sess: ServerSession, table_id: str, seq: int) -> None:
        table = self.seating.table_of(sess)
        if table is None or table.id != table_id:
            sess.error(ErrorCode.NOT_AT_TABLE, f"you are not at table {table_id}", re=seq)
            return
        if table.state is wire.TableState.PLAYING:
            table.leave(sess, seq)  # a bot takes the seat, or the game is abandoned (the table's bot_takeover)
            return
        table.seats.unseat(sess)
        sess.tell(wire.Left(table=table.id, reason=wire.LeftReason.LEFT.value), re=seq)
        self.life.seat_freed(table)

    def chat(self, sess: ServerSession, body: wire.Chat, recipient: str, seq: int) -> None:
        text = clean_text(body.text)  # no escape sequence reaches anyone's terminal
        if not text:
            sess.error(ErrorCode.BAD_BODY, "the chat text is empty once control characters are removed", re=seq)
            return
        msg = wire.ChatMessage(author=sess.party, text=text)
        if recipient == "lobby":
            if self.shared is not None and not self.shared.available:
                sess.error(ErrorCode.UNAVAILABLE, UNAVAILABLE, re=seq)
                return
            if self.shared is not None:
                self.shared.say(msg)
            for other in self.sessions.values():
                if other.welcomed:
                    other.tell(msg)
            return
        table = self.seating.table_named(recipient)
        if table is None or sess.table_id != table.id:
            sess.error(ErrorCode.NOT_AT_TABLE, f"you are not seated at {recipient}", re=seq,
                       sender=sess.proto.answering(recipient))
            return
        table.broadcaster.chat(msg)  # seats and spectators
