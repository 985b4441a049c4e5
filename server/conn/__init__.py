"""The server's connections: one :class:`ServerSession` per connection (TCP or WebSocket,
the same session with two framings) owning its bytes, deadlines, rate and unsent frames, and
:class:`Connections`, every open one by id with the caps on how many may be open; and
:class:`Refusal`, a refused command handed back to the session that received it, by the
server it belongs to (its :class:`SessionHost`); :func:`turn_queued` times the your_turn a
move leads to until it is written; :class:`WriteBatch` writes the frames of a loop turn;
:class:`Deadlines` arms the connections' deadlines (and a table's turn clock) on a clock as one
timer, each armed one a :data:`DeadlineEntry`.

A session sends what the parts below the router hand back to it (an accepted command's
events, a refused one's error); it must never reach into a table, the lobby or the
journal, and nothing below it calls back into a session's receiving path."""

from __future__ import annotations

from .connections import Connections
from .deadlines import DeadlineEntry, Deadlines
from .replies import Refusal
from .session import ServerSession, SessionHost, WriteBatch, turn_queued

__all__ = ["Connections", "DeadlineEntry", "Deadlines", "Refusal", "ServerSession", "SessionHost", "WriteBatch", "turn_queued"]
