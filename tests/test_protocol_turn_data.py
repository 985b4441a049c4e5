"""The server's your_turn, built from the game state for speed, is byte for byte the
message the engine's View of that seat makes, and its played, built as plain data, the
message the model makes (R7, R19: the View is what defines what a
seat may see; the fast path must never show more, or less)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

import msgpack
import pytest

from scopa.engine import Deal, Declare, Event, GameMaster, GameState, Phase, Play, Played, Player, Preset, RuleSet, View
from scopa.engine.view import view
from scopa.protocol import commands as wire
from scopa.protocol.codec import pack_body
from scopa.protocol.convert import event_to_wire, legal_to_wire, played_data, view_to_wire, your_turn_data_of


def _turn_by_model(event: int, state: GameState, seat: int) -> bytes:
    legal, declarations = legal_to_wire(state.legal_actions())
    body = wire.YourTurn(event=event, legal=legal, declarations=declarations, view=view_to_wire(view(state, seat)))
    return msgpack.packb(body.model_dump(mode="json"))


def _games(rules: RuleSet, seed: int, count: int) -> int:
    """Play ``count`` random games; check every turn; return how many turns were checked."""
    rng = random.Random(seed)
    checked = 0
    for game in range(count):
        state = GameState.new(rules, game % rules.players)
        while state.phase is not Phase.OVER:
            if state.phase is Phase.DEAL:
                order = list(range(40))
                rng.shuffle(order)
                state.apply(Deal(tuple(order)))
                continue
            seat, legal = state.to_move, state.legal_actions()
            fast = msgpack.packb(your_turn_data_of(checked, state, seat, legal))
            assert fast == _turn_by_model(checked, state, seat), (rules, game, state.round_no, seat)
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


@pytest.mark.parametrize("forced", [None, "timeout"])
def test_a_played_made_as_data_is_the_played_its_model_makes(forced: str | None) -> None:
    """Every play of a few games of every preset: the same bytes either way."""
    checked = 0
    for preset in Preset:
        players = [_Recorder() for _ in range(RuleSet.build(preset).players)]
        asyncio.run(GameMaster(RuleSet.build(preset), players, seed=21).run())
        for number, event in enumerate(players[0].events):
            if isinstance(event, Played):
                by_model = event_to_wire(event, number, seats=[], stock=0, forced=forced)
                assert msgpack.packb(played_data(event, number, forced)) == pack_body(by_model)
                checked += 1
    assert checked > 100


class _Recorder(Player):
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.rng = random.Random(5)

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        return self.rng.choice(list(legal))

    async def notify(self, event: Event) -> None:
        self.events.append(event)
