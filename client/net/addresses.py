"""Where a client can reach its server: the addresses it was given, and, for a cluster,
those its members named in their ``welcome`` (docs/PROTOCOL.md §7, "A cluster's lobby").

:class:`Addresses` says in which order to try them when a connection is to be made
again: the address of the connection just lost first (a server that restarts comes
back there), then the ones given (``--server a:1,b:2``), then the ones learned; an
address whose connection went silent or would not answer goes last, so that a frozen
member is tried only when no other answers.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from scopa.protocol.servers import ServerAddress


def share_host(reached: str, lan_hosts: Sequence[str]) -> tuple[str, bool]:
    """The host an invite names, and whether it works on this computer only.  A host
    reached on loopback (``127.0.0.1``, ``::1``, ``localhost``) is no use to a friend on
    another machine: the first address the server said other machines reach it at
    (``welcome``'s ``lan_hosts``) is named instead; with none, the loopback host stays."""
    if not _loopback(reached):
        return reached, False
    if lan_hosts:
        return lan_hosts[0], False
    return reached, True


def _loopback(host: str) -> bool:
    if host.strip("[]").lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Addresses:
    """The addresses of one server, or of the members of one cluster, in the order to try them."""

    def __init__(self, given: Sequence[ServerAddress]) -> None:
        self.given: list[ServerAddress] = _once(given)
        self.learned: list[ServerAddress] = []
        """The addresses the last ``welcome`` named (a cluster's; none from a lone server)."""
        self.shunned: ServerAddress | None = None
        """The address whose connection went silent or refused us last: tried last."""

    @property
    def cluster(self) -> bool:
        """Whether the server said it is a member of a cluster (its welcome named addresses)."""
        return bool(self.learned)

    def learn(self, addresses: Iterable[ServerAddress]) -> None:
        """A ``welcome``'s addresses, in place of the previous one's."""
        self.learned = _once(addresses)

    def order(self, here: ServerAddress) -> list[ServerAddress]:
        """Every known address once (as written: ``tls://`` counts), ``here`` first
        (unless shunned, then it is last).

        >>> a = Addresses([ServerAddress("a", 1), ServerAddress("b", 2)])
        >>> a.learn([ServerAddress("b", 2), ServerAddress("c", 3, tls=True)])
        >>> [str(x) for x in a.order(ServerAddress("c", 3, tls=True))]
        ['tls://c:3', 'a:1', 'b:2']
        >>> a.shunned = ServerAddress("c", 3, tls=True)
        >>> [str(x) for x in a.order(ServerAddress("c", 3, tls=True))]
        ['a:1', 'b:2', 'tls://c:3']
        """
        found = _once([here, *self.given, *self.learned])
        last = [a for a in found if self.shunned is not None and str(a) == str(self.shunned)]
        return [a for a in found if a not in last] + last if len(found) > 1 else found


def _once(addresses: Iterable[ServerAddress]) -> list[ServerAddress]:
    """Each address once, the first of those written alike kept (its fingerprint with it)."""
    seen: dict[str, ServerAddress] = {}
    for address in addresses:
        seen.setdefault(str(address), address)
    return list(seen.values())
