"""The Redis clients of a cluster member's attempt to reach the cluster's Redis: straight
from a ``redis://`` URL, or through the Sentinels of a ``redis+sentinel://`` one
(server/cluster/redis_url.py), asked where the master is by each attempt."""

from __future__ import annotations

import contextlib

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import NoBackoff

from .redis_url import SENTINEL_SCHEME, parse_sentinel_url


class Connector:
    """The clients of one attempt to reach the cluster's Redis (through its Sentinels,
    asked afresh by each attempt), and what they need closed afterwards."""

    def __init__(self, url: str, timeout: float) -> None:
        """``timeout``: seconds to connect (and for a Sentinel to answer)."""
        self.url = url
        self.timeout = timeout
        self._sentinel: Sentinel | None = None
        self._master = ""
        if url.startswith(SENTINEL_SCHEME):
            where = parse_sentinel_url(url)
            self._master = where.master
            self._sentinel = Sentinel(list(where.sentinels), db=where.db,
                                      sentinel_kwargs={"socket_timeout": timeout, "socket_connect_timeout": timeout,
                                                       "retry": Retry(NoBackoff(), 0)})

    def client(self, read_timeout: float | None) -> Redis:
        """A client of the master (``read_timeout``: seconds an answer may take; None: no limit)."""
        if self._sentinel is not None:
            client: Redis = self._sentinel.master_for(self._master, socket_timeout=read_timeout,
                                                      socket_connect_timeout=self.timeout, retry=Retry(NoBackoff(), 0))
            return client
        return Redis.from_url(self.url, socket_timeout=read_timeout, socket_connect_timeout=self.timeout,
                              retry=Retry(NoBackoff(), 0))

    async def aclose(self) -> None:
        """Close the connections to the Sentinels (the clients are closed by their users)."""
        if self._sentinel is not None:
            for client in self._sentinel.sentinels:
                with contextlib.suppress(Exception):
                    await client.aclose()
