"""What a table asks of the lease it is served under, in a cluster sharing one journal
(:class:`Lease`): the lobby shared by the cluster's servers hands a table its leases from
above (``scopa.server.lobby.TableLeases`` is one); a table never reaches up for them."""

from __future__ import annotations

from typing import Protocol

__all__ = ["Lease"]


class Lease(Protocol):
    """The lease of the tables a server serves: a server serves a table only while it holds
    its lease."""

    def holds(self, table_id: str) -> bool:
        """Whether this server may serve ``table_id`` now (its lease has not run out on
        this server's clock)."""

    def fenced(self, table_id: str) -> None:
        """The journal refused a write of ``table_id`` (another server claimed it): the
        table is given up here."""
