"""Engine values ⇄ wire bodies: the one place where the two meet.

The server turns engine views and events into command bodies; a client turns
``your_turn`` back into an engine :class:`~scopa.engine.View` and legal actions, so a
bot or a terminal player written for local games runs unchanged over the network.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence, cast

from scopa.engine import (
    CARDS,
    Card,
    Declare as EngineDeclare,
    Declared,
    EndReason,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    Phase,
    Play as EnginePlay,
    Forced,
    Played,
    RoundEnded,
    RoundScore,
    RoundStarted,
    RuleSet,
    View as EngineView,
    mask_of,
)
from scopa.engine import GameState, RoundPlay, SidePile, projection_of_view, seat_projection
from scopa.engine.actions import DECLARATION_POINTS
from scopa.engine.cards import DENARI_MASK, SETTEBELLO, VALUE_MASK
from scopa.engine.scoring import Category, denari_run, primiera_cards, primiera_sum

from .. import commands as wire
from ..rules import WireRules, rules_from_wire as rules_from_wire, rules_to_wire as rules_to_wire
from .seatview import CARD_STRS as CARD_STRS, legal_data, public_view_data, seat_view_data
from .speedups import your_turn


def card_str(card: int) -> str:
    return CARD_STRS[card]


_CARD_STR = CARD_STRS.__getitem__


def card_strs(cards: Sequence[int]) -> list[str]:
    return list(map(_CARD_STR, cards))  # no comprehension's frame: every move calls this twice


_CARD_BY_STR: dict[str, Card] = {s: c for s, c in zip(CARD_STRS, CARDS)}
_CARD_BIT: dict[str, int] = {s: 1 << c for s, c in _CARD_BY_STR.items()}


def parse_card_strs(cards: Sequence[str]) -> list[Card]:
    """Cards from their wire notation (``ValueError`` for one that is not a card)."""
    by_str = _CARD_BY_STR
    return [by_str[c] if c in by_str else Card.parse(c) for c in cards]


def public_view_to_wire(v: EngineView) -> wire.PublicView:
    """Any engine view as what everyone may see (a spectator's view: no hand)."""
    return wire.PublicView.model_validate(public_view_data(projection_of_view(v)), strict=False)


def view_to_wire(v: EngineView) -> wire.SeatView:
    """A seat's engine view as the wire ``view`` (the seat must not be a spectator)."""
    return wire.SeatView.model_validate(seat_view_data(projection_of_view(v)), strict=False)


def view_from_wire(w: wire.SeatView, rules: RuleSet) -> EngineView:
    """The engine view a local Player expects, rebuilt from the wire ``view``."""
    return EngineView(
        rules=rules,
        seat=w.seat,
        side=w.side,
        phase=Phase.PLAY,
        round_no=w.round,
        dealer=w.dealer,
        to_move=w.turn,
        hand=tuple(parse_card_strs(w.hand)),
        table=tuple(parse_card_strs(w.table)),
        hand_sizes=tuple(w.hand_sizes),
        stock_left=w.stock,
        captured=tuple(tuple(parse_card_strs(p)) for p in w.captured),
        scope=tuple(w.scope),
        scopa_cards=tuple(tuple(parse_card_strs(p)) for p in w.scopa_cards),
        totals=tuple(w.totals),
        declared_hands=tuple((d.seat, tuple(parse_card_strs(d.hand))) for d in w.declared),
        last_round=None,
        winner=None,
        round_plays=tuple(RoundPlay(p.seat, Card.parse(p.card), tuple(parse_card_strs(p.captured)))
                          for p in w.round_plays),
        last_capture_side=w.last_capture_side,
        piles=tuple(SidePile(cards=p.cards, denari=p.denari, settebello=p.settebello, primiera=p.primiera,
                             scope=p.scope) for p in w.piles),
    )


def legal_to_wire(legal: Sequence[EnginePlay | EngineDeclare]) -> tuple[list[wire.LegalMove], list[wire.DeclarationOption]]:
    """Engine legal actions as the ``legal`` and ``declarations`` of ``your_turn``."""
    moves, decls = legal_data(legal)
    return ([wire.LegalMove.model_validate({**m, "capture": list(m["capture"])}) for m in moves],
            [wire.DeclarationOption.model_validate(d, strict=False) for d in decls])


def your_turn_payload(event: int, state: GameState, seat: int,
                      legal: Sequence[EnginePlay | EngineDeclare]) -> bytes:
    """The packed ``your_turn`` body asking ``seat`` to choose one of ``legal``: the one
    encoder (:func:`scopa.protocol.convert.speedups.your_turn`) over the seat's projection."""
    return your_turn(event, legal, seat_projection(state, seat))


def legal_from_wire(turn: wire.YourTurn) -> list[EnginePlay | EngineDeclare]:
    """``your_turn``'s moves and declarations as engine actions (declarations first)."""
    out: list[EnginePlay | EngineDeclare] = [
        EngineDeclare(d.kind, d.wild) for d in turn.declarations
    ]
    for m in turn.legal:
        out.append(EnginePlay(Card.parse(m.card), mask_of(parse_card_strs(m.capture))))
    return out


def action_to_wire(action: EnginePlay | EngineDeclare) -> wire.PlayCard | wire.MakeDeclaration:
    """The command body a client sends for an engine action."""
    if isinstance(action, EngineDeclare):
        return wire.MakeDeclaration(kind=action.kind, wild=action.wild)
    return wire.PlayCard(card=card_str(action.card), capture=card_strs(action.captured))


def action_from_wire(body: wire.PlayCard | wire.MakeDeclaration) -> EnginePlay | EngineDeclare:
    """The engine action a ``play`` / ``declare`` asks for (not yet checked by the rules)."""
    if isinstance(body, wire.MakeDeclaration):
        return EngineDeclare(body.kind, body.wild)
    card = _CARD_BY_STR.get(body.card)
    if card is not None:  # the usual case: cards in their wire notation, read by lookups
        bits, capture = _CARD_BIT, 0
        for c in body.capture:
            bit = bits.get(c)
            if bit is None:
                break
            capture |= bit
        else:
            return EnginePlay(card, capture)
    return EnginePlay(parse_card_strs((body.card,))[0], mask_of(parse_card_strs(body.capture)))


def breakdown_to_wire(score: RoundScore) -> list[dict[str, int]]:
    return [{str(k): v for k, v in side.items()} for side in score.breakdown]


_HONOURS_MASK = VALUE_MASK[1] | VALUE_MASK[8] | VALUE_MASK[9] | VALUE_MASK[10]


def side_tallies(state: GameState) -> list[wire.SideTally]:
    """The raw numbers of each side's pile at the end of a round (before the next deal)."""
    return _tallies(state.piles, state.scope, state.declared)


def round_tallies(event: RoundEnded) -> list[wire.SideTally]:
    """:func:`side_tallies` of the round ``event`` ended (the piles travel in the event)."""
    return _tallies(event.piles, event.scope, event.declared)


def _tallies(piles: Sequence[int], scope: Sequence[int], declared: Sequence[int]) -> list[wire.SideTally]:
    return [
        wire.SideTally(
            cards=pile.bit_count(),
            denari=(pile & DENARI_MASK).bit_count(),
            primiera=primiera_sum(pile),
            primiera_cards=[str(c) for c in primiera_cards(pile)],
            settebello=bool(pile >> SETTEBELLO & 1),
            scope=scope[side],
            sevens=(pile & VALUE_MASK[7]).bit_count(),
            honours=(pile & _HONOURS_MASK).bit_count(),
            denari_run=denari_run(pile, start_needed=1),
            declarations=declared[side],
        )
        for side, pile in enumerate(piles)
    ]


def score_from_wire(body: wire.RoundEnd) -> RoundScore:
    """A ``round_end`` as the engine's RoundScore (categories this engine does not know
    are left out; primiera sums come from the tallies)."""
    bd = tuple({Category(k): v for k, v in side.items() if k in Category._value2member_map_} for side in body.breakdown)
    if len(body.tallies) == len(body.cards):
        primiera = tuple(t.primiera for t in body.tallies)
    else:  # a server that sends no tallies: the sums are unknown
        primiera = tuple(0 for _ in body.cards)
    return RoundScore(breakdown=bd, cards=tuple(body.cards), primiera=primiera)


def played_data(event: Played, number: int, forced: str | None = None) -> dict[str, Any]:
    """The plain data of the ``played`` body :func:`event_to_wire` makes of ``event`` (what
    its model dumps to), made without a model: every move sends one."""
    return {"event": number, "seat": event.seat, "card": CARD_STRS[event.card], "captured": card_strs(event.captured),
            "scopa": event.scopa, "table": card_strs(event.table), "forced": forced}


def hand_deal_data(number: int, hand: Sequence[int], new: Sequence[int], stock: int) -> dict[str, Any]:
    """The plain data of a ``deal`` body (what the ``HandDeal`` model dumps to): the
    seat's ``hand`` after the deal and the ``new`` cards in it, made without a model."""
    return {"event": number, "cards": card_strs(new), "hand": card_strs(hand), "stock": stock}


def event_to_wire(
    event: Event, number: int, *, seats: list[wire.SeatInfo], stock: int, forced: str | None = None,
    tallies: Sequence[wire.SideTally] = (),
) -> wire.TableEvent:
    """A public engine event as its numbered wire command.  The server adds what the
    engine does not know: who sits where (``seats``: names, bots), the stock count at a
    round start, why the game master made a play (``forced``) and, at a round end, each
    side's raw numbers (``tallies``, from :func:`side_tallies`)."""
    if isinstance(event, GameStarted):
        return wire.GameStart(event=number, rules=rules_to_wire(event.rules), seats=seats, sides=event.rules.seats_by_side())
    if isinstance(event, RoundStarted):
        return wire.RoundStart(event=number, round=event.round_no, dealer=event.dealer, table=card_strs(event.table),
                               stock=stock, dealer_bonus_cards=card_strs(event.bonus_cards),
                               dealer_bonus_scope=event.dealer_bonus)
    if isinstance(event, Played):
        return wire.CardPlayed(event=number, seat=event.seat, card=str(event.card), captured=card_strs(event.captured),
                           scopa=event.scopa, table=card_strs(event.table), forced=forced)
    if isinstance(event, Declared):
        d = event.declaration
        return wire.DeclarationMade(event=number, seat=event.seat, kind=d.kind, hand=card_strs(event.hand), wild=d.wild,
                             points=DECLARATION_POINTS[d.kind])
    if isinstance(event, RoundEnded):
        return wire.RoundEnd(event=number, round=event.round_no, leftover=card_strs(event.leftovers),
                             leftover_to=event.leftovers_to, cards=list(event.score.cards),
                             breakdown=breakdown_to_wire(event.score), tallies=list(tallies),
                             points=list(event.score.points),
                             totals=list(event.totals))
    if isinstance(event, GameEnded):
        return wire.GameEnd(event=number, winner=event.winner, totals=list(event.totals), reason=event.reason.value)
    raise ValueError(f"{type(event).__name__} has no public wire command")


@dataclass(frozen=True, slots=True)
class OtherEndReason:
    """A game end reason this engine does not know (from a newer server); shows like one."""

    value: str

    def __str__(self) -> str:
        return self.value


def end_reason(word: str) -> EndReason | OtherEndReason:
    """The engine's reason for a ``game_end``'s word, or the word kept as it came."""
    try:
        return EndReason(word)
    except ValueError:
        return OtherEndReason(word)


def event_from_wire(body: wire.TableEvent, seat: int) -> Event:
    """A table event as the engine event a local Player is told (``seat``: whose hand a
    ``deal`` is).  ``ValueError`` for a body that is no engine event: ``game_start`` (the
    engine's GameStarted names the first dealer, which the wire tells only in the first
    ``round_start``) and ``your_turn`` (a question, not an event)."""
    if isinstance(body, wire.RoundStart):
        return RoundStarted(body.round, body.dealer, tuple(parse_card_strs(body.table)), body.dealer_bonus_scope,
                            tuple(parse_card_strs(body.dealer_bonus_cards)))
    if isinstance(body, wire.HandDeal):
        return HandDealt(seat, tuple(parse_card_strs(body.hand)), body.stock)
    if isinstance(body, wire.CardPlayed):
        # Why the game master played for the seat (a word from a newer server: forced, no reason known).
        forced_by = next((f for f in Forced if f.value == body.forced), None)
        return Played(body.seat, Card.parse(body.card), tuple(parse_card_strs(body.captured)), body.scopa,
                      tuple(parse_card_strs(body.table)), body.forced is not None, forced_by)
    if isinstance(body, wire.DeclarationMade):
        return Declared(body.seat, EngineDeclare(body.kind, body.wild), tuple(parse_card_strs(body.hand)))
    if isinstance(body, wire.RoundEnd):
        return RoundEnded(body.round, score_from_wire(body), tuple(parse_card_strs(body.leftover)), body.leftover_to,
                          tuple(body.totals))
    if isinstance(body, wire.GameEnd):
        # A reason from a newer server stays its word: it reads like an EndReason (value, str).
        reason = cast(EndReason, end_reason(body.reason))
        return GameEnded(body.winner, tuple(body.totals), reason)
    raise ValueError(f"{body.NAME} has no engine event")
