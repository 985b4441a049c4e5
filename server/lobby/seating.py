"""Who sits or watches where: the table a connection is seated at (its ``table_id`` in
the table directory), the table a recipient party names, and the one table each
connection watches (``watch_table``, ``unwatch_table``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.protocol.parties import parse_party

from .directory import TableDirectory
from .rematch import late_watcher, rematch_of
from .shared import HandOn, SharedLobby

if TYPE_CHECKING:
    from ..conn import ServerSession
    from ..table import Table

log = logging.getLogger("scopa.server")


class SeatingRegistry:
    """The seated and watching connections of the tables in one directory."""

    def __init__(self, tables: TableDirectory) -> None:
        self.tables = tables
        self._watching: dict[int, Table] = {}  # connection id -> the table it watches
        self.shared: SharedLobby | None = None
        """In a cluster: the lobby shared with the other servers (a client is sent to the
        one that serves the table it asks for)."""

    def table_of(self, sess: ServerSession) -> Table | None:
        """The table ``sess`` is seated at, if any."""
        return self.tables.tables.get(sess.table_id) if sess.table_id is not None else None

    def table_named(self, recipient: str) -> Table | None:
        """The table a recipient party (``table:<id>``) names, if it exists."""
        try:
            table_id = parse_party(recipient).table_id
        except ValueError:
            return None
        return self.tables.get(table_id or "")

    def watched_by(self, sess: ServerSession) -> Table | None:
        table = self._watching.get(sess.id)
        return table if table is not None and sess in table.broadcaster.spectators else None

    def watch(self, sess: ServerSession, body: wire.WatchTable, seq: int) -> None:
        table_id, table = body.table, self.tables.get(body.table)
        missing = f"there is no table {table_id!r} to watch"
        if table is None and not self.elsewhere(sess, table_id, seq, body.invite, missing,
                                                again=body.last_event is not None):
            return
        finished = table is not None and table.state is wire.TableState.FINISHED
        # a finished table is watched again (last_event), or to reach its waiting rematch
        over = finished and body.last_event is None and table is not None \
            and rematch_of(table, self.tables.tables.values()) is None
        if table is None or over or not (table.admits(body.invite) or sess.name in table.rematch_watchers):
            # A private table without its invite code is no table at all to this client.
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no table {table_id!r} to watch", re=seq)
            return
        if sess.table_id is not None:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are seated at table {sess.table_id}", re=seq)
            return
        before = self.watched_by(sess)
        if before is not None and before is not table:
            before.broadcaster.unwatch(sess, tell=False)  # one table at a time: watching another moves you
        log.info("table %s: %s watches", table.id, sess.party)
        if table.state is not wire.TableState.FINISHED:
            self._watching[sess.id] = table
        table.watch(sess, re=seq, last_event=body.last_event)
        if finished:
            late_watcher(table, self.tables.tables.values(), sess)

    def elsewhere(self, sess: ServerSession, table_id: str, seq: int, invite: str | None = None,
                  missing: str = "", again: bool = False) -> bool:
        """False when table ``table_id`` plays on another server of the cluster: the client
        is sent there (``redirect``, with a ticket), or told where it is
        (``table_elsewhere``) when no ticket can be had.  A private table is in no
        listing: with an ``invite``, and servers sharing one journal, its lease says which
        server holds it (that server checks the code); if none does, the client is told
        ``missing`` (``no_such_table``).  ``again``: a spectator watching again, whose
        table, listed nowhere while it moves between servers sharing one journal, is
        found by its lease too (``unavailable`` while it has no server)."""
        where = self.tables.remote.where(table_id)
        leased = self.shared is not None and self.shared.leases is not None
        if where is None and not (leased and (invite is not None or again)):
            return True
        if self.shared is None:
            assert where is not None
            self._told_elsewhere(sess, table_id, seq, where)
        else:
            self.shared.hand_on(table_id, sess.name or "",
                                lambda found: self._handed_on(sess, table_id, seq, where, found, missing, again))
        return False

    def _handed_on(self, sess: ServerSession, table_id: str, seq: int, where: str | None, found: HandOn,
                   missing: str, again: bool = False) -> None:
        if sess.closed or found.send(sess, table_id, re=seq):
            return
        if again and (found.moving or found.address is not None or where is not None):
            # watched again after a lost connection: the member holding the table gave no
            # ticket (it may be the one that went away), so the table may be about to move
            sess.error(ErrorCode.UNAVAILABLE, "that table is moving to another server of the cluster; try again in "
                                              "a moment", re=seq)
        elif found.address is not None or where is not None:
            self._told_elsewhere(sess, table_id, seq, found.address or where or "")
        else:  # a private table's id that no server holds (or this one gave up a moment ago)
            sess.error(ErrorCode.NO_SUCH_TABLE, missing or f"there is no table {table_id!r}", re=seq)

    def _told_elsewhere(self, sess: ServerSession, table_id: str, seq: int, where: str) -> None:
        sess.error(ErrorCode.TABLE_ELSEWHERE, f"table {table_id} plays on the server at {where}: connect there "
                                              "to join or watch it", re=seq)

    def unwatch(self, sess: ServerSession, table_id: str, seq: int) -> None:
        table = self.watched_by(sess)
        if table is None or table.id != table_id:
            sess.error(ErrorCode.NOT_AT_TABLE, f"you are not watching table {table_id}", re=seq)
            return
        table.broadcaster.unwatch(sess, re=seq)

    def stop_watching(self, sess: ServerSession) -> None:
        """A spectator who sits down stops watching (or it would get every event twice)."""
        watched = self.watched_by(sess)
        if watched is not None:
            watched.broadcaster.unwatch(sess, tell=False)
        self._watching.pop(sess.id, None)

    def forget(self, sess: ServerSession) -> None:
        """A connection is gone: it watches nothing any more."""
        self._watching.pop(sess.id, None)
