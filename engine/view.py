"""What one seat may see (R7, R19): its own hand, the table, the public record.

Never another hand (except a hand declared in Cirulla, which the declaration shows to
everyone) and never the stock's order.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from .cards import CARDS, DENARI_MASK, SETTEBELLO, Card, cards_of
from .rules import RuleSet
from .scoring import RoundScore, primiera_sum
from .state import GameState, Phase


class RoundPlay(NamedTuple):
    """One play of the current round, as everyone at the table saw it."""

    seat: int
    card: Card
    captured: tuple[Card, ...]  # empty: the card was laid on the table


@dataclass(frozen=True, slots=True)
class SidePile:
    """What anyone can count in one side's captured pile this round (R19)."""

    cards: int
    denari: int
    settebello: bool
    primiera: int  # R21's sum so far; 0 while a suit is missing
    scope: int


@dataclass(frozen=True, slots=True)
class View:
    """One seat's (or a spectator's, ``seat=None``) picture of the game."""

    rules: RuleSet
    seat: int | None
    side: int | None
    phase: Phase
    round_no: int
    dealer: int
    to_move: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_sizes: tuple[int, ...]  # per seat
    stock_left: int
    captured: tuple[tuple[Card, ...], ...]  # per side: public (R19)
    scope: tuple[int, ...]  # per side, this round
    scopa_cards: tuple[tuple[Card, ...], ...]  # per side: the cards that made scope
    totals: tuple[int, ...]  # per side, game score before this round
    declared_hands: tuple[tuple[int, tuple[Card, ...]], ...]  # (seat, hand) shown by V13
    last_round: RoundScore | None
    winner: int | None
    round_plays: tuple[RoundPlay, ...] = ()  # this round's plays, in order
    last_capture_side: int | None = None  # the side that takes the leftovers (R20)
    piles: tuple[SidePile, ...] = ()  # per side

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.phase is Phase.PLAY and self.to_move == self.seat

    @property
    def pile_sizes(self) -> tuple[int, ...]:
        return tuple(len(p) for p in self.captured)


def view(state: GameState, seat: int | None) -> View:
    """The view of ``seat`` (``None``: a spectator, who sees no hand at all)."""
    return View(
        rules=state.rules,
        seat=seat,
        side=None if seat is None else state.side[seat],
        phase=state.phase,
        round_no=state.round_no,
        dealer=state.dealer,
        to_move=state.to_move,
        hand=cards_of(state.hands[seat]) if seat is not None else (),
        table=cards_of(state.table),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        stock_left=len(state.stock),
        captured=tuple(cards_of(p) for p in state.piles),
        scope=tuple(state.scope),
        scopa_cards=tuple(tuple(CARDS[c] for c in sc) for sc in state.scopa_cards),
        totals=tuple(state.totals),
        declared_hands=tuple((s, cards_of(h)) for s, h in sorted(state.declared_hands.items())),
        last_round=state.history[-1] if state.history else None,
        winner=state.winner,
        round_plays=tuple(_round_play(seat, card, capture) for seat, card, capture in state.round_plays),
        last_capture_side=state.last_capturer if state.last_capturer >= 0 else None,
        piles=tuple(_side_pile(pile, state.scope[i]) for i, pile in enumerate(state.piles)),
    )


@functools.lru_cache(maxsize=1 << 14)
def _round_play(seat: int, card: int, capture: int) -> RoundPlay:
    return RoundPlay(seat, CARDS[card], cards_of(capture))


@functools.lru_cache(maxsize=1 << 14)
def _side_pile(pile: int, scope: int) -> SidePile:
    return SidePile(
        cards=pile.bit_count(),
        denari=(pile & DENARI_MASK).bit_count(),
        settebello=bool(pile >> SETTEBELLO & 1),
        primiera=primiera_sum(pile),
        scope=scope,
    )
