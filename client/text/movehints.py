"""A typed move read against the legal moves: the move it names, or a hint in the
terminal's language saying what was wrong and the nearest moves that are allowed (the
cards in hand, or the captures the card typed may make, R13-R15)."""

from __future__ import annotations

from collections.abc import Sequence

from scopa.engine import Declare, Play, cards_in, mask_of
from scopa.engine.cards import CARDS

from .i18n import tr
from .notation import DeckStyle, label, parse_cards


def _hand(legal: Sequence[Play | Declare], style: DeckStyle) -> str:
    """The cards that may be played now (the hand), in the order of the moves."""
    seen: list[int] = []
    for a in legal:
        if isinstance(a, Play) and a.card not in seen:
            seen.append(a.card)
    return ", ".join(label(c, style) for c in seen)


def _typed(play: Play, style: DeckStyle) -> str:
    """A play as it is typed: the card, then the cards it takes."""
    return " ".join(label(c, style) for c in (play.card, *cards_in(play.capture)))


def _options(plays: Sequence[Play], style: DeckStyle) -> str:
    return " · ".join(_typed(p, style) for p in plays)


def parse_choice(
    text: str, legal: Sequence[Play | Declare], style: DeckStyle = DeckStyle.ITALIAN
) -> Play | Declare | str:
    """The move a line of input names, or a hint (a ``str``) saying what is wrong.

    Accepts a move number (``2``), a card in the deck's notation (``7 Den`` or ``7d``;
    ``7♦`` with the French deck: fine when it has one capture choice) or a card and the
    cards to take (``7d 3c 4s``).
    """
    text = text.strip()
    if not text:
        return tr("type a move number, or a card such as 7d (add the cards to take: 7d 3c 4s)")
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return tr("there is no move {n}; choose 1 to {last}", n=n, last=len(legal))
    try:
        cards = parse_cards(text, style)
    except ValueError:
        return tr("{text} is not a card (a card is written like {card}); you hold {hand}", text=repr(text),
                  card=label(CARDS[24], style), hand=_hand(legal, style))
    card, take = cards[0], mask_of(cards[1:])
    mine = [a for a in legal if isinstance(a, Play) and a.card == card]
    if not mine:
        return tr("{card} is not in your hand; you hold {hand}", card=label(card, style), hand=_hand(legal, style))
    if take:
        exact = [a for a in mine if a.capture == take]
        if exact:
            return exact[0]
        taken = "+".join(label(c, style) for c in cards[1:])
        if not any(a.capture for a in mine):  # nothing to take with it: the one move left is laying it down
            return tr("{card} cannot take {taken}: it can only be laid down", taken=taken, card=label(card, style))
        return tr("no capture of {taken} with {card}; allowed: {options}", taken=taken, card=label(card, style),
                  options=_options(mine, style))
    if len(mine) == 1:
        return mine[0]
    return tr("{card} can take different sets of cards: {options}; pick one by its number", card=label(card, style),
              options=_options(mine, style))
