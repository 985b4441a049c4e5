"""The names this member's connections go by, held in the shared lobby: a name is one
connection's on every member of the cluster.

A claim sets ``P:name:KEY`` (``name_key``: look-alike names are one) to this member's id
if no other member holds it, with a TTL; the member's refreshes keep its names alive,
take back one whose key expired while Redis could not be reached, and let go of any no
connection here goes by any more; a connection that goes releases its name at once
(unless a seat waiting for it keeps it).  Two connections of this member asking for one
name at once: the second is refused here, before Redis is asked.

A name someone here goes by that this member does not hold (the seats of a table it
has just taken over from another member, a seat resumed while the name was still the
old member's) is taken (:meth:`Names.take_here`) when the table is restored and on each
refresh: if nobody holds it, or the member holding it is gone (its key expired: it was
killed).  A name a live member holds stays that member's.

A member that stops hands its seats' names on with their tables (:meth:`Names.hand_over`,
before the tables are given up): each key says ``table:ID`` instead of the member's id,
for the table's grace period (the time a seat waits for its player; at least a name's
TTL).  No claim and no ticket gets such a name (``name_taken``), and no
member's refresh keeps it; the member that restores table ``ID`` takes it
(:meth:`Names.take_here`: a table is no live member), so from the drain to the resume
the name is the seat's.  A seat resumes with its token, never by claiming its name: at a
member that does not serve its table it is told to try again (the table is moving) or
sent on, and at the one that does, its seat's name is its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from ..lobby import Claim
from ..core import BackgroundTasks, name_key
from .keys import Keys

log = logging.getLogger("scopa.server.cluster")

_CLAIM = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
"""Claim a name for member ARGV[1] unless another member holds it."""

_REFRESH = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else table.insert(lost, key) end
end
return lost
"""
"""Keep member ARGV[1]'s names (taking back any that expired): the keys another member holds now."""

_KEEP = """
local got = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if not holder or holder == ARGV[1] or redis.call('EXISTS', ARGV[3] .. holder) == 0 then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    table.insert(got, key)
  end
end
return got
"""
"""Take names KEYS for member ARGV[1] unless a live member (one whose key, ARGV[3] followed
by its id, is there) holds them: the keys taken."""

_REDEEM = """
local want = redis.call('GET', KEYS[1])
if not want then return 0 end
redis.call('DEL', KEYS[1])
if want ~= ARGV[1] then return 0 end
local holder = redis.call('GET', KEYS[2])
if holder and string.sub(holder, 1, 6) == 'table:' then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
"""
"""Ticket KEYS[1] (once) for the name whose key is ARGV[1]: the name (KEYS[2]) is member
ARGV[2]'s now, whoever held it (the member the client was sent from lets it go later),
unless it is a seat's of a table handed on (``table:ID``)."""

_HAND_OVER = """
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if not holder or holder == ARGV[1] then redis.call('SET', key, ARGV[i + 2], 'PX', ARGV[2]) end
end
return 0
"""
"""Member ARGV[1] stops: names KEYS (free or its own) are held by ARGV[3..] (``table:ID``) now."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Names:
    """The names this member holds in the shared lobby."""

    def __init__(self, member: str, keys: Keys, name_ttl: float, in_use: Callable[[str], bool],
                 on_lost: Callable[[BaseException], None], here: Callable[[], Mapping[str, str]] = dict) -> None:
        """``in_use``: whether a connection (or a seat waiting for one) here goes by a name,
        given by its ``name_key``;
        ``on_lost``: told when a command failed (Redis cannot be reached); ``here``: the
        names the connections and the seats waiting for one go by here, by ``name_key``."""
        self.member = member
        self.keys = keys
        self.ttl_ms = max(1, round(name_ttl * 1000))
        self.in_use = in_use
        self.here = here
        self.on_lost = on_lost
        self.store: Redis | None = None
        """The client, while Redis can be reached."""
        self.held: dict[str, str] = {}  # name_key -> the name, held by this member
        self._asking: set[str] = set()  # name_keys whose claim is under way
        self._background = BackgroundTasks()

    def claim(self, name: str, answer: Callable[[Claim], None]) -> None:
        """Claim ``name`` for a connection of this member; ``answer`` gets the verdict."""
        key = name_key(name)
        if self.store is None:
            answer(Claim.UNAVAILABLE)
        elif key in self._asking or key in self.held:
            answer(Claim.TAKEN)
        else:
            self._asking.add(key)
            self._background.spawn(self._take(
                self.store.eval(_CLAIM, 1, self.keys.name(key), self.member, str(self.ttl_ms)), key, name, answer))

    def redeem(self, ticket_key: str, name: str, answer: Callable[[Claim], None]) -> None:
        """A redirect's ticket: ``name`` is this member's (CLAIMED) or the ticket is not
        valid for it (TAKEN)."""
        key = name_key(name)
        if self.store is None:
            answer(Claim.UNAVAILABLE)
        elif key in self._asking or key in self.held:
            answer(Claim.TAKEN)
        else:
            self._asking.add(key)
            self._background.spawn(self._take(
                self.store.eval(_REDEEM, 2, ticket_key, self.keys.name(key), key, self.member, str(self.ttl_ms)),
                key, name, answer))

    async def _take(self, script: Any, key: str, name: str, answer: Callable[[Claim], None]) -> None:
        """Settle a claim or a redeemed ticket under way for ``key``: the script's answer
        (1: the name is this member's) to ``answer``."""
        try:
            taken = await _run(script)
        except (RedisError, OSError) as exc:
            self._asking.discard(key)
            self.on_lost(exc)
            answer(Claim.UNAVAILABLE)
            return
        self._asking.discard(key)
        if taken:
            self.held[key] = name
        answer(Claim.CLAIMED if taken else Claim.TAKEN)

    def release(self, name: str) -> None:
        """No connection of this member goes by ``name`` any more."""
        key = name_key(name)
        if self.held.pop(key, None) is not None and self.store is not None:
            self._background.spawn(self._release(self.store, key))

    async def _release(self, store: Redis, key: str) -> None:
        try:
            await _run(store.eval(_RELEASE, 1, self.keys.name(key), self.member))
        except (RedisError, OSError) as exc:  # the name's key expires on its own
            self.on_lost(exc)

    async def refresh(self, store: Redis) -> None:
        """Let go of the names nobody here goes by any more; keep (or take back) the others."""
        unused = [key for key in self.held if not self.in_use(key)]
        for key in unused:
            del self.held[key]
        await self._release_all(store, unused)
        keys = {self.keys.name(key): key for key in self.held}
        if keys:
            lost = await _run(store.eval(_REFRESH, len(keys), *keys, self.member, str(self.ttl_ms)))
            for raw in lost:
                key = keys[raw.decode() if isinstance(raw, bytes) else str(raw)]
                log.warning("cluster: the name %r is held by another member too", self.held.get(key))
        await self.take_here(store)

    async def take_here(self, store: Redis) -> None:
        """Take the names someone here goes by that this member does not hold, unless a
        live member holds them."""
        if self.store is None:  # down, or stopping (its seats' names are handed on)
            return
        wanted: dict[str, str] = {}
        for key, name in self.here().items():
            if key not in self.held and key not in self._asking:
                wanted[self.keys.name(key)] = name
        if not wanted:
            return
        got = await _run(store.eval(_KEEP, len(wanted), *wanted, self.member, str(self.ttl_ms), self.keys.member("")))
        for raw in got:
            name = wanted[raw.decode() if isinstance(raw, bytes) else str(raw)]
            self.held[name_key(name)] = name

    async def hand_over(self, store: Redis, seats: Mapping[str, Iterable[str]], keep_for: float = 0.0) -> None:
        """This member stops and hands its tables on (``seats``: table id -> the names of
        its seats' people): each name is the table's until the member that restores it
        takes it, or for ``keep_for`` seconds (the seats' grace period: as long as a seat
        waits for its player), and at least a name's TTL."""
        labels = {self.keys.name(name_key(name)): f"table:{table_id}"
                  for table_id, names in seats.items() for name in names}
        for name in (n for names in seats.values() for n in names):
            self.held.pop(name_key(name), None)
        ttl_ms = max(self.ttl_ms, round(keep_for * 1000))
        if labels:
            await _run(store.eval(_HAND_OVER, len(labels), *labels, self.member, str(ttl_ms), *labels.values()))

    async def leave(self, store: Redis) -> None:
        """This member stops: every name it holds is free."""
        self.store = None
        held, self.held = list(self.held), {}
        await self._release_all(store, held)

    async def _release_all(self, store: Redis, keys: list[str]) -> None:
        if keys:
            pipe = store.pipeline(transaction=False)
            for key in keys:
                pipe.eval(_RELEASE, 1, self.keys.name(key), self.member)
            await pipe.execute()

    async def close(self) -> None:
        await self._background.close()


async def _run(request: Any) -> Any:
    """A command's answer (redis-py types its commands as answers or awaitables of them)."""
    return await request if asyncio.isfuture(request) or asyncio.iscoroutine(request) else request
