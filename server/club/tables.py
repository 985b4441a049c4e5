"""The tables the club opens itself: journaled like any other, in the lobby (at a
tournament's only its players sit, at the seats the server chose: its ``join_table``
goes to the club first), their players seated by the server, and their end told to
whoever opened them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from scopa.engine import RuleSet
from scopa.engine.rules import Preset

from ..journal import CreateTable
from ..journal import StorageError
from ..table import Table
from ..lobby import TableCommands, TableLeases, TableLife, leases_of

if TYPE_CHECKING:
    from ..conn import ServerSession

log = logging.getLogger("scopa.server")

Ended = Callable[[Table], None]


def when_finished(table: Table, ended: Ended) -> None:
    """Tell ``ended`` of the table's end, after whatever the table told already."""
    first = table.on_finished

    def finished(t: Table) -> None:
        if first is not None:
            first(t)
        ended(t)

    table.on_finished = finished


class ClubTables:
    """Opens tables for quick games and tournament games, and seats their players."""

    def __init__(self, life: TableLife, at_tables: TableCommands) -> None:
        self.life = life
        self.at_tables = at_tables
        self.tables = life.tables

    async def open(self, preset: Preset, *, private: bool, bot_takeover: bool, ended: Ended,
                   seed: int | None = None) -> Table | None:
        """A new table of ``preset``, journaled and in the directory (None: no id or the
        journal refused it; logged); ``seed``: its deals' (None: the server's next)."""
        table_id = self.life.next_table_id()
        if table_id is None:
            log.error("no table id for a %s game: the cluster cannot give one now", preset.value)
            return None
        leases = leases_of(self.life.shared)
        if leases is not None:  # a cluster sharing one journal: the lease first, as for any new table
            if not await leased(leases, table_id):
                log.error("table %s: not made, its lease was not given", table_id)
                return None
        rules = RuleSet.build(preset)
        table = self.life.new_table(table_id, rules, bot_takeover, self.life.turn_timeout, seed)
        if private:
            table.new_invite()  # told to nobody: only the players the server seats come in
        storage = self.life.storage
        if storage is not None:
            options: dict[str, object] = {"preset": preset.value, "options": {}, "bot_takeover": bot_takeover,
                                          "turn_timeout": table.turn_timeout}
            if private:
                options["invite_digest"] = table.invite_digest
            self.life.creating.add(table.id)
            try:
                await storage.write(CreateTable(table.id, rules, table.seed, table.private, options))
            except StorageError as exc:
                log.error("table %s: not made, the journal refused it: %s", table.id, exc)
                return None
            finally:
                self.life.creating.discard(table.id)
            table.journal.storage = storage
            table.on_result = self.life.archive.finish
        when_finished(table, ended)
        self.tables.add(table)
        self.life.feed.table_changed(table)
        log.info("table %s opened by the server: %s", table.id, rules.describe())
        return table

    def sit(self, sess: ServerSession, table: Table, seat: int | None, seq: int | None) -> bool:
        """Seat a connection at ``table`` (``seat``: the one the server chose; None: the next)."""
        return self.at_tables.sit(sess, table, None, seq, seat)

    def fill_with_bots(self, table: Table, strategy: str) -> None:
        """Every free seat to a built-in bot; the game starts."""
        while table.seats.free_seat() is not None:
            table.seats.seat_bot(strategy)
        table.journal.tell_when_stored(table.announce_seats)
        table.start()
        self.tables.update(table)


async def leased(leases: TableLeases, lease_id: str) -> bool:
    """Whether this server took the lease of a new table (or tournament) ``lease_id``."""
    held: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    leases.lease_table(lease_id, lambda got: _settle(held, got))
    return await held


def _settle(future: asyncio.Future[bool], value: bool) -> None:
    if not future.done():
        future.set_result(value)
