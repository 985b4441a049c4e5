"""The server's your_turn, built from the game state for speed, is byte for byte the
message the engine's View of that seat makes (R7, R19: the View is what defines what a
seat may see; the fast path must never show more, or less)."""

from __future__ import annotations

import random

import msgpack
import pytest

from scopa.engine import Deal, GameState, Phase, Preset, RuleSet
from scopa.engine.view import view
from scopa.protocol import commands as wire
from scopa.protocol.convert import legal_to_wire, view_to_wire, your_turn_data_of


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
