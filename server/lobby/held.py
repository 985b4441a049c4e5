"""This server's tables as the leases of a cluster sharing one journal see them
(:class:`~scopa.server.lobby.shared.TableKeeper`): the journal's unfinished tables, a
table restored once its lease is this server's, a table given up when its lease is lost
(or the server stops), the tables that still need their lease.

A table is claimed in the journal (:class:`~.journal.ClaimTable`) before it is read back
to be restored: from then on the journal refuses every write of it by the member that
served it before (whose lease ran out while its write was on the way), so what is read
back is all that member will ever have stored of it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from scopa.protocol import commands as wire

from .directory import TableDirectory
from .seating import SeatingRegistry
from .life import TableLife

log = logging.getLogger("scopa.server")


class HeldTables:
    """What a cluster's leases ask of this server's tables."""

    def __init__(self, life: TableLife, tables: TableDirectory, seating: SeatingRegistry) -> None:
        self.life = life
        self.tables = tables
        self.seating = seating

    async def unfinished(self) -> list[str]:
        storage = self.life.storage
        return [] if storage is None else [t.id for t in await storage.load_unfinished()]

    async def adopt(self, table_ids: Sequence[str]) -> list[str]:
        storage = self.life.storage
        if storage is None:
            return []
        served = [t for t in table_ids if self._serves(t)]
        wanted = set(table_ids) - set(served)
        if wanted:
            claimed = await self.life.claim(sorted(wanted))  # one that ended meanwhile: nothing to restore
            for stored in await storage.load_unfinished():
                if stored.id not in claimed or self._serves(stored.id):
                    continue
                self.tables.remote.unfile(stored.id)  # listed as another member's until now
                self.tables.pop(stored.id)  # a finished game of the same id kept for its clients
                table = self.life.restore(stored)
                if table is not None:
                    served.append(table.id)
                    self.life.feed.table_changed(table)
        return served

    def give_up(self, table_id: str, reason: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table.closed or table.state is wire.TableState.FINISHED:
            return
        if table.task is not None:
            table.task.cancel()
        table.cancel_timers()
        table.journal.storage = None  # nothing more of it is journaled here
        table.turns.master = None  # no answer is taken any more
        clients = table.seats.sessions() + list(table.broadcaster.spectators)
        for sess in table.seats.sessions():
            sess.table_id = None
        for sess in list(table.broadcaster.spectators):
            self.seating.stop_watching(sess)
        self.life.unlist(table)
        for sess in clients:
            sess.tell(wire.Bye(reason=reason[:200]))
            sess.close()
        log.warning("table %s: given up (%s)", table_id, reason)

    def serving(self) -> list[str]:
        return [t.id for t in self.tables.values()
                if not t.closed and t.state in (wire.TableState.WAITING, wire.TableState.PLAYING)
                or t.journal.end_pending] \
            + sorted(self.life.creating)  # journaled a moment from now

    async def flush(self) -> None:
        await asyncio.gather(*(t.journal.end_settled() for t in list(self.tables.values()) if t.journal.end_pending))
        if self.life.storage is not None:
            await self.life.storage.flush()

    def _serves(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        return table is not None and not table.closed and table.state is not wire.TableState.FINISHED
