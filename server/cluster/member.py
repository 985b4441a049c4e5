"""This server as a member of a cluster: its connection to the shared lobby in Redis, and
what it does while Redis can be reached (:class:`ClusterMember`, the server's
:class:`~scopa.server.lobby.shared.SharedLobby`).

The member subscribes to the lobby's channel, publishes its tables and loads the other
members' (server/cluster/presence.py), takes back the names its connections hold
(server/cluster/names.py) and a block of table ids, then reads the channel and refreshes
its keys on the server's clock until a command fails.  Then it is *down*: the other
members' tables leave this lobby, a ``hello``, a ``create_table`` and lobby chat are
refused with ``unavailable``, the running tables play on; every ``retry`` seconds it
tries again, and once up it publishes everything again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from scopa.protocol import commands as wire

from ..core import metrics, Clock, Timer, BackgroundTasks, name_key
from ..conn import Connections
from ..journal import Journal, StorageError, table_number
from ..lobby import TableDirectory, LobbyFeed, Claim, HandOn, TableKeeper, TableLeases
from ..web import Passes
from .keys import AnswerNews, AskNews, CameNews, ChatNews, Keys, LeaveNews, News, TableNews, ToldNews, chat_news, read_news
from .leases import Leases
from .tickets import SharedPasses, hand_on
from .names import Names
from .options import ClusterOptions, is_host_port
from .connector import Connector
from .presence import Presence
from .relay import TournamentRelay

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger("scopa.server.cluster")

_TAKE_IDS = """
local size = tonumber(ARGV[1])
local top = redis.call('INCRBY', KEYS[1], size)
if top - size < tonumber(ARGV[2]) then
  top = tonumber(ARGV[2]) + size
  redis.call('SET', KEYS[1], top)
end
return top
"""
"""Take ARGV[1] ids from the counter, none at or below ARGV[2]: the last id of the block."""


class ClusterMember:
    """One server's membership of a cluster sharing one lobby through Redis."""

    def __init__(self, options: ClusterOptions, clock: Clock, connections: Connections, tables: TableDirectory,
                 feed: LobbyFeed, keeper: TableKeeper | None = None, journal: Journal | None = None,
                 tournaments: TableKeeper | None = None) -> None:
        """``keeper``: the server's tables, when the members share one journal (the
        tables' leases are then held here); ``journal``: the server's journal, where table
        ids come from when the members share it, else the floor of those Redis gives;
        ``tournaments``: the server's tournaments, leased like its tables (under
        ``P:tournament``) when the members share one journal."""
        self.options = options
        self.id = options.member_id or secrets.token_hex(6)
        self.keys = Keys(options.prefix)
        self.clock = clock
        self.connections = connections
        self.tables = tables
        self.presence = Presence(self.id, self.keys, tables, feed, options.member_ttl, self._lose)
        self.names = Names(self.id, self.keys, options.name_ttl, lambda key: _in_use(connections, tables, key),
                           self._lose, lambda: _names_here(connections, tables))
        self._leases = Leases(self.id, self.keys, clock, options.lease_ttl, keeper, self._lose,
                              on_taken=self.names.take_here,
                              on_leaving=lambda store, ids: _hand_names(self.names, tables, store, ids)) \
            if options.shared_journal and keeper is not None else None
        self.tournament_leases = Leases(self.id, Keys(f"{options.prefix}:tournament"), clock, options.lease_ttl,
                                         tournaments, self._lose) \
            if options.shared_journal and tournaments is not None else None
        """The leases of the tournaments this member runs (None: the members do not share one journal)."""
        self.tournament_relay = TournamentRelay(self.id, self.keys.lobby, Keys(f"{options.prefix}:tournament"),
                                                lambda: self._store, self._lose, options.timeout) \
            if self.tournament_leases is not None else None
        """Tournament commands and news between the members (None: the members do not share one journal)."""
        self._all_leases = [x for x in (self._leases, self.tournament_leases) if x is not None]
        self.journal = journal
        self.id_floor = 0
        """Table ids at or below this one are never taken (the journal's at start; the
        journal's last id is read again for every block)."""
        self._ids: deque[int] = deque()
        self._taking = False
        self._one_take = asyncio.Lock()  # one block taken at a time: the last one asked for is the one kept
        self._store: Redis | None = None
        self._lost = asyncio.Event()
        self._attempted = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._beat: Timer | None = None
        self._background = BackgroundTasks()
        self.web_passes = SharedPasses(self.keys, lambda: self._store, self._lose, Passes(time.monotonic))
        """The passes of this member's web front: its own ``redirect``s', and those of the
        other members' fronts (a web port they share)."""
        feed.table_listeners.append(self.presence.changed)
        connections.on_name_freed = self.release_name

    @property
    def address(self) -> str:
        return self.presence.address

    # ------------------------------------------------------------------ SharedLobby

    @property
    def available(self) -> bool:
        return self._store is not None

    def claim_name(self, name: str, answer: Callable[[Claim], None]) -> None:
        if self._store is None:  # joining (its tables not yet taken over) or cut off: nobody is
            answer(Claim.UNAVAILABLE)  # welcomed who could not make a table
            return
        self.names.claim(name, answer)

    def release_name(self, name: str) -> None:
        if not _away(self.tables, name_key(name)):  # a seat waiting for its client keeps its name
            self.names.release(name)

    def say(self, message: wire.ChatMessage) -> None:
        if self._store is not None:
            self._background.spawn(_publish(self._store, self.keys.lobby, chat_news(self.id, message), self._lose))

    @property
    def leases(self) -> TableLeases | None:
        return self._leases

    def hand_on(self, table_id: str, name: str, answer: Callable[[HandOn], None], naming: bool = True) -> None:
        if self._store is None:  # nobody can tell where it is now
            answer(HandOn(self.tables.remote.where(table_id), moving=True))
            return
        self._background.spawn(hand_on(store=self._store, keys=self.keys, member=self.id, address=self.address,
                                       leased=self._leases is not None, listed=self.tables.remote.where(table_id),
                                       table_id=table_id, name=name if naming else None, ticket_ttl=self.options.ticket_ttl,
                                       on_lost=self._lose, answer=answer))

    def redeem(self, ticket: str, name: str, answer: Callable[[Claim], None]) -> None:
        self.names.redeem(self.keys.ticket(ticket), name, answer)

    async def list_table(self, table: Table) -> None:
        await self.presence.list_now(table)

    def addresses(self) -> list[str]:
        """The operator's seeds, then this member's address and the others' (each once)."""
        found = dict.fromkeys([*self.options.seeds, self.address, *sorted(self.presence.addresses.values())])
        return [a for a in found if is_host_port(a)][:wire.MAX_CLUSTER_ADDRESSES]

    def next_table_id(self) -> str | None:
        if self._store is None:
            return None
        if len(self._ids) <= self.options.id_block // 2 and not self._taking:
            self._taking = True
            self._background.spawn(self._take_ids(self._store))
        return str(self._ids.popleft()) if self._ids else None

    async def id_refused(self, table_id: str) -> None:
        log.error("cluster: table id %s is held in the journal already; this member's ids are taken again", table_id)
        self._ids.clear()
        if self._store is not None:  # after any block on its way (it may have read the journal too soon)
            await self._take_ids(self._store)

    # ------------------------------------------------------------------ life

    async def start(self, address: str) -> None:
        """Join the cluster as ``address`` (what clients connect to); returns once the
        first attempt to reach Redis succeeded or failed (it is tried again until it works)."""
        self.presence.address = address
        for table in self.tables.values():
            table.member = address
        self._task = asyncio.create_task(self._run(), name=f"cluster-member-{self.id}")
        await self._attempted.wait()

    async def stop(self) -> None:
        """Leave the cluster: this member's tables and names go from the shared lobby."""
        store, self._store = self._store, None
        self._down()
        for leases in self._all_leases:
            try:
                if store is not None:
                    await leases.leave(store)
            except (RedisError, OSError) as exc:
                log.warning("cluster: could not give back this member's leases (they expire): %s", exc)
        if store is not None:
            try:
                async with asyncio.timeout(self.options.timeout):
                    await self.names.leave(store)
                    await self.presence.leave(store)
                log.info("cluster: member %s left the lobby", self.id)
            except (RedisError, OSError, TimeoutError) as exc:
                log.warning("cluster: could not say this member leaves (its keys expire): %s", exc)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self._background.close()
        if self.tournament_relay is not None:
            await self.tournament_relay.close()
        await self.names.close()
        for leases in self._all_leases:
            await leases.close()

    async def _run(self) -> None:
        while True:
            self._lost.clear()
            connector = Connector(self.options.url, self.options.timeout)  # through Sentinels: the master now
            store, listener = connector.client(self.options.timeout), connector.client(None)
            pubsub = listener.pubsub()
            reading: asyncio.Task[None] | None = None
            try:
                async with asyncio.timeout(self.options.timeout * 4):
                    await self._join(store, pubsub)
                reading = asyncio.create_task(self._read(pubsub), name=f"cluster-channel-{self.id}")
                for leases in self._all_leases:  # the tables (then tournaments) whose leases are free
                    await leases.join(store)  # are restored here
                self._up(store)
                await self._lost.wait()
            except (RedisError, OSError, TimeoutError) as exc:
                log.warning("cluster: Redis at %s cannot be reached: %s", self.options.url, exc)
                metrics.REDIS_ERRORS.inc()
            finally:
                self._down()
                if reading is not None:
                    reading.cancel()
                    await asyncio.gather(reading, return_exceptions=True)
                await _close(pubsub, store, listener)
                await connector.aclose()
            self._attempted.set()
            await self.clock.sleep(self.options.retry)

    async def _join(self, store: Redis, pubsub: PubSub) -> None:
        """Subscribe (confirmed: what is published from now on is heard), then publish and
        load the lobby, take a block of ids and take back the names (from then on a
        ``hello`` is welcomed, and its ``create_table`` has an id)."""
        await pubsub.subscribe(self.keys.lobby)
        while (message := await pubsub.get_message(timeout=self.options.timeout)) is None \
                or message["type"] != "subscribe":
            pass
        await self.presence.join(store)
        await self.presence.load_others(store)
        self._ids.clear()
        await self._take_ids(store)
        self.names.store = store
        await self.names.refresh(store)
        log.info("cluster: member %s (%s) joined the lobby at %s", self.id, self.address, self.options.url)

    def _up(self, store: Redis) -> None:
        if self._attempted.is_set():  # joined once, or tried and failed: Redis is back
            metrics.REDIS_RECONNECTS.inc()
        self._store = store
        self._attempted.set()
        self._beat = self.clock.call_later(self.options.refresh_interval, self._heartbeat)

    def _down(self) -> None:
        if self._store is not None:
            log.warning("cluster: member %s is cut off from the shared lobby", self.id)
        self._store = None
        self.names.store = None
        self.presence.down()
        for leases in self._all_leases:
            leases.down()
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None

    def _lose(self, exc: BaseException) -> None:
        """A command failed: Redis counts as down until it can be reached again."""
        if not self._lost.is_set():
            log.warning("cluster: a Redis command failed: %s", exc)
        metrics.REDIS_ERRORS.inc()
        self._lost.set()

    def _heartbeat(self) -> None:
        if self._store is not None:
            self._background.spawn(self._refresh(self._store))

    async def _refresh(self, store: Redis) -> None:
        try:
            async with asyncio.timeout(self.options.timeout * 2):
                await self.presence.refresh(store)
                await self.names.refresh(store)
        except (RedisError, OSError, TimeoutError) as exc:
            self._lose(exc)
            return
        if self._store is store:
            self._beat = self.clock.call_later(self.options.refresh_interval, self._heartbeat)

    async def _read(self, pubsub: PubSub) -> None:
        try:
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is None or message.get("type") != "message":
                    continue
                news = read_news(message["data"], unless_from=self.id)
                if news is not None:
                    self._hear(news)
        except (RedisError, OSError) as exc:
            self._lose(exc)

    def _hear(self, news: News) -> None:
        if isinstance(news, AskNews | AnswerNews | ToldNews | CameNews):
            if self.tournament_relay is not None:
                self.tournament_relay.hear(news)
        elif isinstance(news, TableNews):
            self.presence.file(news)
        elif isinstance(news, LeaveNews):
            self.presence.forget_member(news.member)
            self.presence.addresses.pop(news.member, None)
        else:
            for sess in self.connections.sessions.values():
                if sess.welcomed:
                    sess.tell(news.message)

    async def _take_ids(self, store: Redis) -> None:
        """A block of table ids: from the journal the members share (no loss of Redis's
        data can hand an id out again), else from Redis's counter, never at or below the
        highest id this member's journal holds, read now, nor any id in the lobby."""
        self._taking = True
        try:
            size = self.options.id_block
            async with self._one_take, asyncio.timeout(self.options.timeout * 2):
                if self.options.shared_journal and self.journal is not None:
                    top = await self.journal.take_table_ids(size)
                else:
                    listed = [t.id for t in self.tables.remote] + list(self.tables)
                    floor = max([self.id_floor, *map(table_number, listed)])
                    if self.journal is not None:
                        floor = max(floor, await self.journal.last_table_id())
                    top = int(await store.eval(_TAKE_IDS, 1, self.keys.table_ids, str(size), str(floor)))
                self._ids.clear()
                self._ids.extend(range(top - size + 1, top + 1))
        except (RedisError, OSError) as exc:
            self._lose(exc)
        except (StorageError, TimeoutError) as exc:  # a new table is unavailable until a block is had
            log.warning("cluster: no table ids from the journal for now: %s", exc or "it did not answer in time")
        finally:
            self._taking = False




async def _publish(store: Redis, channel: str, message: str, on_lost: Callable[[BaseException], None]) -> None:
    try:
        await store.publish(channel, message)
    except (RedisError, OSError) as exc:
        on_lost(exc)


def _names_here(connections: Connections, tables: TableDirectory) -> dict[str, str]:
    """The names a member's connections, and its seats waiting for one, go by, by their
    ``name_key`` (the connections' are keyed so already)."""
    names = {key: sess.name for key, sess in connections.names.items() if sess.name}
    for t in tables.with_away_seats():
        names.update((name_key(s.name), s.name) for s in t.seats if s is not None and s.away)
    return names


async def _hand_names(names: Names, tables: TableDirectory, store: Redis, table_ids: Sequence[str]) -> None:
    """The tables a member that stops hands on keep their seats' names (the people's), for
    as long as their seats wait for them."""
    seats = {}
    grace = 0.0
    for table_id in table_ids:
        table = tables.get(table_id)
        if table is not None:
            seats[table_id] = [s.name for s in table.seats if s is not None and s.bot is None]
            grace = max(grace, table.grace)
    try:
        await names.hand_over(store, seats, keep_for=grace)
    except (RedisError, OSError) as exc:  # the tables are given up all the same
        log.warning("cluster: could not hand the seats' names on with their tables: %s", exc)


def _in_use(connections: Connections, tables: TableDirectory, key: str) -> bool:
    """Whether a connection here, or a seat waiting for its client, goes by the name whose
    ``name_key`` is ``key`` (the connections' names are kept by it)."""
    return key in connections.names.keys() or _away(tables, key)


def _away(tables: TableDirectory, key: str) -> bool:
    """Whether a seat waiting for its client goes by the name whose ``name_key`` is ``key``."""
    return any(s is not None and s.away and name_key(s.name) == key
               for t in tables.with_away_seats() for s in t.seats)


async def _close(*clients: PubSub | Redis) -> None:
    """Close a connection's clients, whatever state they are in."""
    for client in clients:
        with contextlib.suppress(Exception):
            await client.aclose()
