"""The constrained value types used by command bodies (one definition each).

Everything on the wire is a plain msgpack value: cards are notation strings, seats and
sides small integers, names bounded ASCII strings.
"""

from __future__ import annotations

from typing import Final, Annotated

from pydantic import BaseModel, Field, StringConstraints

from .parties import NAME_PATTERN, PARTY_MAX_LENGTH, PARTY_PATTERN, TABLE_ID_PATTERN

MAX_SEATS = 6
MAX_CARDS = 40

CARD_PATTERN = r"^[A2-7FCR][dcsb]$"
"""Canonical card notation: rank ``A 2 3 4 5 6 7 F C R`` then suit ``d c s b``."""

CardStr = Annotated[str, StringConstraints(pattern=CARD_PATTERN, min_length=2, max_length=2)]
Cards = Annotated[list[CardStr], Field(max_length=MAX_CARDS)]
PartyStr = Annotated[str, StringConstraints(pattern=PARTY_PATTERN, max_length=PARTY_MAX_LENGTH)]
PlayerParty = Annotated[str, StringConstraints(pattern=rf"^player:{NAME_PATTERN}$", max_length=PARTY_MAX_LENGTH)]
PlayerName = Annotated[str, StringConstraints(pattern=rf"^{NAME_PATTERN}$", max_length=24)]
TableId = Annotated[str, StringConstraints(pattern=rf"^{TABLE_ID_PATTERN}$", max_length=16)]
BotName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_\-]{1,32}$", max_length=32)]
Word = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{1,32}$", max_length=32)]
"""A lower-case identifier: a score category, an end reason, a rule option name."""
Text = Annotated[str, Field(max_length=500)]
ShortText = Annotated[str, Field(max_length=200)]
Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_\-]{8,64}$")]
InviteCode = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_\-]{8,64}$")]
"""The secret that lets a client join or watch a private table."""
AdminToken = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_\-]{16,128}$")]
"""The operator's secret (the server writes it to a 0600 file when it starts)."""
HostPort = Annotated[str, StringConstraints(
    pattern=r"^(tls://)?(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.\-]{1,253}):[0-9]{1,5}$", max_length=266)]
"""A server's address as a client connects to it: ``host:port`` (an IPv6 host in brackets),
``tls://host:port`` for a server speaking TLS (scopa.protocol.servers.address)."""
Host = Annotated[str, StringConstraints(pattern=r"^([0-9A-Fa-f:.]{2,45}|[A-Za-z0-9.\-]{1,253})$", max_length=253)]
"""A host alone, no port: an IPv4 or IPv6 address (no brackets) or a name."""
ChosenToken = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_\-]{22,64}$")]
"""A seat token the client picks itself (create_table, join_table): at least 22 characters."""

Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
TurnTimeout = Annotated[float, Field(gt=0, le=3600)]
"""Seconds a seat has for a move before the game master plays for it."""
TurnLeftMs = Annotated[int, Field(ge=0, le=3_600_000)]
"""Milliseconds left on a turn clock, counted when the command is sent."""
Side = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
Count = Annotated[int, Field(ge=0, le=1_000_000)]
Points = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
MAX_SEQ: Final = 2**53
"""The largest sequence number (exact in every JSON number implementation)."""
SeqNo = Annotated[int, Field(ge=0, le=MAX_SEQ)]
EventNo = Annotated[int, Field(ge=0, le=2**53)]
Counts = Annotated[list[Count], Field(max_length=MAX_SEATS)]
PointsList = Annotated[list[Points], Field(max_length=MAX_SEATS)]


def build_models(base: type[BaseModel]) -> None:
    """Build the validator and serializer of ``base`` and of every model derived from it
    that is not built yet (base classes before the classes derived from them)."""
    pending: list[type[BaseModel]] = [base]
    while pending:
        cls = pending.pop()
        if not cls.__pydantic_complete__:
            cls.model_rebuild()
        pending.extend(reversed(cls.__subclasses__()))
