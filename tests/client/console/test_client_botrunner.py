"""BotRunner (the engine of `scopa bot`) against the real server, in process."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client import BotRunner, ClientSession, GreedyBot, RandomBot
from scopa.client.console.botrunner import load_bot_class
from scopa.client.sdk import Bot
from scopa.engine import RuleSet, play_local

from paths import ROOT

SAFETY = 60




async def test_two_runners_find_each_other_for_several_games(port: int) -> None:
    async with asyncio.timeout(SAFETY):
        a = await ClientSession.connect("127.0.0.1", port, "r1")
        b = await ClientSession.connect("127.0.0.1", port, "r2")
        ra, rb = await asyncio.gather(
            BotRunner(a, RandomBot(seed=3), games=3).run(), BotRunner(b, GreedyBot(), games=3).run()
        )
        assert len(ra) == len(rb) == 3
        assert [r.totals for r in ra] == [r.totals for r in rb]
        assert all(r.reason == "target" for r in ra)
        await a.close()
        await b.close()


async def test_two_runners_that_both_opened_a_table_meet_at_one(port: int) -> None:
    """Both found nothing and created a table: the later table's bot moves (no deadlock)."""
    async with asyncio.timeout(SAFETY):
        a = await ClientSession.connect("127.0.0.1", port, "w1")
        b = await ClientSession.connect("127.0.0.1", port, "w2")
        ta = await a.create_table()
        tb = await b.create_table()
        runner_a, runner_b = BotRunner(a, RandomBot(seed=1)), BotRunner(b, RandomBot(seed=2))
        waits = await asyncio.gather(runner_a._wait_at_own_table(ta.id), runner_b._wait_at_own_table(tb.id))
        assert waits == [True, True]
        assert a.table_id == b.table_id == min(ta.id, tb.id, key=lambda i: (len(i), i))
        results = await asyncio.gather(a.play_game(RandomBot(seed=1)), b.play_game(RandomBot(seed=2)))
        assert results[0].totals == results[1].totals
        await a.close()
        await b.close()


async def test_a_runner_with_rules_joins_only_matching_tables(port: int) -> None:
    async with asyncio.timeout(SAFETY):
        other = await ClientSession.connect("127.0.0.1", port, "other")
        await other.create_table(preset="scopa", options={"target": 16})
        s = await ClientSession.connect("127.0.0.1", port, "picky")
        rules = RuleSet.build("scopa", target=11)
        runner = BotRunner(s, GreedyBot(), rules=rules, fill_with_bots=["random"])
        (result,) = await runner.run()
        assert result.rules == rules and result.table != other.table_id
        assert other.table_id is not None  # nobody joined the target-16 table
        await other.close()
        await s.close()


def test_load_bot_class_from_a_file_and_a_module() -> None:
    cls = load_bot_class(f"{ROOT / 'examples' / 'sdk_bot.py'}:Sweeper")
    assert issubclass(cls, Bot)
    assert load_bot_class("scopa.bots:GreedyBot") is GreedyBot
    for bad in ("nocolon", "scopa.bots:Nope", "scopa.engine:RuleSet", "no/such/file.py:X", "nosuchmodule_x:Y"):
        with pytest.raises(ValueError):
            load_bot_class(bad)


async def test_the_same_sdk_bot_plays_locally_and_over_tcp(port: int) -> None:
    sweeper = load_bot_class(f"{ROOT / 'examples' / 'sdk_bot.py'}:Sweeper")
    record = await play_local(RuleSet(), [sweeper(), GreedyBot()], seed=5)
    assert record.winner is not None
    async with asyncio.timeout(SAFETY):
        async with await ClientSession.connect("127.0.0.1", port, "sweeper") as s:
            await s.create_table(fill_with_bots=["greedy"])
            result = await s.play_game(sweeper())
            assert result.winner is not None and result.rejected == 0
