"""The game master's public record (R7, R10, R18, R20-R22, V8, V13): what it announces
matches what the engine did."""

from __future__ import annotations

import asyncio
import random
import tracemalloc

import pytest

from conftest import make_players

from scopa.engine import (
    CARDS,
    DealVoid,
    EndReason,
    GameEnded,
    LocalGame,
    Played,
    RoundEnded,
    RoundStarted,
    RuleSet,
    replay,
)
from scopa.engine.cards import cards_of


def _run(rules, seed):
    events: list = []

    async def observe(e):
        events.append(e)

    gm = LocalGame(rules, make_players(rules, ("random", "greedy"), seed), seed, observers=[observe])
    record = asyncio.run(gm.run())
    return gm, record, events


def test_R21_R22_announced_rounds_match_the_record():
    """R21/R22: RoundEnded totals accumulate the round points; GameEnded names the winner."""
    for seed in range(3):
        gm, record, events = _run(RuleSet.build(players=3), seed)
        ends = [e for e in events if isinstance(e, RoundEnded)]
        assert len(ends) == record.rounds
        running = [0, 0, 0]
        for e in ends:
            running = [a + b for a, b in zip(running, e.score.points)]
            assert list(e.totals) == running
        final = events[-1]
        assert isinstance(final, GameEnded)
        assert final.winner == record.winner and final.totals == record.totals
        assert final.reason is EndReason.TARGET


def test_R18_announced_scope_match_the_round_breakdown():
    """R18: the number of plays announced as scopa in a round equals its scope count."""
    gm, record, events = _run(RuleSet.build(), 11)
    scope = [0, 0]
    for e in events:
        if isinstance(e, Played) and e.scopa:
            scope[e.seat % 2] += 1
            assert e.table == ()
        if isinstance(e, RoundEnded):
            assert [e.score.breakdown[i].get("scope", 0) for i in range(2)] == scope
            scope = [0, 0]


def test_V13_void_deal_is_announced_and_same_dealer_deals_again():
    """V13 (two aces) / R10: a void deal is announced and the same dealer deals again."""
    rules = RuleSet.build("cirulla")
    for seed in range(60):
        gm, record, events = _run(rules, seed)
        voids = [i for i, e in enumerate(events) if isinstance(e, DealVoid)]
        if voids:
            break
    assert voids, "no void deal in 60 Cirulla games"
    i = voids[0]
    assert sum(1 for x in events[i].table if x.value == 1) >= 2
    nxt = next(e for e in events[i + 1 :] if isinstance(e, (RoundStarted, DealVoid)))
    assert nxt.dealer == events[i].dealer
    assert replay(rules, record.first_dealer, list(record.actions)).totals == list(record.totals)


def test_V8_instant_win_ends_the_game_with_its_reason():
    """V8: a trentino game that ends by A-2-3 of Denari announces that reason."""
    rules = RuleSet.build("trentino")
    reasons = set()
    for seed in range(12):
        gm, record, events = _run(rules, seed)
        assert isinstance(events[-1], GameEnded) and events[-1].reason is record.reason
        reasons.add(record.reason)
        if record.reason is EndReason.TRENTINO:
            pile = gm.state.piles[record.winner]
            assert all(pile >> c & 1 for c in (0, 4, 8))  # Ad, 2d, 3d
    assert EndReason.TRENTINO in reasons


async def test_a_player_answering_with_a_plain_tuple_is_understood_R7() -> None:
    """A Player may answer ``(card, capture)`` as a plain tuple equal to a legal Play: the
    game master plays the engine's own Play (and journals it as such)."""
    from scopa.engine import LocalGame, Play, Player, RuleSet, View

    class Plain(Player):
        async def choose(self, view: View, legal):  # type: ignore[override]
            first = next(a for a in legal if isinstance(a, Play))
            return (int(first.card), first.capture)

    journal: list = []
    master = LocalGame(RuleSet.build(), [Plain(), Plain()], seed=3, journal=journal.append)
    record = await master.run()
    assert record.reason is not None and max(record.totals) >= 11
    assert all(type(a) is not tuple for a in journal)


def test_R8_R10_given_deals_and_first_dealer_are_dealt_as_given_and_restored():
    """The arena's game master: every deal in the given order, the given first dealer;
    a journal of other deals is refused on restore."""
    import random as _random

    from scopa.engine import Deal, GameMaster, RuleSet

    rules = RuleSet()
    orders = [tuple(_random.Random(n).sample(range(40), 40)) for n in range(12)]
    master = GameMaster(rules, 0, deals=lambda n: orders[n], dealer=1)
    assert master.first_dealer == 1
    master.start()
    while master.asking is not None:
        ask = master.asking
        master.receive(ask.seat, ask.legal[0])
    deals = [a.order for a in master.actions if isinstance(a, Deal)]
    assert deals == [tuple(o) for o in orders[: len(deals)]] and len(deals) >= 2
    again = GameMaster(rules, 0, deals=lambda n: orders[n], dealer=1)
    again.restore(master.actions)
    assert again.state.totals == master.state.totals
    other = GameMaster(rules, 0, deals=lambda n: orders[n + 1], dealer=1)
    with pytest.raises(ValueError, match="deal"):
        other.restore(master.actions)


def test_the_cards_of_a_mask_are_its_cards_and_a_busy_server_keeps_no_hands() -> None:
    """:func:`cards_of` gives a mask's cards in id order, and remembers only masks of a
    few cards: a server's thousands of hands (each seen once or twice) are not kept."""
    rng = random.Random(5)
    hands = [sum(1 << c for c in rng.sample(range(40), 10)) for _ in range(2000)]  # made before the reading
    for mask in (0, 1 << 39, 0b1011, hands[0]):
        assert cards_of(mask) == tuple(CARDS[c] for c in range(40) if mask >> c & 1)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for mask in hands:
            cards_of(mask)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 8 * len(hands)  # less than a pointer a hand
