"""What a seat is sent of the game is made by one encoder from the seat's projection
(``scopa.engine.SeatProjection``): its your_turn, packed by the C twin or the Python
twin, is byte for byte the message the wire models make of the engine's View of that
seat, and the projection made from the state is the one made from that View (R7, R19:
the View is what defines what a seat may see; the fast path must never show more, or
less).  Its played and deal, built as plain data, are the messages their models make."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import msgpack
import pytest
from conftest import random_turns
from hypothesis import given, settings, strategies as st

from scopa.engine import (
    CARDS, Card, Declare, DeclarationKind, Event, LocalGame, HandDealt, GameState, Play, Played, Player, Preset, RuleSet,
    SeatProjection, View, projection_of_view, seat_projection,
)
from scopa.engine.actions import DECLARATION_POINTS
from scopa.engine.view import view
from scopa.protocol import commands as wire
from scopa.protocol.codec import pack_body
from scopa.protocol.convert import seat_view_data, your_turn_data
from scopa.protocol.convert.speedups import YOUR_TURN
from scopa.protocol.convert import (
    card_strs, event_to_wire, hand_deal_data, played_data, public_view_to_wire, view_to_wire, your_turn_payload,
)


def _strs(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _public_by_model(v: View) -> dict[str, object]:
    """The fields of the wire ``PublicView`` of ``v``, read from the View itself."""
    return dict(
        round=max(v.round_no, 1), dealer=v.dealer, turn=v.to_move, table=_strs(v.table), stock=v.stock_left,
        hand_sizes=list(v.hand_sizes), captured=[_strs(p) for p in v.captured], scope=list(v.scope),
        scopa_cards=[_strs(p) for p in v.scopa_cards], totals=list(v.totals),
        declared=[wire.DeclaredHand(seat=seat, hand=_strs(hand)) for seat, hand in v.declared_hands],
        round_plays=[wire.PlayLogEntry(seat=p.seat, card=str(p.card), captured=_strs(p.captured))
                     for p in v.round_plays],
        last_capture_side=v.last_capture_side,
        piles=[wire.PileInfo(cards=p.cards, denari=p.denari, settebello=p.settebello, primiera=p.primiera,
                             scope=p.scope) for p in v.piles],
    )


def _turn_by_model(event: int, state: GameState, seat: int) -> bytes:
    """The your_turn the wire models make of the View of ``seat`` and the legal actions,
    each field read from the engine's values (none of the encoder's code)."""
    v = view(state, seat)
    assert v.seat is not None and v.side is not None
    legal = state.legal_actions()
    plays = [a for a in legal if isinstance(a, Play)]
    body = wire.YourTurn(
        event=event,
        legal=[wire.LegalMove(index=i, card=str(CARDS[p.card]), capture=_strs(p.captured)) for i, p in enumerate(plays)],
        declarations=[wire.DeclarationOption(kind=a.kind, wild=a.wild, points=DECLARATION_POINTS[a.kind])
                      for a in legal if isinstance(a, Declare)],
        view=wire.SeatView(**_public_by_model(v), seat=v.seat, side=v.side, hand=_strs(v.hand)),  # type: ignore[arg-type]
    )
    return msgpack.packb(body.model_dump(mode="json"))


def _games(rules: RuleSet, seed: int, count: int) -> int:
    """Play ``count`` random games; check every turn; return how many turns were checked."""
    checked = 0
    for state, rng in random_turns(rules, count, seed):
        seat, legal = state.to_move, state.legal_actions()
        projection = seat_projection(state, seat)
        assert projection == projection_of_view(view(state, seat)), (rules, state.round_no, seat)
        by_model = _turn_by_model(checked, state, seat)
        for name, twin in YOUR_TURN.items():
            assert twin(checked, legal, projection) == by_model, (name, rules, state.round_no, seat)
        assert msgpack.packb(your_turn_data(checked, legal, projection)) == by_model
        assert your_turn_payload(checked, state, seat, legal) == by_model
        assert msgpack.packb(view_to_wire(view(state, seat)).model_dump(mode="json")) == \
            msgpack.packb(seat_view_data(projection))
        spectator = view(state, None)
        assert public_view_to_wire(spectator).model_dump(mode="json") == \
            wire.PublicView(**_public_by_model(spectator)).model_dump(mode="json")  # type: ignore[arg-type]
        checked += 1
        state.apply(rng.choice(legal), seat)
    return checked


@pytest.mark.parametrize("preset", list(Preset), ids=lambda p: p.name)
def test_the_turn_made_from_the_projection_is_the_turn_the_view_makes(preset: Preset) -> None:
    assert _games(RuleSet.build(preset), seed=11, count=3) > 50


@pytest.mark.parametrize("options", [
    {"players": 3, "capture_mode": "fewest", "max_two": True, "re_bello": True, "ponino": True},
    {"players": 6, "teams": True},
    {"players": 4, "teams": False},
])
def test_the_turn_made_from_the_projection_matches_in_variants(options: dict[str, object]) -> None:
    rules = RuleSet.build(None, **options)
    assert _games(rules, seed=12, count=2) > 30


def test_cirulla_turns_with_declarations_and_declared_hands_go_through_the_twins() -> None:
    """V13: the turns that offer a declaration, and those after a hand was declared,
    are packed by the same encoder as every other turn (checked above), and games of
    these seeds reach both."""
    offered = declared = 0
    for state, rng in random_turns(RuleSet.build(Preset.CIRULLA), 6, 13):
        legal = state.legal_actions()
        offered += any(isinstance(a, Declare) for a in legal)
        declared += bool(state.declared_hands)
        projection = seat_projection(state, state.to_move)
        by_model = _turn_by_model(0, state, state.to_move)
        assert {name: twin(0, legal, projection) == by_model for name, twin in YOUR_TURN.items()} == \
            dict.fromkeys(YOUR_TURN, True)
        declarations = [a for a in legal if isinstance(a, Declare)]
        state.apply(rng.choice(declarations or legal))
    assert offered > 3 and declared > 3


def test_a_seats_projection_shows_no_other_hand() -> None:
    """R7: two seats' projections of one state differ only in whose they are and that
    seat's own hand; a spectator's holds no hand."""
    for state, rng in random_turns(RuleSet.build(Preset.SCOPONE), 2, 14):
        mine = seat_projection(state, state.to_move)
        other = (state.to_move + 1) % state.n
        assert mine._replace(seat=other, side=state.side[other], hand=state.hands[other]) == \
            seat_projection(state, other)
        assert seat_projection(state, None) == mine._replace(seat=None, side=None, hand=0)
        state.apply(rng.choice(state.legal_actions()))


_masks = st.integers(0, (1 << 40) - 1)
_small = st.integers(-(1 << 40), 1 << 40)  # every width msgpack has for an integer, both signs
_cards = st.integers(0, 39)
_declarations = st.tuples(st.sampled_from(list(DeclarationKind)), st.one_of(st.none(), st.integers(1, 10)))


@settings(max_examples=300, deadline=None)
@given(event=st.integers(0, 1 << 53), legal=st.lists(st.one_of(st.tuples(_cards, _masks), _declarations), max_size=20),
       round_no=_small, dealer=_small, table=_masks, stock=st.integers(0, 40),
       hands=st.lists(_masks, min_size=1, max_size=6), piles=st.lists(_masks, min_size=1, max_size=3),
       scope=_small, scopa_cards=st.lists(st.lists(_cards, max_size=20), min_size=1, max_size=3),
       totals=st.lists(_small, max_size=3), declared=st.lists(st.tuples(_small, _masks), max_size=6),
       round_plays=st.lists(st.tuples(_small, _cards, _masks), max_size=40),
       last_capturer=st.integers(-1, 3), data=st.data())
def test_the_packed_turn_is_what_msgpack_makes_of_its_data_for_any_values(
        event: int, legal: list[tuple[int, int] | tuple[str, int | None]], round_no: int, dealer: int, table: int,
        stock: int, hands: list[int], piles: list[int], scope: int, scopa_cards: list[list[int]],
        totals: list[int], declared: list[tuple[int, int]], round_plays: list[tuple[int, int, int]],
        last_capturer: int, data: st.DataObject) -> None:
    """Beyond what games reach: long arrays, large and negative numbers (every msgpack
    width), empty lists: the packed bytes stay the ones msgpack makes of the data."""
    seat = data.draw(st.integers(0, len(hands) - 1))
    projection = SeatProjection(
        round_no, dealer, seat, table, stock, tuple(h.bit_count() for h in hands), tuple(piles),
        tuple(scope + i for i in range(len(piles))), tuple(map(tuple, scopa_cards)), tuple(totals),
        tuple(declared), tuple(round_plays), last_capturer, tuple(data.draw(_small) for _ in piles),
        seat, seat % len(piles), hands[seat],
    )
    expected = msgpack.packb(your_turn_data(event, legal, projection))
    for name, twin in YOUR_TURN.items():
        assert twin(event, legal, projection) == expected, name


_NOT_A_MOVE: list[list[tuple[object, object]]] = [[(1.5, None)], [(3, None)], [("poker", None)], [("tris", "7")]]


@pytest.mark.parametrize("twin", sorted(YOUR_TURN))
@pytest.mark.parametrize("legal", _NOT_A_MOVE, ids=["float-card", "no-capture", "unknown-kind", "str-wild"])
def test_a_twin_refuses_a_move_that_is_not_a_play_or_a_declaration_with_a_typed_error(
        twin: str, legal: list[tuple[object, object]]) -> None:
    state = GameState.new(RuleSet.build(), 0)
    with pytest.raises((TypeError, ValueError)):
        YOUR_TURN[twin](0, legal, seat_projection(state, 0))  # type: ignore[arg-type]


@pytest.mark.parametrize("forced", [None, "timeout"])
def test_a_played_made_as_data_is_the_played_its_model_makes(forced: str | None) -> None:
    """Every play of a few games of every preset: the same bytes either way."""
    checked = 0
    for preset in Preset:
        players = [_Recorder() for _ in range(RuleSet.build(preset).players)]
        asyncio.run(LocalGame(RuleSet.build(preset), players, seed=21).run())
        for number, event in enumerate(players[0].events):
            if isinstance(event, Played):
                by_model = event_to_wire(event, number, seats=[], stock=0, forced=forced)
                assert msgpack.packb(played_data(event, number, forced)) == pack_body(by_model)
                checked += 1
    assert checked > 100


def test_a_deal_made_as_data_is_the_deal_its_model_makes() -> None:
    """Every hand dealt in a few games of every preset, with the cards new in it: the
    same bytes as the HandDeal model's."""
    checked = 0
    for preset in Preset:
        rules = RuleSet.build(preset)
        players = [_Recorder() for _ in range(rules.players)]
        asyncio.run(LocalGame(rules, players, seed=23).run())
        for seat, player in enumerate(players):
            known: list[int] = []
            for number, event in enumerate(player.events):
                if isinstance(event, HandDealt):
                    assert event.seat == seat
                    new = [c for c in event.hand if c not in known]
                    by_model = wire.HandDeal(event=number, cards=card_strs(new), hand=card_strs(event.hand),
                                             stock=event.stock_left)
                    assert msgpack.packb(hand_deal_data(number, event.hand, new, event.stock_left)) == \
                        pack_body(by_model)
                    known = list(event.hand)
                    checked += 1
    assert checked > 50


class _Recorder(Player):
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.rng = random.Random(5)

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        return self.rng.choice(list(legal))

    async def notify(self, event: Event) -> None:
        self.events.append(event)
