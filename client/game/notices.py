"""What a client is told about the people at its table, besides the game itself: a seat
whose connection dropped, came back, or was taken over by a bot (PROTOCOL.md §8,
``seat_away``, ``seat_back``, ``seat_replaced``).  Values for a terminal UI to show."""

from __future__ import annotations

from dataclasses import dataclass

from scopa.protocol import Body, SeatAway, SeatBack, SeatReplaced


@dataclass(frozen=True, slots=True)
class SeatWentAway:
    """A seat's connection dropped; the table waits up to ``grace_seconds`` for it."""

    seat: int
    name: str
    grace_seconds: float


@dataclass(frozen=True, slots=True)
class SeatCameBack:
    """The seat's player is back at the table (``bot_played``: a bot played the seat
    since their grace period ran out; they play it again from now on)."""

    seat: int
    name: str
    bot_played: bool = False


@dataclass(frozen=True, slots=True)
class SeatTakenByBot:
    """A built-in bot (``strategy``) plays the seat now: its person left the game
    (``left``), or did not come back within the grace period."""

    seat: int
    name: str
    strategy: str
    left: bool = False


SeatNotice = SeatWentAway | SeatCameBack | SeatTakenByBot


def notice_from_wire(body: Body) -> SeatNotice | None:
    """The notice a ``seat_away`` / ``seat_back`` / ``seat_replaced`` body stands for."""
    if isinstance(body, SeatAway):
        return SeatWentAway(body.seat, body.name, body.grace_seconds)
    if isinstance(body, SeatBack):
        return SeatCameBack(body.seat, body.name, body.bot_played)
    if isinstance(body, SeatReplaced):
        return SeatTakenByBot(body.seat, body.name, body.strategy)
    return None
