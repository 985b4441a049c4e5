"""What the lobby hears of table changes: one ``table_update`` per changed table at the
end of an event-loop turn to the connections that asked for them (``watch_lobby``), and
a call to every lobby listener (the LAN announcement) when the tables or the clients
may have changed.  In a cluster, the public tables that changed go to the table
listeners (which publish them to the other members), and the other members' tables
come in through :meth:`LobbyFeed.remote_changed`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from scopa.protocol import commands as wire

from .directory import TableDirectory

if TYPE_CHECKING:
    from ..conn import ServerSession
    from ..table import Table


class LobbyFeed:
    """Table updates for the lobby's watchers, and the lobby's listeners."""

    def __init__(self, tables: TableDirectory) -> None:
        self.tables = tables
        self.lobby_watchers: set[ServerSession] = set()
        """Connections that asked (watch_lobby) for a table_update on every table change."""
        self._changed: dict[str, Table] = {}  # tables changed in this event-loop turn
        self._flush: asyncio.Handle | None = None
        self.lobby_listeners: list[Callable[[], None]] = []
        """Called when the tables or the clients may have changed (the LAN announcement)."""
        self.table_listeners: list[Callable[[Table], None]] = []
        """Called with each public table that changed, once per event-loop turn (a cluster
        member publishes it)."""

    def lobby_changed(self) -> None:
        for listener in self.lobby_listeners:
            listener()

    def listing(self) -> wire.Tables:
        """The answer to watch_lobby and unwatch_lobby: the first page of the public
        tables, as ``list_tables`` without a filter."""
        page = self.tables.page()
        return wire.Tables(tables=[t.info() for t in page.tables], next=page.next, total=page.total)

    def table_changed(self, table: Table) -> None:
        """Table.on_changed: one table_update per changed table at the end of this
        event-loop turn, however many changes it saw meanwhile."""
        self.tables.update(table)  # the lobby's index, caps and away/token lookups follow at once
        self._changed[table.id] = table
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_soon(self._send_updates)

    def _send_updates(self) -> None:
        self._flush = None
        changed, self._changed = list(self._changed.values()), {}
        self.lobby_changed()
        for table in changed:
            table.send_update()
            if table.private:
                continue
            for listener in self.table_listeners:
                listener(table)
            body = wire.TableUpdate(table=table.info())
            for sess in self.lobby_watchers:
                if sess.table_id != table.id and sess not in table.broadcaster.spectators:  # else sent by the table
                    sess.tell(body)

    def remote_changed(self, member: str, info: wire.TableInfo) -> None:
        """A table of another member of the cluster as it is now (``closed``: gone): filed
        in the listing, and sent to the lobby's watchers."""
        if info.id in self.tables:
            return  # an id this server has too (journals that predate the cluster): its own table wins
        known = self.tables.remote.get(info.id)
        if info.state is wire.TableState.CLOSED and (known is None or known.member != member):
            return  # (a member that gave a table up may say so after another took it over)
        if known is not None and known.table == info:
            return
        self.tables.remote.file(member, info)
        body = wire.TableUpdate(table=info)
        for sess in self.lobby_watchers:
            sess.tell(body)
