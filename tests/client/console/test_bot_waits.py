"""BotRunner (`scopa bot`, the SDK's runner) waits out the refusals a wait can cure:
``too_many_tables`` (then it joins a waiting table of its rules, or tries again later)
and ``rate_limited`` (as long as ``retry_after`` says); any other refusal ends the run.
The server is real, in process; the runner's waits are handed to the test."""

from __future__ import annotations

import asyncio
import random

import pytest

from scopa.client import BotRunner, ClientSession, GreedyBot, RandomBot
from scopa.client.net import ServerRefused
from scopa.engine import RuleSet
from scopa.protocol import ErrorCode
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

pytestmark = pytest.mark.integration

SAFETY = 60  # a safety net only
RULES = RuleSet.build("scopa", target=11)


async def test_runners_refused_too_many_tables_wait_then_meet() -> None:
    """The address may hold one waiting table and holds one (other rules): both runners
    are refused, say so on one line and wait; once it is gone, one creates a table and
    the other joins it (it looks for one before waiting again)."""
    engine = NetworkEngine("127.0.0.1", 0, seed=4, limits=Limits(max_waiting_tables_per_address=1))
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            other = await ClientSession.connect("127.0.0.1", engine.port, "other")
            await other.create_table(preset="scopa", options={"target": 16})
            waited: list[float] = []
            freeing: list[asyncio.Future[object]] = []

            async def wait(seconds: float) -> None:  # the first wait is long enough for the table to go
                waited.append(seconds)
                if not freeing:
                    freeing.append(asyncio.ensure_future(other.leave_table()))
                await freeing[0]

            lines: list[str] = []
            sessions = [await ClientSession.connect("127.0.0.1", engine.port, f"w{n}") for n in range(2)]
            runners = [BotRunner(s, bot, rules=RULES, log=lines.append, sleep=wait, rng=random.Random(n))
                       for n, (s, bot) in enumerate(zip(sessions, (GreedyBot(), RandomBot(seed=2))))]
            results = await asyncio.gather(*(r.run() for r in runners))
            assert [len(r) for r in results] == [1, 1] and results[0][0].totals == results[1][0].totals
            assert sum(r.waits for r in runners) >= 1 and waited and all(0.75 <= w <= 1.25 for w in waited[:2])
            refusals = [line for line in lines if "too_many_tables" in line]
            assert refusals and all("\n" not in line and "trying again in" in line for line in refusals)
            for s in (*sessions, other):
                await s.close()
    finally:
        await engine.stop()


async def test_a_runner_waits_as_long_as_rate_limited_says() -> None:
    """A bucket of two commands that refills two a second on a clock that moves only when
    the runner waits: the runner's third command is refused with retry_after 1 s, it
    waits that long, and goes on (a look at the lobby, then the table it makes)."""
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=4, clock=clock,
                           limits=Limits(commands_per_second=2.0, command_burst=2, ping_interval=None))
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            session = await ClientSession.connect("127.0.0.1", engine.port, "slow")
            waited: list[float] = []

            async def wait(seconds: float) -> None:
                waited.append(seconds)
                clock.advance(seconds)

            lines: list[str] = []
            runner = BotRunner(session, GreedyBot(), rules=RULES, fill_with_bots=["random"], log=lines.append,
                               sleep=wait)
            await runner.take_a_seat()
            assert session.table_id is not None
            assert waited and waited[0] == 1.0 and any("rate_limited" in line for line in lines)
            await session.close()
    finally:
        await engine.stop()


async def test_a_refusal_no_wait_cures_ends_the_run(port: int) -> None:
    async with asyncio.timeout(SAFETY):
        session = await ClientSession.connect("127.0.0.1", port, "lost")
        runner = BotRunner(session, GreedyBot(), table="no-such-table", sleep=lambda s: pytest.fail("waited"))
        with pytest.raises(ServerRefused) as refused:
            await runner.run()
        assert refused.value.code is ErrorCode.NO_SUCH_TABLE and runner.waits == 0
        await session.close()
