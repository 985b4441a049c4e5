"""What the game master tells players: public events and the private hand deal.

Every event but :class:`HandDealt` is public (the same for every seat and spectator).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from typing import Any, TypeVar

from .actions import Declare
from .cards import Card
from .rules import RuleSet
from .scoring import RoundScore
from .state import EndReason


_T = TypeVar("_T")


def quick_init(cls: type[_T]) -> type[_T]:
    """Give a frozen slotted dataclass ``cls`` an ``__init__`` that sets each slot through
    its descriptor, the same values in the same slots as the dataclass's own, which goes
    through ``object.__setattr__`` once per field (a third of the cost of making one of
    the events and effects each move makes).  For a class with no ``__post_init__`` and
    no ``default_factory``: anything else is refused here."""
    names: list[str] = []
    params: list[str] = []
    namespace: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if not f.init or f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init sets every field from an argument or a default")
        names.append(f.name)
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__  # the slot's member descriptor
        if f.default is MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    if hasattr(cls, "__post_init__") or not names:
        raise TypeError(f"{cls.__name__}: quick_init is for plain frozen slotted dataclasses")
    body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
    exec(f"def __init__(self, {', '.join(params)}):\n{body}", namespace)  # noqa: S102 - our own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)
    return cls


class Forced(StrEnum):
    """Why the game master made a play for a seat."""

    TIMEOUT = "timeout"  # the seat's turn clock ran out
    REFUSED = "refused"  # the seat's answers were refused too often


@dataclass(frozen=True, slots=True)
class PlayMark:
    """How a play came about, kept beside the play (a journal, a game record): the game
    master made it for the seat (``forced``: why), a built-in bot made it for a person
    who was away or had left (``bot``), it swept the table (``scopa``, R16)."""

    forced: Forced | None = None
    bot: bool = False
    scopa: bool = False


@dataclass(frozen=True, slots=True)
class GameStarted:
    rules: RuleSet
    names: tuple[str, ...]  # per seat
    first_dealer: int


@dataclass(frozen=True, slots=True)
class DealVoid:
    """R10/V13: the initial table was void (kings or aces); the same dealer deals again."""

    dealer: int
    table: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round_no: int
    dealer: int
    table: tuple[Card, ...]
    dealer_bonus: int  # V13: scope the dealer's side took from a 15/30 table (0 otherwise)
    bonus_cards: tuple[Card, ...]
    stock_left: int = field(default=0, compare=False)  # the stock after the deal


@quick_init
@dataclass(frozen=True, slots=True)
class HandDealt:
    """Private: only ``seat`` is told its cards."""

    seat: int
    hand: tuple[Card, ...]
    stock_left: int


@dataclass(frozen=True, slots=True)
class Declared:
    seat: int
    declaration: Declare
    hand: tuple[Card, ...]  # V13: declaring shows the hand to everyone


@quick_init
@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: Card
    captured: tuple[Card, ...]
    scopa: bool
    table: tuple[Card, ...]  # the table after the play
    forced: bool = False  # the game master played for this seat (e.g. after bad moves)
    forced_by: Forced | None = field(default=None, compare=False)  # why, when it did


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round_no: int
    score: RoundScore
    leftovers: tuple[Card, ...]
    leftovers_to: int | None  # side
    totals: tuple[int, ...]
    # Each side's pile (a card mask), scope and declaration points as the round ended:
    # what anyone could count (R19), for the raw tallies a server sends with the score.
    piles: tuple[int, ...] = field(default=(), compare=False)
    scope: tuple[int, ...] = field(default=(), compare=False)
    declared: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class GameEnded:
    winner: int | None  # side
    totals: tuple[int, ...]
    reason: EndReason


Event = GameStarted | DealVoid | RoundStarted | HandDealt | Declared | Played | RoundEnded | GameEnded
