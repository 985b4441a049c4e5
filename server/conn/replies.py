"""What the parts below the router hand back to the session that received a command, for
it to send (:class:`Refusal`): a refused command is an effect like an accepted one's
broadcast, so no part below the session calls back up into it while it is still reading."""

from __future__ import annotations

from dataclasses import dataclass

from scopa.protocol import Outgoing
from scopa.protocol.errors import ErrorCode

__all__ = ["Refusal"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """A command refused: the error the session sends for it (``code``, ``message``, in
    answer to ``re``, from ``sender``), then ``again`` (the same your_turn again, for an
    answer to a waiting turn: PROTOCOL.md §7), if any.  ``charged``: the command answered
    no question of the server, so it counts against the connection's command rate first
    (over the rate, the session sends that error instead)."""

    code: ErrorCode
    message: str
    re: int | None
    sender: str
    again: Outgoing | None = None
    charged: bool = False
