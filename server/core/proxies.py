"""Connections that a trusted front end opens on behalf of its users.

A web front end in front of the server runs one client per browser, and every one of them
reaches the server from the front end's own address: counted by address, a family
table on phones would be one client against ``max_connections_per_address``.  So the
operator names the addresses of the front ends they run (``scopa serve --trust-proxy
ADDRESS``).  A connection from such an address:

- is not counted against ``max_connections_per_address`` (``max_connections`` still
  counts it);
- says in its ``hello`` whom it is for (``proxied_for``: an opaque identity the front
  end gives each browser), and ``max_connections_per_address`` applies to each such
  identity instead;
- without ``proxied_for`` it is an ordinary client of the front end's address: such
  connections together are capped by ``max_connections_per_address``, as any client.

``proxied_for`` from an address that is not trusted is ignored: that connection is an
ordinary client, already counted by its address (PROTOCOL.md §7, "Front ends").
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(addresses: Iterable[str]) -> tuple[Network, ...]:
    """``127.0.0.1``, ``::1``, ``10.0.0.0/24`` … as networks; ValueError names a bad one."""
    out: list[Network] = []
    for text in addresses:
        try:
            out.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an IP address or network: {text!r}") from None
    return tuple(out)


def in_networks(address: str, networks: tuple[Network, ...]) -> bool:
    """Whether the IP ``address`` (an IPv4-mapped IPv6 one as IPv4) is in one of ``networks``."""
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in networks)


class ProxiedClients:
    """Which addresses are trusted front ends, and how many connections each identity
    behind them has open (the per-address cap, applied per identity)."""

    def __init__(self, trusted: Iterable[str] = (), per_identity: int | None = None) -> None:
        self.trusted = parse_networks(trusted)
        self.per_identity = per_identity
        self._open: dict[tuple[str, str], int] = {}  # (front end address, identity) -> connections
        self._of: dict[int, tuple[str, str]] = {}  # connection id -> its (address, identity)

    def trusts(self, address: str) -> bool:
        """Whether ``address`` (a connection's remote IP) is a trusted front end."""
        return in_networks(address, self.trusted)

    def identity_of(self, conn_id: int) -> str | None:
        """The identity a connection was admitted for (None: an ordinary client)."""
        key = self._of.get(conn_id)
        return key[1] or None if key is not None else None

    def origin(self, conn_id: int, address: str) -> str:
        """Where connection ``conn_id`` from ``address`` comes from, for the per-address
        caps and the ratings: its address, or, for one admitted for an identity behind a
        trusted front end, that identity at that front end."""
        key = self._of.get(conn_id)
        return f"{key[0]}/{key[1]}" if key is not None and key[1] else address

    def admit(self, conn_id: int, address: str, identity: str | None) -> str | None:
        """A ``hello`` on connection ``conn_id`` from ``address`` saying it is for
        ``identity``: count it, or say why it is refused (the identity's cap is reached).
        A hello from a trusted address without an identity counts for the front end's
        own address, under the same cap.  Nothing is counted (and nothing refused) for
        an untrusted address (its connections are counted by address when they open),
        or for a connection already admitted."""
        if conn_id in self._of or not self.trusts(address):
            return None
        key = (address, identity if identity is not None else "")
        count = self._open.get(key, 0)
        if self.per_identity is not None and count >= self.per_identity:
            if identity is None:
                return f"{self.per_identity} connections from {address} are open already"
            return f"{self.per_identity} connections for you through {address} are open already"
        self._open[key] = count + 1
        self._of[conn_id] = key
        return None

    def release(self, conn_id: int) -> None:
        """Connection ``conn_id`` closed."""
        key = self._of.pop(conn_id, None)
        if key is None:
            return
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)

    def open_for(self, address: str, identity: str) -> int:
        """Connections open for ``identity`` through the front end at ``address``."""
        return self._open.get((address, identity), 0)
