"""The leases of the tables of a cluster whose members share one journal: a member
serves a table only while it holds the table's lease, so no table ever has two owners.

Under the prefix ``P``: ``P:lease:ID`` holds the id of the member serving table ``ID``,
set only if nobody holds it (``SET NX PX``) and with a TTL [3 s] the member renews every
third of it on the server's clock; ``P:leased`` is the set of tables that need an owner
(the journal's unfinished tables, added with their first lease).

- **Serving only while held.** A lease renewed by a request sent at ``t`` lets the member
  serve the table until ``t + 2/3 TTL`` on its clock; Redis keeps it until at least
  ``t + TTL``.  When that time comes without a renewal (Redis cannot be reached), the
  member gives the table up (its clients are told and let go, nothing more of it is
  journaled) a third of the TTL before another member can take it.  The table's loop
  checks the lease before journaling each action (:meth:`Leases.holds`: the clock, no
  Redis round trip).  A renewal that finds another member's id (or the key gone and
  taken) gives the table up at once, and so does a write the journal refused because
  another member claimed the table (:meth:`Leases.fenced`; the journal's fence,
  :class:`~scopa.server.journal.commands.ClaimTable`, covers a write sent before the lease ran
  out and stored after another member took the table over).
- **Taking.** A new table's lease is taken before it is journaled.  When a member
  (re)joins it takes every unfinished table of the journal that nobody holds and
  restores it; on each renewal it looks for tables of ``P:leased`` whose lease is gone
  (their member died) and does the same, then takes the names of the seats it restored
  (``on_taken``: :meth:`~.names.Names.take_here`).  A table whose game is over gives its lease
  back and leaves ``P:leased`` once the journal holds its end (until then, a member taking
  it over finishes it from the journaled moves).
- **Leaving** (``scopa admin drain``, ``stop``, SIGTERM). A member that stops lets each
  table finish the action under way and take no other (it no longer holds the lease
  on its own clock), waits for the journal to store it (and the end of a game just over), hands the seats' names on to
  the tables (``on_leaving``: :meth:`~.names.Names.hand_over`), gives the tables up,
  then gives the leases back: the others take the tables on their next look.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence

from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..core import metrics, Clock, Timer, BackgroundTasks
from ..lobby import TableKeeper
from .keys import Keys

log = logging.getLogger("scopa.server.cluster")

_TAKE = """
local got = {}
for i = 2, #KEYS do
  local holder = redis.call('GET', KEYS[i])
  if holder == ARGV[1] or (not holder and redis.call('SET', KEYS[i], ARGV[1], 'NX', 'PX', ARGV[2])) then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    redis.call('SADD', KEYS[1], ARGV[i + 1])
    table.insert(got, ARGV[i + 1])
  end
end
return got
"""
"""KEYS[1]: the set of leased tables; KEYS[2..]: leases of tables ARGV[3..], for member
ARGV[1] with a TTL of ARGV[2] ms: the ids whose lease is the member's now."""

_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else table.insert(lost, ARGV[i + 2]) end
end
return lost
"""
"""Renew member ARGV[1]'s leases KEYS (of tables ARGV[3..]); one that expired unseen is
taken back (nobody else can have served it: they would hold it): the ids another
member holds now."""

_RELEASE = """
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
  if ARGV[2] == '1' then redis.call('SREM', KEYS[1], ARGV[i + 1]) end
end
return 0
"""
"""Give member ARGV[1]'s leases KEYS[2..] back (of tables ARGV[3..]); with ARGV[2] = 1
the tables need no owner any more (they left KEYS[1])."""


class Leases:
    """This member's table leases (the cluster's members share one journal)."""

    def __init__(self, member: str, keys: Keys, clock: Clock, ttl: float, keeper: TableKeeper,
                 on_lost: Callable[[BaseException], None],
                 on_taken: Callable[[Redis], Awaitable[None]] | None = None,
                 on_leaving: Callable[[Redis, Sequence[str]], Awaitable[None]] | None = None) -> None:
        """``keeper``: the server's tables; ``on_lost``: told when a command failed;
        ``on_taken``: awaited once tables were taken over and restored (their seats' names
        are then taken for this member); ``on_leaving``: awaited when this member stops,
        with the tables it hands on, once they take no more actions and before they are
        given up (their seats' names are then handed on with them)."""
        self.member = member
        self.keys = keys
        self.clock = clock
        self.ttl = ttl
        self.ttl_ms = max(1, round(ttl * 1000))
        self.keeper = keeper
        self.on_lost = on_lost
        self.on_taken = on_taken
        self.on_leaving = on_leaving
        self.store: Redis | None = None
        """The client, while Redis can be reached."""
        self.held: dict[str, float] = {}
        """Table id -> until when (on the clock) this member may serve it."""
        self._fence: Timer | None = None
        self._beat: Timer | None = None
        self._background = BackgroundTasks()

    @property
    def interval(self) -> float:
        """Seconds between renewals (and looks for tables whose member is gone)."""
        return self.ttl / 3

    def _until(self, sent: float) -> float:
        return sent + self.ttl * 2 / 3

    # ------------------------------------------------------------------ TableLeases

    def holds(self, table_id: str) -> bool:
        return self.held.get(table_id, float("-inf")) > self.clock.now()

    def fenced(self, table_id: str) -> None:
        self._lose_table(table_id, "another server took this table over; reconnect to resume your game")

    def lease_table(self, table_id: str, answer: Callable[[bool], None]) -> None:
        store = self.store
        if store is None:
            answer(False)
            return
        self._background.spawn(self._take_new(store, table_id, answer))

    async def _take_new(self, store: Redis, table_id: str, answer: Callable[[bool], None]) -> None:
        try:
            got = await self._take(store, [table_id])
        except (RedisError, OSError) as exc:
            self.on_lost(exc)
            got = []
        answer(table_id in got)

    # ------------------------------------------------------------------ life

    async def join(self, store: Redis) -> None:
        """Redis can be reached (again): renew what this member serves, then take and
        restore the journal's unfinished tables nobody holds."""
        await self._renew(store)
        try:
            free = [t for t in await self.keeper.unfinished() if t not in self.held]
        except Exception:  # noqa: BLE001 - the journal failed: tried again when this member joins again
            log.exception("cluster: member %s could not read the journal's unfinished tables", self.member)
            free = []
        await self._adopt(store, free)
        self.store = store
        self._beat = self.clock.call_later(self.interval, self._heartbeat)

    def down(self) -> None:
        """Redis cannot be reached: nothing is renewed (the tables are given up as their
        leases run out on this member's clock)."""
        self.store = None
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None

    async def leave(self, store: Redis) -> None:
        """This member stops: every table given up, its journal writes stored, its leases
        given back (the others take the tables at once)."""
        self.down()
        tables = list(self.held)
        self.held.clear()  # each table's loop takes no action after the one under way (Table.lease)
        self._arm_fence()
        await self.keeper.flush()  # that one is stored, and the end of a game over
        needed = set(self.keeper.serving())  # not those whose game's end is stored
        if tables and self.on_leaving is not None:
            await self.on_leaving(store, tables)
        for table_id in tables:
            self.keeper.give_up(table_id, "this server is stopping; reconnect to resume your game")
        metrics.TABLES_HANDED_ON.inc(len(tables))
        await self.keeper.flush()
        if tables:
            await self._release(store, [t for t in tables if t in needed], forget=False)
            await self._release(store, [t for t in tables if t not in needed], forget=True)
            log.info("cluster: gave back the leases of tables %s", ", ".join(tables))

    async def close(self) -> None:
        self.down()
        if self._fence is not None:
            self._fence.cancel()
            self._fence = None
        await self._background.close()

    # ------------------------------------------------------------------ renewing, taking, giving back

    def _heartbeat(self) -> None:
        store = self.store
        if store is not None:
            self._background.spawn(self._tick(store))

    async def _tick(self, store: Redis) -> None:
        try:
            await self._renew(store)
            await self._adopt(store, await self._orphans(store))
        except (RedisError, OSError, TimeoutError) as exc:
            self.on_lost(exc)
            return
        if self.store is store:
            self._beat = self.clock.call_later(self.interval, self._heartbeat)

    async def _renew(self, store: Redis) -> None:
        """Renew the leases of the tables served here; give back those no longer needed."""
        serving = set(self.keeper.serving())
        done = [t for t in self.held if t not in serving]
        if done:
            for table_id in done:
                del self.held[table_id]
            await self._release(store, done, forget=True)
        tables = list(self.held)
        if not tables:
            return
        sent = self.clock.now()
        lost = _texts(await store.eval(_RENEW, len(tables), *(self.keys.lease(t) for t in tables),
                                       self.member, str(self.ttl_ms), *tables))
        for table_id in tables:
            if table_id in lost:
                self._lose_table(table_id, "another server took this table over; reconnect to resume your game")
            elif table_id in self.held:
                self.held[table_id] = self._until(sent)
        self._arm_fence()

    async def _take(self, store: Redis, tables: Sequence[str]) -> list[str]:
        """Take the leases of ``tables`` that nobody holds: those this member holds now."""
        if not tables:
            return []
        sent = self.clock.now()
        got = _texts(await store.eval(_TAKE, len(tables) + 1, self.keys.leased, *(self.keys.lease(t) for t in tables),
                                      self.member, str(self.ttl_ms), *tables))
        for table_id in got:
            self.held[table_id] = self._until(sent)
        self._arm_fence()
        return got

    async def _release(self, store: Redis, tables: Sequence[str], *, forget: bool) -> None:
        if not tables:
            return
        await store.eval(_RELEASE, len(tables) + 1, self.keys.leased, *(self.keys.lease(t) for t in tables),
                         self.member, "1" if forget else "0", *tables)

    async def _orphans(self, store: Redis) -> list[str]:
        """The tables that need an owner and have none (their member is gone)."""
        leased = sorted(t for t in _texts(await store.smembers(self.keys.leased)) if t not in self.held)
        if not leased:
            return []
        holders = await store.mget([self.keys.lease(t) for t in leased])
        return [t for t, holder in zip(leased, holders) if holder is None]

    async def _adopt(self, store: Redis, tables: Sequence[str]) -> None:
        """Take the leases of ``tables`` and restore them; give back those not restored."""
        got = await self._take(store, tables)
        if not got:
            return
        try:
            served = set(await self.keeper.adopt(got))
        except Exception:  # noqa: BLE001 - the journal failed: the leases go back, the tables wait for a member
            log.exception("cluster: member %s could not restore tables %s", self.member, ", ".join(got))
            for table_id in got:
                self.held.pop(table_id, None)
            await self._release(store, got, forget=False)
            return
        log.info("cluster: member %s took over tables %s", self.member, ", ".join(t for t in got if t in served) or "-")
        metrics.TABLES_TAKEN_OVER.inc(len(served))
        gone = [t for t in got if t not in served]
        for table_id in gone:
            self.held.pop(table_id, None)
        if gone:
            await self._release(store, gone, forget=True)
        if served and self.on_taken is not None:
            await self.on_taken(store)

    # ------------------------------------------------------------------ running out

    def _lose_table(self, table_id: str, reason: str) -> None:
        if self.held.pop(table_id, None) is not None:
            log.warning("cluster: member %s no longer holds the lease of table %s", self.member, table_id)
            metrics.TABLES_HANDED_ON.inc()
            self.keeper.give_up(table_id, reason)

    def _arm_fence(self) -> None:
        """A timer at the first moment a lease runs out on this member's clock."""
        if self._fence is not None:
            self._fence.cancel()
            self._fence = None
        if self.held:
            self._fence = self.clock.call_at(min(self.held.values()), self._fenced)

    def _fenced(self) -> None:
        self._fence = None
        now = self.clock.now()
        for table_id, until in list(self.held.items()):
            if until <= now:
                self._lose_table(table_id, "this server lost touch with the cluster; reconnect to resume your game")
        self._arm_fence()


def _texts(values: Iterable[bytes | str] | None) -> list[str]:
    """Redis's answer (a list, or a set of members) as text."""
    return [v.decode() if isinstance(v, bytes) else str(v) for v in values or ()]
