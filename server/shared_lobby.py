"""What the server's parts ask of a lobby shared with other servers (a cluster member,
server/cluster/): names unique across the servers, table ids unique across them, lobby
chat that reaches every server's lobby, and whether the shared store can be reached.
A server without a cluster has none, and its parts do exactly what they did alone."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

from scopa.protocol import commands as wire

UNAVAILABLE = "the lobby shared by this cluster's servers cannot be reached just now; try again in a moment"
"""The message of an ``unavailable`` error."""


class Claim(Enum):
    """The answer to a name claim."""

    CLAIMED = "claimed"
    """The name is this connection's, on every server of the cluster."""
    TAKEN = "taken"
    """A connection on another server has it."""
    UNAVAILABLE = "unavailable"
    """The shared lobby cannot be reached: nobody can tell."""


class SharedLobby(Protocol):
    """A lobby shared with the other servers of a cluster."""

    @property
    def available(self) -> bool:
        """Whether the shared store can be reached now."""

    def claim_name(self, name: str, answer: Callable[[Claim], None]) -> None:
        """Claim ``name`` for a connection of this server; ``answer`` is called once
        with the verdict (later: the store is asked)."""

    def release_name(self, name: str) -> None:
        """A connection of this server no longer goes by ``name``."""

    def say(self, message: wire.ChatMessage) -> None:
        """Lobby chat said here: to the lobbies of the other servers too."""

    def next_table_id(self) -> str | None:
        """An id for a new table, unique across the cluster (None: none can be had now)."""
