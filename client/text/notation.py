"""Card names as the player sees and types them, for the Italian or the French deck.

What is shown is what is read back: ``7 Den`` (Italian) or ``7♦`` (French) on screen,
and ``7 Den``, ``7den``, ``7d`` or, with the French deck, ``7♦``, ``7d`` as input.  The
French deck's letters are its own suits: ``Kc`` is the king of clubs (Bastoni), ``Kh``
the king of hearts (Coppe).
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Sequence

from scopa.engine import Card
from scopa.engine.cards import CARDS


class DeckStyle(StrEnum):
    """Display preference: Italian names and suits, or the French ("classic") deck."""

    ITALIAN = "italian"
    FRENCH = "french"


IT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R")
FR_RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
IT_SUITS = ("Den", "Cop", "Spa", "Bas")
FR_SUITS = ("♦", "♥", "♠", "♣")
IT_SUIT_NAMES = ("denari", "coppe", "spade", "bastoni")
FR_SUIT_NAMES = ("diamonds", "hearts", "spades", "clubs")
FR_SUIT_LETTERS = ("d", "h", "s", "c")
SUIT_COLOURS = ("yellow", "red", "cyan", "green")
"""Per suit (Denari, Coppe, Spade, Bastoni): a colour that reads on dark and light screens."""

_TOKEN = re.compile(r"\s*(10|[1-9]|[a-z])\s*([♦♥♠♣]|[a-z]+)\s*[,;]?", re.IGNORECASE)


def rank_label(card: int, style: DeckStyle) -> str:
    return (FR_RANKS if style is DeckStyle.FRENCH else IT_RANKS)[card // 4]


def suit_label(card: int, style: DeckStyle) -> str:
    return (FR_SUITS if style is DeckStyle.FRENCH else IT_SUITS)[card & 3]


def label(card: int, style: DeckStyle = DeckStyle.ITALIAN) -> str:
    """``7 Den`` or ``7♦``."""
    if style is DeckStyle.FRENCH:
        return rank_label(card, style) + suit_label(card, style)
    return f"{rank_label(card, style)} {suit_label(card, style)}"


def labels(cards: Sequence[int], style: DeckStyle = DeckStyle.ITALIAN) -> str:
    return " ".join(label(c, style) for c in cards) or "-"


def _rank(word: str, style: DeckStyle) -> int:
    up = word.upper()
    ranks = FR_RANKS if style is DeckStyle.FRENCH else IT_RANKS
    if up in ranks:
        return ranks.index(up) + 1
    if up.isdigit() and 1 <= int(up) <= 10:
        return int(up)
    other = IT_RANKS if style is DeckStyle.FRENCH else FR_RANKS
    hint = "J Q K" if style is DeckStyle.FRENCH else "F C R"
    if up in other:
        raise ValueError(f"{word} is not a rank of this deck, whose court cards are {hint}")
    raise ValueError(f"the ranks are A 2 3 4 5 6 7 {hint}")


def _suit(word: str, style: DeckStyle) -> int:
    low = word.lower()
    if low in FR_SUITS:
        return FR_SUITS.index(low)
    if style is DeckStyle.FRENCH:
        for i, name in enumerate(FR_SUIT_NAMES):
            if low == FR_SUIT_LETTERS[i] or (len(low) >= 2 and name.startswith(low)):
                return i
        raise ValueError("the suits are d h s c (♦ ♥ ♠ ♣)")
    for i, name in enumerate(IT_SUIT_NAMES):
        if name.startswith(low):
            return i
    raise ValueError("the suits are d c s b (Den Cop Spa Bas)")


def parse_cards(text: str, style: DeckStyle = DeckStyle.ITALIAN) -> list[Card]:
    """Every card named in ``text`` (``7 Den 3 Cop``, ``7d3c``, ``K♣``); ValueError if bad."""
    out: list[Card] = []
    pos, text = 0, text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            example = "7♦ or 7d" if style is DeckStyle.FRENCH else "7 Den or 7d"
            raise ValueError(f"{text[pos:].strip()!r} is not a card: type a card such as {example}")
        try:
            value, suit = _rank(m.group(1), style), _suit(m.group(2), style)
        except ValueError as exc:
            raise ValueError(f"{m.group(0).strip()!r} is not a card: {exc}") from None
        out.append(CARDS[(value - 1) * 4 + suit])
        pos = m.end()
    if not out:
        raise ValueError("no card named")
    return out

