"""The server's your_turn, built from the game state for speed, is byte for byte the
message the engine's View of that seat makes, and its played, built as plain data, the
message the model makes (R7, R19: the View is what defines what a
seat may see; the fast path must never show more, or less)."""

from __future__ import annotations

import asyncio
import random
import types
from collections.abc import Sequence

import msgpack
import pytest
from conftest import random_turns
from hypothesis import given, settings, strategies as st

from scopa.engine import Declare, Event, LocalGame, HandDealt, GameState, Play, Played, Player, Preset, RuleSet, View
from scopa.engine.view import view
from scopa.protocol import commands as wire
from scopa.protocol.codec import pack_body
from scopa.engine.scoring import primiera_sum
from scopa.protocol.speedups import YOUR_TURN
from scopa.protocol.convert import (
    card_strs, event_to_wire, hand_deal_data, legal_to_wire, played_data, view_to_wire, your_turn_data_of, your_turn_payload,
)


def _turn_by_model(event: int, state: GameState, seat: int) -> bytes:
    legal, declarations = legal_to_wire(state.legal_actions())
    body = wire.YourTurn(event=event, legal=legal, declarations=declarations, view=view_to_wire(view(state, seat)))
    return msgpack.packb(body.model_dump(mode="json"))


def _games(rules: RuleSet, seed: int, count: int) -> int:
    """Play ``count`` random games; check every turn; return how many turns were checked."""
    checked = 0
    for state, rng in random_turns(rules, count, seed):
        seat, legal = state.to_move, state.legal_actions()
        fast = msgpack.packb(your_turn_data_of(checked, state, seat, legal))
        assert fast == _turn_by_model(checked, state, seat), (rules, state.round_no, seat)
        assert your_turn_payload(checked, state, seat, legal) == fast, (rules, state.round_no, seat)
        if not state.declared_hands and all(isinstance(a, Play) for a in legal):
            for name, twin in YOUR_TURN.items():
                assert twin(checked, legal, *_fields(state, seat)) == fast, (name, rules, state.round_no, seat)
        checked += 1
        state.apply(rng.choice(legal), seat)
    return checked


@pytest.mark.parametrize("preset", list(Preset), ids=lambda p: p.name)
def test_the_turn_made_from_the_state_is_the_turn_the_view_makes(preset: Preset) -> None:
    assert _games(RuleSet.build(preset), seed=11, count=3) > 50


@pytest.mark.parametrize("options", [
    {"players": 3, "capture_mode": "fewest", "max_two": True, "re_bello": True, "ponino": True},
    {"players": 6, "teams": True},
    {"players": 4, "teams": False},
])
def test_the_turn_made_from_the_state_matches_in_variants(options: dict[str, object]) -> None:
    rules = RuleSet.build(None, **options)
    assert _games(rules, seed=12, count=2) > 30


_masks = st.integers(0, (1 << 40) - 1)
_small = st.integers(-(1 << 40), 1 << 40)  # every width msgpack has for an integer, both signs
_cards = st.integers(0, 39)


@settings(max_examples=300, deadline=None)
@given(event=st.integers(0, 1 << 53), legal=st.lists(st.tuples(_cards, _masks), max_size=20),
       round_no=_small, dealer=_small, table=_masks, stock=st.integers(0, 40),
       hands=st.lists(_masks, min_size=1, max_size=6), piles=st.lists(_masks, min_size=1, max_size=3),
       scope=_small, scopa_cards=st.lists(st.lists(_cards, max_size=20), min_size=1, max_size=3),
       totals=st.lists(_small, max_size=3), round_plays=st.lists(st.tuples(_small, _cards, _masks), max_size=40),
       last_capturer=st.integers(-1, 3), data=st.data())
def test_the_packed_turn_is_what_msgpack_makes_of_its_data_for_any_values(
        event: int, legal: list[tuple[int, int]], round_no: int, dealer: int, table: int, stock: int,
        hands: list[int], piles: list[int], scope: int, scopa_cards: list[list[int]], totals: list[int],
        round_plays: list[tuple[int, int, int]], last_capturer: int, data: st.DataObject) -> None:
    """Beyond what games reach: long arrays, large and negative numbers (every msgpack
    width), empty lists: the packed bytes stay the ones msgpack makes of the data."""
    seat = data.draw(st.integers(0, len(hands) - 1))
    state = types.SimpleNamespace(
        round_no=round_no, dealer=dealer, to_move=seat, table=table, stock=[0] * stock, hands=hands,
        piles=piles, scope=[scope + i for i in range(len(piles))], scopa_cards=scopa_cards, totals=totals,
        declared_hands={}, round_plays=round_plays, last_capturer=last_capturer,
        side=[i % len(piles) for i in range(len(hands))],
    )
    plays = [Play(card, capture) for card, capture in legal]
    expected = msgpack.packb(your_turn_data_of(event, state, seat, plays))  # type: ignore[arg-type]
    assert your_turn_payload(event, state, seat, plays) == expected  # type: ignore[arg-type]
    for name, twin in YOUR_TURN.items():
        assert twin(event, plays, *_fields(state, seat)) == expected, name  # type: ignore[arg-type]


def _fields(state: GameState, seat: int) -> tuple[object, ...]:
    """The arguments of a your_turn twin after ``event`` and ``legal``."""
    return (state.round_no, state.dealer, state.to_move, state.table, len(state.stock), state.hands, state.piles,
            state.scope, state.scopa_cards, state.totals, state.round_plays, state.last_capturer,
            [primiera_sum(p) for p in state.piles], seat, state.side[seat])


@pytest.mark.parametrize("twin", sorted(YOUR_TURN))
def test_a_twin_refuses_a_move_that_is_not_a_play_with_a_typed_error(twin: str) -> None:
    state = GameState.new(RuleSet.build(), 0)
    with pytest.raises((TypeError, ValueError)):
        YOUR_TURN[twin](0, [("tris", None)], *_fields(state, 0))  # type: ignore[list-item]


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
