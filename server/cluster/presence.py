"""A member's tables in the shared lobby, and the other members' tables in this server's
lobby.

This member's public tables are kept in its hash (``P:tables:ID``) and each change is
published on the channel (a ``table`` message, numbered per member); the changes of one
event-loop turn go to Redis in one round trip.  The other members' tables come from
their hashes when this member (re)joins, then from the channel, each filed in the
listing and sent to the lobby's watchers (:meth:`LobbyFeed.remote_changed`).

Liveness: the member's key (``P:member:ID``, its address) and hash expire unless refreshed
(:meth:`Presence.refresh`, on the server's clock); each refresh also looks at the other
members' keys (their addresses are kept, for the ``welcome``), and the tables of a
member whose key is gone leave this lobby (and the shared set of members).  A member that finds its own key gone (it was thought dead)
publishes its tables again.  A member that stops says so (``leave``) and its tables go
at once.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from scopa.protocol import commands as wire

from ..lobby import TableDirectory, LobbyFeed
from .keys import Keys, TableNews, leave_news, read_entry, table_texts

if TYPE_CHECKING:
    from ..table import Table

log = logging.getLogger("scopa.server.cluster")

Store = Redis  # the client every command but the channel's goes through


class Presence:
    """This member's tables in Redis, and the other members' in this lobby."""

    def __init__(self, member: str, keys: Keys, tables: TableDirectory, feed: LobbyFeed, member_ttl: float,
                 on_lost: Callable[[BaseException], None]) -> None:
        """``on_lost``: told when a command failed (Redis cannot be reached)."""
        self.member = member
        self.keys = keys
        self.tables = tables
        self.feed = feed
        self.ttl_ms = max(1, round(member_ttl * 1000))
        self.on_lost = on_lost
        self.address = ""
        """This member's advertised address (what its key holds)."""
        self.store: Store | None = None
        """The client, while Redis can be reached (None: this member's changes wait)."""
        self._n = itertools.count(1)
        self._dirty: dict[str, Table] = {}  # changed since the last round trip
        self._flushing: asyncio.Task[None] | None = None
        self._known: dict[str, dict[str, int]] = {}  # other member -> its table id -> the n filed
        self.addresses: dict[str, str] = {}
        """The other members alive when last looked at, and their advertised addresses."""
        self.alive: set[str] = set()
        """The other members whose keys were there at the last refresh."""

    # ------------------------------------------------------------------ this member's tables

    def changed(self, table: Table) -> None:
        """A public table of this server changed (LobbyFeed.table_listeners)."""
        self._dirty[table.id] = table
        if self.store is not None and self._flushing is None:
            self._flushing = asyncio.create_task(self._flush(self.store), name="cluster-publish")

    async def _flush(self, store: Store) -> None:
        try:
            while self._dirty and self.store is store:
                batch, self._dirty = self._dirty, {}
                pipe = store.pipeline(transaction=False)
                for table in batch.values():
                    self._stage(pipe, table.info())
                try:
                    await pipe.execute()
                except (RedisError, OSError) as exc:
                    self._dirty = batch | self._dirty
                    self.on_lost(exc)
                    return
        finally:
            self._flushing = None

    async def list_now(self, table: Table) -> None:
        """Publish ``table`` as it is now, at once (a new table: before its maker hears of
        it, so a client sent to any member finds it listed there)."""
        store = self.store
        if store is None or table.private:
            return  # published when Redis can be reached again (``join``); a private table never is
        pipe = store.pipeline(transaction=False)
        self._stage(pipe, table.info())
        try:
            await pipe.execute()
        except (RedisError, OSError) as exc:
            self.on_lost(exc)

    def _stage(self, pipe: Any, info: wire.TableInfo) -> None:
        n = next(self._n)
        entry, news = table_texts(self.member, n, info)
        if info.state is wire.TableState.CLOSED:
            pipe.hdel(self.keys.tables(self.member), info.id)
        else:
            pipe.hset(self.keys.tables(self.member), info.id, entry)
        pipe.publish(self.keys.lobby, news)

    async def join(self, store: Store) -> None:
        """Register this member and publish every public table of this server, its hash
        replaced at once (nobody sees it half written)."""
        self._dirty.clear()
        pipe = store.pipeline(transaction=True)
        pipe.set(self.keys.member(self.member), self.address, px=self.ttl_ms)
        pipe.sadd(self.keys.members, self.member)
        pipe.delete(self.keys.tables(self.member))
        for table in self.tables.values():
            if not table.private and not table.closed:
                self._stage(pipe, table.info())
        pipe.pexpire(self.keys.tables(self.member), self.ttl_ms)
        await pipe.execute()
        self.store = store

    async def leave(self, store: Store) -> None:
        """This member stops: its key and tables go, and the others hear so."""
        self.store = None
        pipe = store.pipeline(transaction=True)
        pipe.delete(self.keys.member(self.member), self.keys.tables(self.member))
        pipe.srem(self.keys.members, self.member)
        pipe.publish(self.keys.lobby, leave_news(self.member))
        await pipe.execute()

    def down(self) -> None:
        """Redis cannot be reached: this member's changes wait for it to come back, and
        the other members' tables leave this lobby (nobody can tell they still play)."""
        self.store = None
        if self._flushing is not None:
            self._flushing.cancel()
            self._flushing = None
        for member in self._members():
            self.forget_member(member)
        self.alive = set()

    # ------------------------------------------------------------------ the other members' tables

    async def load_others(self, store: Store) -> None:
        """File the tables of every other member that is alive (this member has just
        subscribed to the channel: what changes from now on comes from there)."""
        others = sorted(m for m in await _texts(store.smembers(self.keys.members)) if m != self.member)
        pipe = store.pipeline(transaction=False)
        for member in others:
            pipe.get(self.keys.member(member))
            pipe.hgetall(self.keys.tables(member))
        found = await pipe.execute()
        alive = set()
        self.addresses = {}
        for member, address, entries in zip(others, found[::2], found[1::2]):
            if address is None:
                continue
            alive.add(member)
            self.addresses[member] = _decoded([address])[0]
            fresh = {}
            for raw in entries.values():
                news = read_entry(member, raw)
                if news is not None:
                    fresh[news.table.id] = news
            for entry in self.tables.remote.of_member(member):
                if entry.id not in fresh:
                    self.feed.remote_changed(member, _closed(entry.table))
                    self._known.get(member, {}).pop(entry.id, None)
            for news in fresh.values():
                self.file(news)
        for member in self._members() - alive:
            self.forget_member(member)

    def file(self, news: TableNews) -> None:
        """A table of another member as it is now (older news than the last filed is dropped)."""
        known = self._known.setdefault(news.member, {})
        if known.get(news.table.id, 0) >= news.n:
            return
        if news.table.state is wire.TableState.CLOSED:
            known.pop(news.table.id, None)
        else:
            known[news.table.id] = news.n
        self.feed.remote_changed(news.member, news.table)

    def forget_member(self, member: str) -> None:
        """``member`` is gone: its tables leave this lobby (watchers see them ``closed``)."""
        self._known.pop(member, None)
        for entry in self.tables.remote.of_member(member):
            self.feed.remote_changed(member, _closed(entry.table))

    def _members(self) -> set[str]:
        return set(self._known) | {t.member for t in self.tables.remote}

    # ------------------------------------------------------------------ liveness

    async def refresh(self, store: Store) -> None:
        """Refresh this member's key and hash; publish its tables again if its key had
        expired; take out the members whose keys are gone, and their tables."""
        pipe = store.pipeline(transaction=False)
        pipe.set(self.keys.member(self.member), self.address, px=self.ttl_ms, get=True)
        pipe.sadd(self.keys.members, self.member)
        pipe.pexpire(self.keys.tables(self.member), self.ttl_ms)
        pipe.smembers(self.keys.members)
        before, _, _, members = await pipe.execute()
        if before is None:
            log.warning("cluster: this member's key had expired; publishing its tables again")
            await self.join(store)
        others = sorted(m for m in _decoded(members) if m != self.member)
        pipe = store.pipeline(transaction=False)
        for member in others:
            pipe.get(self.keys.member(member))
        self.addresses = {m: a for m, a in zip(others, _decoded_or_none(await pipe.execute())) if a is not None}
        alive = self.alive = set(self.addresses)
        dead = [m for m in others if m not in alive]
        if dead:
            pipe = store.pipeline(transaction=False)
            pipe.srem(self.keys.members, *dead)
            pipe.delete(*(self.keys.tables(m) for m in dead))
            await pipe.execute()
            log.info("cluster: members %s are gone", ", ".join(dead))
        for member in self._members() - alive:
            self.forget_member(member)


def _closed(info: wire.TableInfo) -> wire.TableInfo:
    return info.model_copy(update={"state": wire.TableState.CLOSED})


def _decoded(values: Any) -> list[str]:
    return [v.decode() if isinstance(v, bytes) else str(v) for v in values]


def _decoded_or_none(values: Any) -> list[str | None]:
    return [None if v is None else _decoded([v])[0] for v in values]


async def _texts(request: Any) -> list[str]:
    return _decoded(await request)
