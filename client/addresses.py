"""Where a client can reach its server: the addresses it was given, and, for a cluster,
those its members named in their ``welcome`` (docs/PROTOCOL.md §7, "A cluster's lobby").

:class:`Addresses` says in which order to try them when a connection is to be made
again: the address of the connection just lost first (a server that restarts comes
back there), then the ones given (``--server a:1,b:2``), then the ones learned; an
address whose connection went silent or would not answer goes last, so that a frozen
member is tried only when no other answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Address = tuple[str, int]


class Addresses:
    """The addresses of one server, or of the members of one cluster, in the order to try them."""

    def __init__(self, given: Sequence[Address]) -> None:
        self.given: list[Address] = list(dict.fromkeys(given))
        self.learned: list[Address] = []
        """The addresses the last ``welcome`` named (a cluster's; none from a lone server)."""
        self.shunned: Address | None = None
        """The address whose connection went silent or refused us last: tried last."""

    @property
    def cluster(self) -> bool:
        """Whether the server said it is a member of a cluster (its welcome named addresses)."""
        return bool(self.learned)

    def learn(self, addresses: Iterable[Address]) -> None:
        """A ``welcome``'s addresses, in place of the previous one's."""
        self.learned = list(dict.fromkeys(addresses))

    def order(self, here: Address) -> list[Address]:
        """Every known address once, ``here`` first (unless shunned, then it is last).

        >>> a = Addresses([("a", 1), ("b", 2)])
        >>> a.learn([("b", 2), ("c", 3)])
        >>> a.order(("c", 3))
        [('c', 3), ('a', 1), ('b', 2)]
        >>> a.shunned = ("c", 3)
        >>> a.order(("c", 3))
        [('a', 1), ('b', 2), ('c', 3)]
        """
        found = list(dict.fromkeys([here, *self.given, *self.learned]))
        if self.shunned in found and len(found) > 1:
            found.remove(self.shunned)
            found.append(self.shunned)
        return found
