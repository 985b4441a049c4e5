"""Engine values ⇄ wire bodies: the one place where the two meet.

The server turns engine views and events into command bodies; a client turns
``your_turn`` back into an engine :class:`~scopa.engine.View` and legal actions, so a
bot or a terminal player written for local games runs unchanged over the network.
"""

from __future__ import annotations

from typing import Sequence

from scopa.engine import (
    CARDS,
    Card,
    Declare as EngineDeclare,
    Declared,
    Event,
    GameEnded,
    GameStarted,
    Phase,
    Play as EnginePlay,
    Played,
    RoundEnded,
    RoundScore,
    RoundStarted,
    RuleSet,
    View as EngineView,
    mask_of,
)
from scopa.engine import GameState, RoundPlay, SidePile
from scopa.engine.actions import DECLARATION_POINTS
from scopa.engine.cards import DENARI_MASK, SETTEBELLO, VALUE_MASK
from scopa.engine.scoring import Category, denari_run, primiera_sum

from . import commands as wire


def card_str(card: int) -> str:
    return str(CARDS[card])


def card_strs(cards: Sequence[int]) -> list[str]:
    return [str(CARDS[c]) for c in cards]


def parse_card_strs(cards: Sequence[str]) -> list[Card]:
    return [Card.parse(c) for c in cards]


def _public_fields(v: EngineView) -> dict[str, object]:
    return dict(
        round=max(v.round_no, 1),
        dealer=v.dealer,
        turn=v.to_move,
        table=card_strs(v.table),
        stock=v.stock_left,
        hand_sizes=list(v.hand_sizes),
        captured=[card_strs(p) for p in v.captured],
        scope=list(v.scope),
        scopa_cards=[card_strs(p) for p in v.scopa_cards],
        totals=list(v.totals),
        declared=[wire.DeclaredHand(seat=s, hand=card_strs(h)) for s, h in v.declared_hands],
        round_plays=[wire.RoundPlay(seat=p.seat, card=str(p.card), captured=card_strs(p.captured))
                     for p in v.round_plays],
        last_capture_side=v.last_capture_side,
        piles=[wire.SidePile(cards=p.cards, denari=p.denari, settebello=p.settebello, primiera=p.primiera,
                             scope=p.scope) for p in v.piles],
    )


def view_to_wire(v: EngineView) -> wire.View:
    """A seat's engine view as the wire ``view`` (the seat must not be a spectator)."""
    assert v.seat is not None and v.side is not None
    return wire.View(seat=v.seat, side=v.side, hand=card_strs(v.hand), **_public_fields(v))  # type: ignore[arg-type]


def public_view_to_wire(v: EngineView) -> wire.PublicView:
    """Any engine view as what everyone may see (a spectator's view: no hand)."""
    return wire.PublicView(**_public_fields(v))  # type: ignore[arg-type]


def view_from_wire(w: wire.View, rules: RuleSet) -> EngineView:
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
    moves: list[wire.LegalMove] = []
    decls: list[wire.DeclarationOption] = []
    for a in legal:
        if isinstance(a, EngineDeclare):
            decls.append(
                wire.DeclarationOption(
                    kind=a.kind, wild=a.wild, points=DECLARATION_POINTS[a.kind]
                )
            )
        else:
            moves.append(wire.LegalMove(index=len(moves), card=card_str(a.card), capture=card_strs(a.captured)))
    return moves, decls


def legal_from_wire(turn: wire.YourTurn) -> list[EnginePlay | EngineDeclare]:
    """``your_turn``'s moves and declarations as engine actions (declarations first)."""
    out: list[EnginePlay | EngineDeclare] = [
        EngineDeclare(d.kind, d.wild) for d in turn.declarations
    ]
    for m in turn.legal:
        out.append(EnginePlay(Card.parse(m.card), mask_of(parse_card_strs(m.capture))))
    return out


def action_to_wire(action: EnginePlay | EngineDeclare) -> wire.Play | wire.Declare:
    """The command body a client sends for an engine action."""
    if isinstance(action, EngineDeclare):
        return wire.Declare(kind=action.kind, wild=action.wild)
    return wire.Play(card=card_str(action.card), capture=card_strs(action.captured))


def action_from_wire(body: wire.Play | wire.Declare) -> EnginePlay | EngineDeclare:
    """The engine action a ``play`` / ``declare`` asks for (not yet checked by the rules)."""
    if isinstance(body, wire.Declare):
        return EngineDeclare(body.kind, body.wild)
    return EnginePlay(Card.parse(body.card), mask_of(parse_card_strs(body.capture)))


def breakdown_to_wire(score: RoundScore) -> list[dict[str, int]]:
    return [{str(k): v for k, v in side.items()} for side in score.breakdown]


_HONOURS_MASK = VALUE_MASK[1] | VALUE_MASK[8] | VALUE_MASK[9] | VALUE_MASK[10]


def side_tallies(state: GameState) -> list[wire.SideTally]:
    """The raw numbers of each side's pile at the end of a round (before the next deal)."""
    return [
        wire.SideTally(
            cards=pile.bit_count(),
            denari=(pile & DENARI_MASK).bit_count(),
            primiera=primiera_sum(pile),
            settebello=bool(pile >> SETTEBELLO & 1),
            scope=state.scope[side],
            sevens=(pile & VALUE_MASK[7]).bit_count(),
            honours=(pile & _HONOURS_MASK).bit_count(),
            denari_run=denari_run(pile, start_needed=1),
            declarations=state.declared[side],
        )
        for side, pile in enumerate(state.piles)
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


def event_to_wire(
    event: Event, number: int, *, seats: list[wire.SeatInfo], stock: int, forced: str | None = None,
    tallies: Sequence[wire.SideTally] = (),
) -> wire.TableEvent:
    """A public engine event as its numbered wire command.  The server adds what the
    engine does not know: who sits where (``seats``: names, bots), the stock count at a
    round start, why the game master made a play (``forced``) and, at a round end, each
    side's raw numbers (``tallies``, from :func:`side_tallies`)."""
    if isinstance(event, GameStarted):
        return wire.GameStart(event=number, rules=event.rules, seats=seats, sides=event.rules.seats_by_side())
    if isinstance(event, RoundStarted):
        return wire.RoundStart(event=number, round=event.round_no, dealer=event.dealer, table=card_strs(event.table),
                               stock=stock, dealer_bonus_cards=card_strs(event.bonus_cards),
                               dealer_bonus_scope=event.dealer_bonus)
    if isinstance(event, Played):
        return wire.Played(event=number, seat=event.seat, card=str(event.card), captured=card_strs(event.captured),
                           scopa=event.scopa, table=card_strs(event.table), forced=forced)
    if isinstance(event, Declared):
        d = event.declaration
        return wire.Declared(event=number, seat=event.seat, kind=d.kind, hand=card_strs(event.hand), wild=d.wild,
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
