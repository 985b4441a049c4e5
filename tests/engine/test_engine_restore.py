"""GameMaster journal and restore: a journaled game resumes to the same end (R7)."""

from __future__ import annotations

import asyncio
import random

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import Deal, Event, LocalGame, Played, Player, RoundStarted, RuleSet, View


class Scripted(Player):
    def __init__(self, moves: list) -> None:
        self.moves = moves

    async def choose(self, view: View, legal):  # type: ignore[override]
        return self.moves.pop(0)


@pytest.mark.parametrize("cut", [1, 7, 40, 95])
async def test_restore_from_journal_reaches_the_same_end(cut: int) -> None:
    rules = RuleSet.build()
    journal: list = []
    master = LocalGame(rules, [GreedyBot(), RandomBot(seed=4)], seed=77, journal=journal.append)
    record = await master.run()
    assert journal == list(record.actions)  # every applied action was journaled, in order
    cut = min(cut, len(journal) - 1)
    # Who made each remaining play, so scripted players can repeat them.
    seats: list[list] = [[], []]
    probe = LocalGame(rules, [GreedyBot(), GreedyBot()], seed=77)
    for i, action in enumerate(journal):
        if not isinstance(action, Deal) and i >= cut:
            seats[probe.state.to_move].append(action)
        probe.state.apply(action)
    again = LocalGame(rules, [Scripted(seats[0]), Scripted(seats[1])], seed=77)
    again.restore(journal[:cut])
    rest = await again.run()
    assert rest.totals == record.totals and rest.winner == record.winner
    assert list(rest.actions) == list(record.actions)


def test_restore_refuses_a_journal_of_another_seed() -> None:
    rules = RuleSet.build()
    other = LocalGame(rules, [GreedyBot(), GreedyBot()], seed=1)
    order = other.master._next_order()
    master = LocalGame(rules, [GreedyBot(), GreedyBot()], seed=2)
    with pytest.raises(ValueError, match="seed"):
        master.restore([Deal(tuple(order))])
    assert not master.actions and master.state.round_no == 0


def test_the_deals_of_a_seed_are_the_ones_one_generator_draws_in_turn() -> None:
    """R8: a seed gives the first dealer, then one shuffle per deal, as a single seeded
    generator drawn in turn does; journals written that way restore (the game master
    keeps no generator between deals, so it draws them again from the seed)."""
    rules = RuleSet.build(target=21)
    for seed in (3, 4, 5):
        record = asyncio.run(LocalGame(rules, [GreedyBot(), GreedyBot()], seed=seed).run())
        rng = random.Random(seed)
        assert record.first_dealer == rng.randrange(rules.players)
        deals = [a for a in record.actions if isinstance(a, Deal)]
        assert len(deals) > 3
        for deal in deals:
            order = list(range(40))
            rng.shuffle(order)
            assert deal.order == tuple(order)
        again = LocalGame(rules, [GreedyBot(), GreedyBot()], seed=seed)
        again.restore(record.actions[: record.actions.index(deals[2]) + 1])
        assert again.master._next_order() == list(deals[3].order)


async def test_an_action_is_announced_only_once_its_journal_awaitable_is_done() -> None:
    """R7: a journal hook may return an awaitable (a write to a disk); the game master
    tells nobody of the action until it is done."""
    loop = asyncio.get_running_loop()
    written: list[tuple[object, asyncio.Future[None]]] = []
    called, started = asyncio.Event(), asyncio.Event()
    heard: list[Event] = []

    def journal(action: object) -> asyncio.Future[None]:
        done: asyncio.Future[None] = loop.create_future()
        written.append((action, done))
        called.set()
        return done

    async def observe(event: Event) -> None:
        heard.append(event)
        if isinstance(event, RoundStarted):
            started.set()

    master = LocalGame(RuleSet.build(), [GreedyBot(), RandomBot(seed=4)], seed=77, observers=[observe],
                        journal=journal)
    game = asyncio.create_task(master.run())
    await called.wait()
    [(deal, done)] = written
    assert isinstance(deal, Deal) and master.actions == [deal]  # applied, not yet durable
    kinds = [type(e).__name__ for e in heard]
    assert kinds == ["GameStarted"]  # the deal is not announced while its write is pending
    done.set_result(None)
    await started.wait()
    assert [type(e).__name__ for e in heard][:2] == ["GameStarted", "RoundStarted"]
    # From here on every write completes at once: the game runs to its end.
    for _, pending in written:
        if not pending.done():
            pending.set_result(None)
    master.journal = lambda action: None
    record = await game
    assert record.actions[0] == deal and len(written) >= 2


async def test_a_failed_journal_write_stops_the_game_before_it_is_announced() -> None:
    heard: list[Event] = []
    plays = 0

    async def observe(event: Event) -> None:
        heard.append(event)

    async def refuse_the_third_play(action: object) -> None:
        nonlocal plays
        if not isinstance(action, Deal):
            plays += 1
            if plays == 3:
                raise OSError("disk full (test)")

    master = LocalGame(RuleSet.build(), [GreedyBot(), RandomBot(seed=4)], seed=77, observers=[observe],
                        journal=refuse_the_third_play)
    with pytest.raises(OSError):
        await master.run()
    assert sum(isinstance(e, Played) for e in heard) == 2  # the third play was applied, never announced
    assert sum(not isinstance(a, Deal) for a in master.actions) == 3
