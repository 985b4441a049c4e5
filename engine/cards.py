"""Cards, suits, values and the card notation (RULES.md R1-R4).

A card is an ``int`` from 0 to 39, laid out value-major: ``id = (value - 1) * 4 + suit``.
Sets of cards (a hand, the table, a capture pile) are 40-bit masks, which keeps the
hot path (legal moves, applying a play) to integer operations.  :class:`Card` is an
``int`` subclass that prints and parses the readable notation:

    rank  ``A 2 3 4 5 6 7 F C R``  (Asso, 2-7, Fante, Cavallo, Re)
    suit  ``d c s b``             (Denari, Coppe, Spade, Bastoni)

so ``7d`` is the settebello and ``Rd`` the re bello.

>>> Card.parse("7d").value, Card.parse("7d").suit.name
(7, 'DENARI')
>>> str(Card.from_parts(10, Suit.DENARI))
'Rd'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Callable, Iterable


class Suit(IntEnum):
    """The four suits (R1); the value is the suit's index in a card id."""

    DENARI = 0
    COPPE = 1
    SPADE = 2
    BASTONI = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]


SUIT_LETTERS = "dcsb"
RANK_LETTERS = "A234567FCR"
# Friendly aliases accepted when parsing (French-deck habits): J/Q/K for Fante/Cavallo/Re.
_RANK_ALIASES = {"J": 8, "Q": 9, "K": 10, "1": 1, "10": 10, "8": 8, "9": 9}
# French ("classic") suit letters accepted when parsing: diamonds, hearts, spades, clubs.
_SUIT_ALIASES = {"d": 0, "c": 1, "s": 2, "b": 3, "h": 1, "♦": 0, "♥": 1, "♠": 2, "♣": 3}

# R3: primiera values indexed by capture value 1..10 (index 0 unused).
PRIMIERA = (0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10)

NUM_CARDS = 40
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1


class Card(int):
    """One of the 40 cards; an ``int`` (0..39) that prints in card notation."""

    __slots__ = ()

    @classmethod
    def from_parts(cls, value: int, suit: Suit | int) -> Card:
        if not 1 <= value <= 10:
            raise ValueError(f"card value must be 1..10, not {value}")
        return CARDS[(value - 1) * 4 + int(suit)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse card notation such as ``7d``, ``Rd``, ``Fc`` (also ``Kd``, ``10d``)."""
        t = text.strip()
        if len(t) < 2:
            raise ValueError(f"not a card: {text!r} (expected e.g. '7d', 'Rd', 'Ac')")
        rank_part, suit_part = t[:-1], t[-1].lower() if t[-1].isascii() else t[-1]
        rank_up = rank_part.upper()
        if len(rank_up) == 1 and rank_up in RANK_LETTERS:
            value = RANK_LETTERS.index(rank_up) + 1
        elif rank_up in _RANK_ALIASES:
            value = _RANK_ALIASES[rank_up]
        else:
            raise ValueError(f"not a card: {text!r} (unknown rank {rank_part!r})")
        if suit_part not in _SUIT_ALIASES:
            raise ValueError(f"not a card: {text!r} (unknown suit {t[-1]!r})")
        return CARDS[(value - 1) * 4 + _SUIT_ALIASES[suit_part]]

    @property
    def value(self) -> int:
        """Capture value (R2): Asso 1 ... Re 10."""
        return VALUE[self]

    @property
    def suit(self) -> Suit:
        return Suit(int(self) & 3)

    @property
    def primiera(self) -> int:
        """Primiera value (R3)."""
        return PRIMIERA[VALUE[self]]

    @property
    def bit(self) -> int:
        return 1 << int(self)

    def __str__(self) -> str:
        return RANK_LETTERS[VALUE[self] - 1] + SUIT_LETTERS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


VALUE: tuple[int, ...] = tuple(i // 4 + 1 for i in range(NUM_CARDS))
SUIT_OF: tuple[int, ...] = tuple(i & 3 for i in range(NUM_CARDS))
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(NUM_CARDS))
BIT: tuple[int, ...] = tuple(1 << i for i in range(NUM_CARDS))

# Masks used by rules and scoring.
VALUE_MASK: tuple[int, ...] = (0,) + tuple(0b1111 << ((v - 1) * 4) for v in range(1, 11))
SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << ((v - 1) * 4 + s) for v in range(1, 11)) for s in range(4)
)
DENARI_MASK = SUIT_MASK[Suit.DENARI]
SETTEBELLO = Card.from_parts(7, Suit.DENARI)
RE_BELLO = Card.from_parts(10, Suit.DENARI)
SETTE_COPPE = Card.from_parts(7, Suit.COPPE)


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_in(mask: int) -> list[Card]:
    """The cards of a mask, in id order (value-major)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


REMEMBERED_CARDS = 3
""":func:`cards_of` remembers the masks of this many cards or fewer: a capture, a small
table.  Those come back again and again (seven in ten of three cards had been seen
before, in games of random plays), and there are 10,701 of them; four cards or more
(a hand, a full table) are seen again one time in four or less, so remembering them
would only keep every table's hands of a busy server."""


class _CardsOf(dict[int, tuple[Card, ...]]):
    """Masks of a few cards with their cards (a lookup; a mask not remembered is made
    by :meth:`__missing__`)."""

    def __missing__(self, mask: int) -> tuple[Card, ...]:
        cards = tuple(cards_in(mask))
        if mask.bit_count() <= REMEMBERED_CARDS:
            self[mask] = cards
        return cards


cards_of: Callable[[int], tuple[Card, ...]] = _CardsOf().__getitem__
"""The cards of a mask as a tuple, in id order (remembered for a few cards: see
:data:`REMEMBERED_CARDS`)."""


def parse_cards(text: str) -> list[Card]:
    """Parse a space- or comma-separated list of cards: ``"7d Rc 3s"``."""
    return [Card.parse(t) for t in text.replace(",", " ").split()]


def format_cards(cards: Iterable[int] | int) -> str:
    """Cards (or a mask) in notation, space separated."""
    seq = cards_in(cards) if isinstance(cards, int) and not isinstance(cards, Card) else cards
    return " ".join(str(CARDS[int(c)]) for c in seq)  # type: ignore[union-attr]
