"""Engine events cross the wire and come back as the same events (event_to_wire /
event_from_wire), so a Player sees a network game as it sees a local one."""

from __future__ import annotations

import pytest

from scopa.bots import RandomBot
from scopa.engine import (
    DealVoid,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    Played,
    RoundEnded,
    RuleSet,
    play_local,
)
from scopa.engine.rules import Preset
from scopa.protocol import GameEnd, GameStart, HandDeal, SeatInfo
from scopa.protocol.convert import OtherEndReason, event_from_wire, event_to_wire, rules_to_wire


class Recorder(RandomBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.events: list[Event] = []

    async def notify(self, event: Event) -> None:
        self.events.append(event)


async def _events(preset: Preset, seed: int) -> tuple[RuleSet, list[Event]]:
    rules = RuleSet.build(preset)
    players = [Recorder(seed + i) for i in range(rules.players)]
    await play_local(rules, players, seed)
    return rules, players[0].events


@pytest.mark.parametrize("preset", [Preset.SCOPA, Preset.CIRULLA, Preset.SCOPONE])
async def test_public_events_come_back_as_they_went(preset: Preset) -> None:
    rules, events = await _events(preset, 11)
    seats = [SeatInfo(seat=s, name=f"p{s}", side=rules.side_of(s)) for s in range(rules.players)]
    kinds: set[type] = set()
    for number, event in enumerate(events, 1):
        if isinstance(event, (GameStarted, HandDealt, DealVoid)):
            continue
        body = event_to_wire(event, number, seats=seats, stock=0)
        back = event_from_wire(body, 0)
        kinds.add(type(back))
        if isinstance(event, RoundEnded):  # primiera sums travel in the tallies, not sent here
            assert isinstance(back, RoundEnded)
            assert (back.round_no, back.leftovers, back.leftovers_to, back.totals) == (
                event.round_no, event.leftovers, event.leftovers_to, event.totals)
            assert (back.score.breakdown, back.score.cards) == (event.score.breakdown, event.score.cards)
        else:
            assert back == event
    assert {Played, RoundEnded, GameEnded} <= kinds


def test_a_deal_is_the_seats_hand() -> None:
    back = event_from_wire(HandDeal(event=3, cards=["7d", "3c"], hand=["7d", "3c", "Rs"], stock=30), 1)
    assert isinstance(back, HandDealt) and back.seat == 1 and back.stock_left == 30
    assert [str(c) for c in back.hand] == ["7d", "3c", "Rs"]


def test_an_end_reason_from_a_newer_server_keeps_its_word() -> None:
    back = event_from_wire(GameEnd(event=9, winner=None, totals=[5, 5], reason="meteor"), 0)
    assert isinstance(back, GameEnded) and str(back.reason) == "meteor"
    assert isinstance(back.reason, OtherEndReason)


def test_bodies_that_are_no_engine_event_are_refused() -> None:
    start = GameStart(event=1, rules=rules_to_wire(RuleSet.build("scopa")),
                      seats=[SeatInfo(seat=0, name="a", side=0), SeatInfo(seat=1, name="b", side=1)], sides=[[0], [1]])
    with pytest.raises(ValueError, match="game_start"):
        event_from_wire(start, 0)
