"""The actions that change a game: a deal (chance), a play, a Cirulla declaration.

They are small named tuples so that the hot path (bots searching many rounds) stays
cheap; ``capture`` is a bitmask of table cards (0 = the card is laid on the table).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .cards import CARDS, Card, cards_in, format_cards


class Play(NamedTuple):
    """Play ``card`` from hand and take the table cards in ``capture`` (a mask)."""

    card: int
    capture: int = 0

    @property
    def captured(self) -> list[Card]:
        return cards_in(self.capture)

    def __str__(self) -> str:
        c = str(CARDS[self.card])
        return f"{c} takes {format_cards(self.capture)}" if self.capture else f"{c} on the table"

LAID: tuple[Play, ...] = tuple(Play(card) for card in range(40))
"""The play of each card laid on the table (it captures nothing), one value each, shared
by every list of legal plays that holds it."""


class DeclarationKind(StrEnum):
    """V13 Cirulla hand bonuses."""

    UNDER_TEN = "under10"  # hand total under 10: 3 points
    TRIS = "tris"  # three cards of one value: 10 points


DECLARATION_POINTS = {DeclarationKind.UNDER_TEN: 3, DeclarationKind.TRIS: 10}


class Declare(NamedTuple):
    """Declare a Cirulla hand bonus (V13); ``wild`` is the value given to the 7 of Coppe."""

    kind: DeclarationKind
    wild: int | None = None

    def __str__(self) -> str:
        w = f" (7c as {self.wild})" if self.wild is not None else ""
        return f"declare {self.kind.value}{w}"


class Deal(NamedTuple):
    """The chance action: the shuffled deck, top card first."""

    order: tuple[int, ...]


Action = Play | Declare | Deal
