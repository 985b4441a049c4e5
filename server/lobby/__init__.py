"""The lobby: the table directory (:class:`TableDirectory`) and its listing, the feed of
table updates (:class:`LobbyFeed`), who sits or watches where (:class:`SeatingRegistry`),
the life of the tables (:class:`TableLife`, and :func:`leases_of`, the leases a new table takes) and what a connection does at them
(:class:`TableCommands`), the operator's commands (:class:`Operator`), and what the
server's parts ask of a lobby shared with other servers (:class:`SharedLobby`,
:class:`TableLeases`, :class:`TableKeeper`, :class:`HandOn`, :class:`Claim`,
:data:`UNAVAILABLE`), with this server's tables as a cluster's leases see them
(:class:`HeldTables`).

It must never import the router (network, dispatch, greeting, serving), the web front or
a cluster member: a cluster is handed in behind :class:`SharedLobby`."""

from __future__ import annotations

from .commands import TableCommands
from .directory import TableDirectory
from .feed import LobbyFeed
from .held import HeldTables
from .life import TableLife, leases_of
from .operator import Operator
from .seating import SeatingRegistry
from .shared import Claim, HandOn, SharedLobby, TableKeeper, TableLeases, UNAVAILABLE

__all__ = [
    "Claim", "HandOn", "HeldTables", "LobbyFeed", "Operator", "SeatingRegistry", "SharedLobby", "TableCommands",
    "TableDirectory", "TableKeeper", "TableLeases", "TableLife", "UNAVAILABLE", "leases_of",
]
