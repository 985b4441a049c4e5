"""The server's connections: every open one by id, the names they go by, and the caps on
how many may be open (``max_connections`` overall, ``max_connections_per_address`` per
remote address, or per identity behind a trusted front end: server/core/proxies.py; none per
address for ``Limits.trusted_addresses``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core import Limits, ProxiedClients, Names, name_key

if TYPE_CHECKING:
    from .session import ServerSession

log = logging.getLogger("scopa.server")


class Connections:
    """Every connection by id and by name, and the connection caps."""

    def __init__(self, limits: Limits, trusted_proxies: Sequence[str] = ()) -> None:
        self.limits = limits
        self.sessions: dict[int, ServerSession] = {}
        self.names: dict[str, ServerSession] = Names()  # by name_key(): names that look alike are one
        self._per_address: dict[str, int] = {}  # open connections by remote address
        self.proxied = ProxiedClients(trusted_proxies, self.limits.max_connections_per_address)
        self.on_name_freed: Callable[[str], None] | None = None
        """Told each name no connection goes by any more (a cluster releases it)."""

    def connected(self, sess: ServerSession) -> str | None:
        """A new connection: why it is refused (a cap is reached), or None to keep it."""
        refusal = self._connection_refusal(sess.address)
        if refusal is not None:
            return refusal
        self._per_address[sess.address] = self._per_address.get(sess.address, 0) + 1
        self.sessions[sess.id] = sess
        log.info("connection %s from %s", sess.id, sess.peer)
        return None

    def _connection_refusal(self, address: str) -> str | None:
        """Why a new connection from ``address`` is refused (a cap is reached), or None."""
        limits = self.limits
        if limits.max_connections is not None and sum(self._per_address.values()) >= limits.max_connections:
            return f"the server has its maximum of {limits.max_connections} connections; try later"
        per = limits.max_connections_per_address
        if per is not None and self._per_address.get(address, 0) >= per and not self.proxied.trusts(address) \
                and not limits.trusts(address):
            return f"{per} connections from your address are open already"
        return None

    def release(self, sess: ServerSession) -> None:
        """A connection is gone: it no longer counts against its address (or identity)."""
        self._release_address(sess.address)
        self.proxied.release(sess.id)

    def _release_address(self, address: str) -> None:
        left = self._per_address.get(address, 0) - 1
        if left > 0:
            self._per_address[address] = left
        else:
            self._per_address.pop(address, None)

    def forget(self, sess: ServerSession) -> None:
        """A connection is gone: its name is free again, it is no longer listed."""
        if sess.name and self.names.get(name_key(sess.name)) is sess:
            del self.names[name_key(sess.name)]
            if self.on_name_freed is not None:
                self.on_name_freed(sess.name)
        self.sessions.pop(sess.id, None)
