"""An exception inside one table's game master ends that table with a logged error and
touches no other table."""

from __future__ import annotations

import asyncio
import logging
from typing import Sequence

import pytest

from scopa import bots
from scopa.bots import GreedyBot, RandomBot
from scopa.client.sdk import Bot
from scopa.engine import Declare, Play, View
from scopa.server import NetworkEngine

from wire_client import WireClient


class ExplodingBot(Bot):
    """A server-side bot with a bug: its third decision raises."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name or "exploding")
        self.turns = 0

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.turns += 1
        if self.turns == 3:
            raise RuntimeError("bot bug: index out of range")
        return legal[0]


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(bots.STRATEGIES, "exploding", ExplodingBot)
    engine = NetworkEngine("127.0.0.1", 0, seed=66)
    await engine.start()
    yield engine
    await engine.stop()


async def test_a_failing_game_master_ends_only_its_own_table(server: NetworkEngine, caplog) -> None:
    caplog.set_level(logging.INFO, logger="scopa.server")
    doomed = await WireClient.connect(server.port, "doomed")
    doomed_table = await doomed.create(bots=["exploding"])
    others = [await WireClient.connect(server.port, f"fine{i}") for i in range(3)]
    fine_tables = [await others[0].create(bots=["greedy"]),
                   await others[1].create(bots=["random", "greedy", "random"], players=4),
                   await others[2].create(bots=["greedy", "random"], players=3)]
    games = [asyncio.create_task(c.play_game(RandomBot(seed=i))) for i, c in enumerate(others)]

    events = await doomed.play_game(GreedyBot())
    end = events[-1].body
    assert events[-1].name == "game_end" and end.winner is None and end.reason == "abandoned"
    assert (await doomed.recv_until("left")).body.reason == "abandoned"
    failures = [r for r in caplog.records if r.levelno == logging.ERROR and "game master failed" in r.getMessage()]
    assert len(failures) == 1 and f"table {doomed_table}:" in failures[0].getMessage()
    assert failures[0].exc_info is not None and "bot bug" in str(failures[0].exc_info[1])

    # Every other table plays on to a real end.
    for result in await asyncio.gather(*games):
        assert result[-1].body.reason == "target"
    assert [server.tables[t].state.value for t in fine_tables] == ["finished"] * 3
    # The server and the failed table's player carry on: a new game at once.
    await doomed.create(bots=["greedy"])
    assert (await doomed.play_game(RandomBot(seed=9)))[-1].body.reason == "target"
    for c in (doomed, *others):
        await c.close()
