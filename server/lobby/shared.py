"""What the server's parts ask of a lobby shared with other servers (a cluster member,
server/cluster/): names unique across the servers, table ids unique across them, lobby
chat that reaches every server's lobby, and whether the shared store can be reached;
with one journal shared by the servers, the lease of each table this server serves
(:class:`TableLeases`), and what the leases ask of the server's tables
(:class:`TableKeeper`).  A server without a cluster has none, and its parts do exactly
what they did alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from scopa.protocol import commands as wire

from ..core import metrics
from ..table import Lease

if TYPE_CHECKING:
    from ..conn import ServerSession
    from ..table import Table

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


@dataclass(frozen=True)
class HandOn:
    """Where a table another server serves is, for a client of this one."""

    address: str | None
    """The ``host:port`` of the server that serves it (None: no other server does)."""
    ticket: str | None = None
    """The one-time ticket the client gives there (None: it could not be stored)."""
    moving: bool = False
    """The table needs a server and has none just now (another is about to take it)."""

    def send(self, sess: ServerSession, table_id: str, re: int | None = None) -> bool:
        """Send ``sess`` on to the server serving ``table_id`` (a ``redirect`` with the
        ticket; ``re``: the command it answers, None when it answers none): whether it
        could (False: no other server serves it, or no ticket could be stored)."""
        if self.address is None or self.ticket is None:
            return False
        sess.tell(wire.Redirect(table=table_id, address=self.address, ticket=self.ticket), re=re)
        metrics.REDIRECTS.inc()
        return True


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

    async def id_refused(self, table_id: str) -> None:
        """The journal refused a new table: it holds ``table_id`` already (the ids in
        hand are stale: others are taken before this returns, so the maker, told to try
        again, gets one)."""

    async def list_table(self, table: Table) -> None:
        """Publish ``table`` as it is now to the lobby the servers share, at once (a new
        table: before its maker hears of its id, which anyone may then join on any server)."""

    def addresses(self) -> list[str]:
        """The ``host:port`` addresses at which clients reach the cluster (``welcome.cluster``)."""

    def hand_on(self, table_id: str, name: str, answer: Callable[[HandOn], None], naming: bool = True) -> None:
        """Where ``table_id`` is served, if by another server, with a ticket for a client
        called ``name`` (``answer`` is called once, later); ``naming`` False: the ticket
        only lets the client through (a resume's: its seat, found by its token there,
        names it), it gives it no name."""

    def redeem(self, ticket: str, name: str, answer: Callable[[Claim], None]) -> None:
        """A ``hello`` with ``ticket``: ``name`` is this server's connection's now
        (``CLAIMED``), or the ticket is not valid for it (``TAKEN``), or nobody can tell."""

    @property
    def leases(self) -> TableLeases | None:
        """The tables' leases, when the servers share one journal (None: each has its own)."""


class TableLeases(Lease, Protocol):
    """The leases of the tables this server serves, in a cluster sharing one journal: a
    server serves a table only while it holds its lease (``holds``, ``fenced``: a table's
    :class:`~scopa.server.table.Lease`)."""

    def lease_table(self, table_id: str, answer: Callable[[bool], None]) -> None:
        """Take the lease of a new table; ``answer`` is called once (later) with whether
        this server holds it now."""


class TableKeeper(Protocol):
    """What the leases ask of this server's tables."""

    async def unfinished(self) -> list[str]:
        """The ids of the journal's unfinished tables."""

    async def adopt(self, table_ids: Sequence[str]) -> list[str]:
        """Restore these tables from the journal (their leases are this server's now):
        the ids of those it serves now (the others are finished, closed or unknown)."""

    def give_up(self, table_id: str, reason: str) -> None:
        """Stop serving ``table_id`` at once: its clients are told ``reason`` and let go,
        nothing more of it is journaled here."""

    def serving(self) -> list[str]:
        """The ids of the tables served here that still need their lease: unfinished, or
        finished with their end not yet in the journal (a member that dies before it is
        stored leaves the table unfinished there, for another member to finish)."""

    async def flush(self) -> None:
        """Wait until everything written to the journal so far is stored, the ends of the
        games that are over included (stored or refused)."""
