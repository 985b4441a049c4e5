"""A table: :class:`Table`, its game master and the loop that drives it, over small parts of
its own (seats and their tokens, turns and their clock, the numbered event log, the
broadcaster, what it journals, the notices of seats going away); :func:`token_digest` (how a
seat token is kept), :func:`bot_seats` (which free seats a new table's bots take), :class:`ResumeGate` (how often a seat may be resumed) and
:class:`Lease` (what a table asks of the lease it is served under, handed to it from above).

A table must never import the lobby, the players' archive or a cluster: whatever it needs
from above is handed to it (its lease, its journal); a refused answer is returned to the
caller as an effect to send, never sent into the session from inside."""

from __future__ import annotations

from .leases import Lease
from .resumes import ResumeGate
from .seats import bot_seats, token_digest
from .table import Table

__all__ = ["Lease", "ResumeGate", "Table", "bot_seats", "token_digest"]
