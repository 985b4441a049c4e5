"""The life of the server's tables: made by ``create_table`` (journaled before anyone
hears of them), restored from the journal when the server starts (a game that does not
replay is marked damaged, never tried again), closed when nobody waits at them any
more, when nobody sat down at them in time or by the operator, and pruned from the
lobby once finished.  The built-in bots that sit at them are made here too."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scopa.bots import STRATEGIES, make_bot
from scopa.engine import Player, RuleSet, RuleSetError
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire
from scopa.protocol.errors import ErrorCode

from ..core import metrics, Clock, Limits, ProxiedClients, BackgroundTasks, BotPool
from ..players import Archive, Rater
from ..journal import (
    ClaimTable, CloseTable, CreateTable, Journal, MarkDamaged, StorageError, StoredTable, TableResult, TableTaken
)
from .directory import TableDirectory, build_rules
from .feed import LobbyFeed
from .seating import SeatingRegistry
from ..table import bot_seats, token_digest, Table
from .rematch import make_rematch
from .shared import UNAVAILABLE, SharedLobby, TableLeases

if TYPE_CHECKING:
    from ..conn import ServerSession

log = logging.getLogger("scopa.server")


def tell_seated(table: Table, sess: ServerSession, joined: wire.Joined | None, seq: int | None) -> None:
    """A seat taken at ``table``, told once the journal holds it: ``joined`` to its client
    (a person's), then who sits where to the table."""
    if joined is not None:
        sess.tell(joined, re=seq)
    table.announce_seats()


def leases_of(shared: SharedLobby | None) -> TableLeases | None:
    """What a table asks before journaling an action, in a cluster sharing one journal."""
    return shared.leases if shared is not None else None


@dataclass(frozen=True)
class _Made:
    """A new table as ``create_table`` checked it: its id, rules, turn clock, maker's origin."""

    id: str
    rules: RuleSet
    turn_timeout: float | None
    origin: str


class TableLife:
    """Creates, restores and closes the tables of one directory."""

    def __init__(self, tables: TableDirectory, seating: SeatingRegistry, feed: LobbyFeed, storage: Journal | None, *,
                 limits: Limits, clock: Clock, ratings: Rater, archive: Archive, proxied: ProxiedClients,
                 seed: int | None, grace: float, turn_timeout: float | None, bot_workers: int) -> None:
        """``grace``, ``turn_timeout``, ``bot_workers``: as for NetworkEngine."""
        self.tables = tables
        self.seating = seating
        self.feed = feed
        self.storage = storage
        self.limits = limits
        self.clock = clock
        self.ratings = ratings
        self.archive = archive
        self.proxied = proxied
        self.grace = grace
        self.turn_timeout = turn_timeout
        self.bot_workers = bot_workers
        self._bot_pool: BotPool | None = None
        self._seeds = random.Random(seed) if seed is not None else random.SystemRandom()
        self._last_id = 0  # the last table id made here (a server of its own)
        self._creating = BackgroundTasks()  # new tables waiting for the journal to store them
        self.creating: set[str] = set()
        """The ids of the new tables whose journaling is under way (their leases are needed)."""
        self.damaged: dict[str, str] = {}  # table id -> why the journal could not restore it
        self.last_stored_id = 0
        """The highest table id the journal had at start (a cluster's ids go on after it)."""
        self.shared: SharedLobby | None = None
        """In a cluster: the lobby shared with the other servers (table ids unique across them)."""
        self.member: str | None = None
        """In a cluster: this server's address, which its tables' maps give."""

    # ------------------------------------------------------------------ persistence

    async def restore_tables(self, games: bool = True) -> None:
        """Rebuild the journaled unfinished games and resume them; table ids go on after
        the highest one ever stored (``games`` False: only that, and the damaged tables)."""
        assert self.storage is not None
        self.last_stored_id = await self.storage.last_table_id()
        self._last_id = self.last_stored_id
        self.damaged = dict(await self.storage.load_damaged())
        if not games:
            return
        unfinished = await self.storage.load_unfinished()
        await self.claim([stored.id for stored in unfinished])  # their writes are this server's now
        for stored in unfinished:
            self.restore(stored)
        now = time.time()
        for done in (await self.storage.load_finished_since(now - self.grace))[-self.limits.finished_tables_kept:]:
            if done.table.id in self.tables:
                continue
            expires_in = done.result.finished_at + self.grace - now
            self.tables[done.table.id] = Table.finished_from_storage(done, expires_in, grace=self.grace,
                                                                     clock=self.clock)

    def restore(self, stored: StoredTable) -> Table | None:
        """One unfinished journaled table, resumed where it stood (None: it is damaged,
        or it was still gathering players, whose clients are gone: it is closed)."""
        assert self.storage is not None
        if stored.damage is not None:
            self._mark_damaged(stored.id, stored.damage)
            return None
        if stored.status != "playing" or any(s is None for s in stored.seats):
            if self.shared is not None and any(s is not None and not s.bot for s in stored.seats):
                return self._restore_waiting(stored)  # its people were told their seats: they come back here
            self.storage.write(CloseTable(stored.id, "server restarted before the game began"))
            return None
        try:
            table = Table.from_storage(stored, self.storage, on_finished=self.table_finished,
                                       on_result=self.archive.finish,
                                       bot_factory=self.make_bot, grace=self.grace, clock=self.clock,
                                       turn_timeout=self.turn_timeout, update_interval=self.limits.table_update_interval,
                                       notice_window=self.limits.resume_window, on_changed=self.feed.table_changed,
                                       member=self.member, lease=leases_of(self.shared))
        except Exception as exc:  # noqa: BLE001 - one bad journal must not keep other games down
            self._mark_damaged(stored.id, f"its game does not replay: {type(exc).__name__}: {exc}")
            return None
        self.tables.add(table)
        log.info("table %s: restored at action %s", table.id, len(stored.actions))
        return table

    def _restore_waiting(self, stored: StoredTable) -> Table:
        """A journaled table still gathering players, taken over from another member of the
        cluster: waiting again, its people away (for the grace period) until they resume."""
        options = {key: stored.options[key] for key in ("bot_takeover", "turn_timeout") if key in stored.options}
        options.setdefault("turn_timeout", self.turn_timeout)
        table = Table(stored.id, stored.rules, stored.seed, private=stored.private,
                      invite_digest=str(stored.options.get("invite_digest") or ""), on_finished=self.table_finished,
                      on_vacated=self.seat_freed, on_changed=self.feed.table_changed, grace=self.grace,
                      clock=self.clock, bot_factory=self.make_bot, update_interval=self.limits.table_update_interval,
                      notice_window=self.limits.resume_window, member=self.member, lease=leases_of(self.shared), **options)
        table.seats.restore_waiting(stored)
        table.journal.storage = self.storage
        table.on_result = self.archive.finish
        self.tables.add(table)
        log.info("table %s: restored, waiting for players", table.id)
        if table.seats.full:  # its start was not journaled: it starts here
            table.start()
            self.tables.update(table)
        return table

    async def claim(self, table_ids: Sequence[str]) -> set[str]:
        """Claim ``table_ids`` in the journal (:class:`~.journal.ClaimTable`: from then on
        it stores no other journal's writes of them, whoever wrote them before): the ids
        claimed; one the journal refused (it ended meanwhile) is named in the log."""
        assert self.storage is not None
        claims = [(table_id, self.storage.write(ClaimTable(table_id))) for table_id in table_ids]
        claimed: set[str] = set()
        for table_id, claim in claims:
            try:
                await claim
                claimed.add(table_id)
            except StorageError as exc:
                log.warning("table %s: not claimed in the journal: %s", table_id, exc)
        return claimed

    def make_bot(self, strategy: str, name: str, seed: int) -> Player:
        """A table's built-in bot: one that searches thinks in the worker pool, so its
        moves never hold up this event loop; the others play in process."""
        if getattr(STRATEGIES.get(strategy), "thinks", False):
            if self._bot_pool is None:
                self._bot_pool = BotPool(self.bot_workers)
            return self._bot_pool.player(strategy, name, seed)
        return make_bot(strategy, name, seed=seed)

    async def close_bots(self) -> None:
        """Stop the worker pool of the bots that search, if one was made."""
        if self._bot_pool is not None:
            await asyncio.to_thread(self._bot_pool.close)
            self._bot_pool = None
        await self._creating.close()

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

    # ------------------------------------------------------------------ creating

    def create(self, sess: ServerSession, body: wire.CreateTable, seq: int) -> None:
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
        if body.sit and not self.token_free(sess, body.token, seq):
            return
        bot_game = not body.sit and len(body.fill_with_bots) == rules.players
        origin = self.proxied.origin(sess.id, sess.address)
        trusted = origin == sess.address and self.limits.trusts(sess.address)
        refusal = self.tables.refusal(sess.id, bot_game, origin, trusted)
        if refusal is not None:
            metrics.RATE_LIMITED_TABLES.inc()
            sess.error(ErrorCode.TOO_MANY_TABLES, refusal, re=seq)
            return
        table_id = self.next_table_id()
        if table_id is None:
            sess.error(ErrorCode.UNAVAILABLE, UNAVAILABLE, re=seq)
            return
        made = _Made(table_id, rules, turn_timeout, origin)
        leases = self.shared.leases if self.shared is not None else None
        if leases is None:
            self._make(sess, body, seq, made)
        else:  # the lease first: no other server restores a table this one journals
            leases.lease_table(table_id, lambda held: self._leased(sess, body, seq, made, held))

    def _leased(self, sess: ServerSession, body: wire.CreateTable, seq: int, made: _Made, held: bool) -> None:
        """The answer to a new table's lease."""
        if sess.closed:
            return  # the lease is given back on its next renewal (nothing serves the table)
        if not held:
            sess.error(ErrorCode.UNAVAILABLE, UNAVAILABLE, re=seq)
        elif body.sit and sess.table_id is not None:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are already at table {sess.table_id}", re=seq)
        elif not body.sit or self.token_free(sess, body.token, seq):
            self._make(sess, body, seq, made)

    def _make(self, sess: ServerSession, body: wire.CreateTable, seq: int, made: _Made) -> None:
        """A new table: journaled first (nobody hears of it before the journal has it), then
        in the lobby, told to its maker (seated if it asked)."""
        table = self.new_table(made.id, made.rules, body.bot_takeover, made.turn_timeout)
        invite = table.new_invite() if body.private else None
        if self.storage is None:
            self._open(sess, body, seq, made, table, invite)
            return
        options: dict[str, object] = {"preset": body.preset, "options": body.options,
                                      "bot_takeover": table.bot_takeover, "turn_timeout": table.turn_timeout}
        if invite is not None:
            options["invite_digest"] = table.invite_digest
        written = self.storage.write(CreateTable(table.id, made.rules, table.seed, table.private, options))
        self.creating.add(table.id)
        self._creating.spawn(self._journaled(written, sess, body, seq, made, table, invite))

    async def _journaled(self, written: Awaitable[None], sess: ServerSession, body: wire.CreateTable, seq: int,
                         made: _Made, table: Table, invite: str | None) -> None:
        """A new table once the journal answered its CreateTable: opened, or refused (the
        journal holds that id already, or could not store it: nothing is played)."""
        try:
            await written
            if self.shared is not None:  # listed in the cluster before its maker (or anyone) hears of it
                await self.shared.list_table(table)
            storage = self.storage
            if storage is None:
                return  # the server stopped meanwhile
            table.journal.storage = storage
            table.on_result = self.archive.finish
            refusal = self._gone(sess, body, seq, made)
            if refusal is not None:
                storage.write(CloseTable(table.id, refusal))
                if self.shared is not None:
                    table.closed = True
                    await self.shared.list_table(table)  # and out of the cluster's listing
                return
            self._open(sess, body, seq, made, table, invite)
        except StorageError as exc:
            log.error("table %s: not made, the journal refused it: %s", table.id, exc)
            if isinstance(exc, TableTaken) and self.shared is not None:
                await self.shared.id_refused(table.id)  # the maker tries again: the new ids are in hand
            elif isinstance(exc, TableTaken) and self.storage is not None:  # ids go on after the journal's highest
                with contextlib.suppress(StorageError):
                    self._last_id = max(self._last_id, await self.storage.last_table_id())
            if not sess.closed:
                sess.error(ErrorCode.UNAVAILABLE, f"table {table.id} could not be made: the journal refused it "
                                                  f"({exc}); nothing was played; try again", re=seq)
        finally:
            self.creating.discard(table.id)

    def next_table_id(self) -> str | None:
        """The id of a new table (None: the cluster cannot give one now)."""
        if self.shared is not None:
            return self.shared.next_table_id()
        self._last_id += 1
        return str(self._last_id)

    def new_table(self, table_id: str, rules: RuleSet, bot_takeover: bool, turn_timeout: float | None,
                  seed: int | None = None) -> Table:
        """A new table of this server, not yet journaled nor in the lobby (``seed``: its
        deals'; None: the server's next)."""
        return Table(table_id, rules, self._seeds.randrange(2**63) if seed is None else seed,
                     on_finished=self.table_finished, on_vacated=self.seat_freed,
                     on_changed=self.feed.table_changed, grace=self.grace, bot_takeover=bot_takeover,
                     turn_timeout=turn_timeout, clock=self.clock, bot_factory=self.make_bot,
                     update_interval=self.limits.table_update_interval, notice_window=self.limits.resume_window,
                     member=self.member, lease=leases_of(self.shared))

    def _gone(self, sess: ServerSession, body: wire.CreateTable, seq: int, made: _Made) -> str | None:
        """Why a table journaled a moment ago is not opened after all (None: it is): its
        maker left, sat down elsewhere, or made too many tables meanwhile (told so)."""
        if sess.closed:
            return "its maker left before it was made"
        if body.sit and sess.table_id is not None:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are already at table {sess.table_id}", re=seq)
            return "its maker sat down elsewhere"
        if body.sit and not self.token_free(sess, body.token, seq):
            return "its maker's seat token was in use"
        bot_game = not body.sit and len(body.fill_with_bots) == made.rules.players
        too_many = self.tables.refusal(sess.id, bot_game, made.origin)
        if too_many is not None:
            sess.error(ErrorCode.TOO_MANY_TABLES, too_many, re=seq)
            return "its maker has too many tables"
        return None

    def _open(self, sess: ServerSession, body: wire.CreateTable, seq: int, made: _Made, table: Table,
              invite: str | None) -> None:
        """A new table (journaled if there is a journal) in the lobby, told to its maker."""
        rules, origin = made.rules, made.origin
        if body.sit:
            self.seating.stop_watching(sess)
        offered = make_rematch(table, self.tables.get(body.rematch_of), sess) if body.rematch_of else []
        self.tables.add(table, owner=sess.id, origin=origin)
        self.feed.table_changed(table)
        log.info("table %s created by %s: %s", table.id, sess.party, rules.describe())
        joined: tuple[int, str] | None = None
        if body.sit:
            joined = table.seats.seat_client(sess, body.token)
            self.ratings.fair.seen(table.id, joined[0], origin, fresh=True)
        for strategy, at in zip(body.fill_with_bots, bot_seats(
                [i for i, s in enumerate(table.seats) if s is None], len(body.fill_with_bots), rules,
                None if joined is None else joined[0]), strict=False):
            table.seats.seat_bot(strategy, at)
        sess.tell(wire.TableCreated(table=table.info(), invite=invite), re=seq)
        for other in offered:  # the finished game's other players: a rematch is on offer
            other.tell(wire.TableUpdate(table=table.info()))
        told = None
        if joined is not None:
            seat, token = joined
            told = wire.Joined(table=table.id, seat=seat, side=rules.side_of(seat), token=token,
                               chat=list(table.broadcaster.said))  # a rematch's: the finished game's last lines
        table.journal.tell_when_stored(lambda: tell_seated(table, sess, told, seq))
        if table.seats.full:
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

    def token_free(self, sess: ServerSession, token: str | None, seq: int) -> bool:
        """A seat token the client chose must not be one a seat holds already."""
        if token is None or self.tables.table_of_token(token_digest(token)) is None:
            return True
        sess.error(ErrorCode.BAD_TOKEN, "that seat token is in use; choose another", re=seq)
        return False

    # ------------------------------------------------------------------ closing

    def close_waiting(self, table: Table, reason: str) -> None:
        """Close a table that waits for players: its seated clients are told ``left``."""
        for s in table.seats.sessions():
            s.tell(wire.Left(table=table.id, reason=wire.LeftReason.CLOSED.value))
            s.table_id = None
        for s in list(table.broadcaster.spectators):
            table.broadcaster.unwatch(s, tell=True)
        table.cancel_timers()
        self.unlist(table)
        if self.storage is not None and table.journal.storage is not None:
            try:
                self.storage.write(CloseTable(table.id, reason))
            except Exception as exc:  # noqa: BLE001 - the table is gone either way
                log.error("table %s: could not journal its closing: %s", table.id, exc)
        log.info("table %s: closed (%s)", table.id, reason)

    def waited_too_long(self, table: Table) -> None:
        self.close_waiting(table, f"nobody sat down at it for {self.limits.waiting_table_expiry:g} s")

    def unlist(self, table: Table) -> None:
        """The table leaves the lobby: lobby watchers get its last update (``closed``)."""
        self.tables.pop(table.id, None)
        self.ratings.fair.forget(table.id)
        table.closed = True
        self.feed.table_changed(table)

    def seat_freed(self, table: Table) -> None:
        """After a person left a waiting table (or did not come back to it): tell the
        others, or close a table with nobody but bots left (in the journal too)."""
        if any(s is not None and s.bot is None for s in table.seats):
            table.announce_seats()
            return
        if table.id not in self.tables:
            return
        self.unlist(table)
        table.cancel_timers()
        log.info("table %s closed: nobody is waiting at it", table.id)
        if self.storage is not None and table.journal.storage is not None:
            try:
                self.storage.write(CloseTable(table.id, "everyone left before the game began"))
            except Exception:  # noqa: BLE001 - the lobby goes on; the journal keeps a stale row
                log.exception("table %s: could not record its closing", table.id)

    def save_waiting(self, table_id: str, why: str | None) -> None:
        """The journal cannot save ``table_id``'s writes for now (``why``), or can again (None)."""
        table = self.tables.get(table_id)
        if table is not None and not table.closed:
            table.broadcaster.tell_all(wire.SaveWaiting(waiting=why is not None, reason=(why or "")[:200]))

    def table_finished(self, table: Table) -> None:
        for old in self.tables.prune_finished():  # the oldest finished tables leave the lobby
            old.closed = True
            self.feed.table_changed(old)
            old.cancel_timers()
