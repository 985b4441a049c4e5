"""The move the game master makes for a seat that does not answer in time (R7): the
sensible play, from what that seat may see.  Where a capture lies on the table it takes
it (R13: the equal card; R16: a card that can capture must), even when the first legal
play is a card laid down (R17); it is the ``greedy`` bot's own choice; and it depends on
nothing the seat cannot see (R19: the other hands and the stock's order are secret)."""

from __future__ import annotations

import random

import pytest

from scopa.bots import CarefulGreedyBot
from scopa.engine import Forced, GameMaster, Journal, Play, Played, RuleSet, mask_of, parse_cards

pytestmark = pytest.mark.unit


def _order(hand0: str, hand1: str, table: str, rng: random.Random) -> tuple[int, ...]:
    """A deal's card order: seat 0's hand, seat 1's, the table, then the stock shuffled."""
    first = [int(c) for c in parse_cards(f"{hand0} {hand1} {table}")]
    rest = [c for c in range(40) if c not in first]
    rng.shuffle(rest)
    return (*first, *rest)


def _master(order: tuple[int, ...]) -> GameMaster:
    """Two players, seat 1 deals, so seat 0 is asked first (R8)."""
    master = GameMaster(RuleSet.build(), 0, ("ada", "bob"), deals=lambda n: order, dealer=1)
    master.start()
    return master


def test_a_timeout_takes_the_capture_the_first_legal_play_would_throw_away() -> None:
    """Table 7c 5s 9b Rs; hand 1b 6s 7d: the ace and the six capture nothing (R17), the
    settebello must take the seven (R13; never 5 + 2), and the timeout takes it."""
    master = _master(_order("1b 6s 7d", "2c 3c 4c", "7c 5s 9b Rs", random.Random(1)))
    ask = master.asking
    assert ask is not None and ask.seat == 0
    first = ask.legal[0]
    assert isinstance(first, Play) and first.capture == 0  # the old default laid a card down
    effects = master.timeout(0)
    journaled = [e.action for e in effects if isinstance(e, Journal)]
    seven_d, seven_c = parse_cards("7d 7c")
    assert journaled[0] == Play(int(seven_d), mask_of([seven_c]))
    played = next(e.event for e in effects if hasattr(e, "event") and isinstance(e.event, Played))
    assert played.forced and played.forced_by is Forced.TIMEOUT and played.captured == (seven_c,)


def test_the_default_play_is_the_greedy_bots_choice_from_the_seats_view() -> None:
    """Over many deals and turns, the game master's default play is what the ``greedy``
    bot picks from the asked seat's view and legal plays."""
    bot = CarefulGreedyBot()
    rng = random.Random(4)
    for seed in range(12):
        master = GameMaster(RuleSet.build(), seed, ("ada", "bob"))
        master.start()
        while master.asking is not None:
            ask = master.asking
            assert master.default_play() == bot.pick(ask.view, ask.legal)
            master.receive(ask.seat, rng.choice(ask.legal))


def test_the_default_play_sees_only_what_the_seat_sees() -> None:
    """Two deals alike for seat 0 (its hand, the table) but with another hand for seat 1
    and another stock: the same default play, each time."""
    rng = random.Random(8)
    for _ in range(40):
        cards = rng.sample(range(40), 10)
        mine, theirs, table = cards[:3], cards[3:6], cards[6:10]
        rest = [c for c in range(40) if c not in cards]
        if sum(1 for c in table if c >= 36) >= 3:
            continue  # three kings on the table: the deal is void (R10)
        plays = set()
        for other in range(3):
            swap = rng.sample(rest + theirs, len(rest) + 3)
            order = (*mine, *swap[:3], *table, *swap[3:])
            plays.add(_master(order).default_play())
        assert len(plays) == 1
