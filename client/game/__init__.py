"""What a table tells this client about its game, as values: no I/O, no screens.

Owns turning a table's commands into what a local :class:`~scopa.engine.Player` hears and
is asked (``GameTranslator``, its ``Reply`` and the ``GameResult`` at the end), the notices
about the other seats (``SeatNotice``: ``SeatWentAway``, ``SeatCameBack``,
``SeatTakenByBot``, read by ``notice_from_wire``) and the turn clock as the server tells it
(``TurnClock``, ``seconds_text``).

Must never: open a connection, wait on a clock, print, or import the client's net/,
text/, console/ or tui/ (they all stand on it).
"""

from __future__ import annotations

from .translator import GameResult, GameTranslator, Reply
from .notices import SeatCameBack, SeatNotice, SeatTakenByBot, SeatWentAway, notice_from_wire
from .turnclock import TurnClock, seconds_text

__all__ = [
    "GameResult",
    "GameTranslator",
    "Reply",
    "SeatCameBack",
    "SeatNotice",
    "SeatTakenByBot",
    "SeatWentAway",
    "TurnClock",
    "notice_from_wire",
    "seconds_text",
]
