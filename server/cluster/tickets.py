"""Where a table another member serves is, and the one-time ticket that takes a client
there (a ``redirect``): with a shared journal, from the table's lease (its holder's
address), else from the lobby's listing.  The ticket (``P:ticket:T``) holds the
``name_key`` of the client's name, for a short TTL; the member it names takes it once
(server/cluster/names.py, ``redeem``); a resume's ticket holds none: the hello
that follows it resumes the seat of its token, which names the client.  Beside it, ``P:pass:T`` keeps the address the
ticket is for, as long, so that the web front of any member (they may share one web
port) carries a browser there (:class:`SharedPasses`, server/web/relay.py)."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from redis.asyncio import Redis
from redis.exceptions import RedisError

from scopa.protocol.commands import Redirect

from ..lobby import HandOn
from ..web import Passes
from ..core import name_key
from .keys import Keys


async def hand_on(*, store: Redis, keys: Keys, member: str, address: str, leased: bool, listed: str | None,
                  table_id: str, name: str | None, ticket_ttl: float, on_lost: Callable[[BaseException], None],
                  answer: Callable[[HandOn], None]) -> None:
    """Tell ``answer`` where ``table_id`` is served (``listed``: where the lobby says it
    plays; ``leased``: the members share a journal) with a ticket for ``name`` (None: a
    ticket that gives no name, only the passage)."""
    found, moving, ticket = None, False, None
    try:
        if leased:
            holder = _text(await store.get(keys.lease(table_id)))
            if holder is None or holder == member:
                moving = bool(await store.sismember(keys.leased, table_id))
            else:
                found = _text(await store.get(keys.member(holder)))
                moving = found is None
        if found is None and not moving:
            found = listed
        if found is not None and found != address:
            ticket = secrets.token_urlsafe(18)
            ttl_ms = max(1, round(ticket_ttl * 1000))
            pipe = store.pipeline(transaction=True)
            if name is not None:
                pipe.set(keys.ticket(ticket), name_key(name), px=ttl_ms)
            pipe.set(keys.passage(ticket), found, px=ttl_ms)
            await pipe.execute()
        elif found is not None:
            found, moving = None, True  # listed here still: given up a moment ago
    except (RedisError, OSError) as exc:
        on_lost(exc)
        ticket = None
    answer(HandOn(found, ticket, moving))


class SharedPasses:
    """The web front's passes (:class:`~scopa.server.web.passes.PassBook`) in a cluster:
    every ticket the cluster gave is found in Redis, whichever member's front sent its
    ``redirect`` (the members may share one web port), and taken once (``P:pass:T``);
    while Redis cannot be reached, only those this front sent are found (in ``local``)."""

    def __init__(self, keys: Keys, store: Callable[[], Redis | None], on_lost: Callable[[BaseException], None],
                 local: Passes) -> None:
        self.keys = keys
        self.store = store
        self.on_lost = on_lost
        self.local = local

    def note(self, redirect: Redirect) -> None:
        self.local.note(redirect)

    async def find(self, ticket: str) -> str | None:
        address = self.local.take(ticket)
        store = self.store()
        if store is None:
            return address
        try:
            shared = _text(await store.getdel(self.keys.passage(ticket)))
        except (RedisError, OSError) as exc:
            self.on_lost(exc)
            return address
        return shared  # the cluster's word: a ticket another front took is taken


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value
