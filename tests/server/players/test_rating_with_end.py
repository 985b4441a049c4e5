"""A finished game's end, who played it and its ratings are one journal command, so a
crash keeps all of them or none: no rating lost or counted twice."""

from __future__ import annotations

import asyncio
from typing import Any, Sequence

from scopa.bots import GreedyBot, RandomBot
from scopa.client.net import ClientSession
from scopa.server import NetworkEngine
from scopa.server.journal.commands import FinishTable, Request, SaveRatings
from scopa.server.journal.memory.storage import MemoryStorage



class Watched(MemoryStorage):
    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Any] = []

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        self.requests += requests
        return super().run_batch(requests)


async def test_a_rated_game_ends_with_its_players_and_ratings_in_one_command() -> None:
    storage = Watched()
    engine = NetworkEngine("127.0.0.1", 0, seed=7, storage=storage,
                           rate_shared_addresses=["127.0.0.1"])  # two people on one machine
    await engine.start()
    try:
        async with await ClientSession.connect("127.0.0.1", engine.port, "ada") as ada, \
                await ClientSession.connect("127.0.0.1", engine.port, "bob") as bob:
            table = (await ada.create_table(preset="scopa")).id
            await bob.join_table(table)
            await asyncio.gather(ada.play_game(RandomBot(seed=1)), bob.play_game(GreedyBot()))
        await engine.ratings.close()  # the game's end is journaled
        [end] = [r for r in storage.requests if isinstance(r, FinishTable)]
        assert end.table_id == table and [p.name for p in end.players][0] == "ada"
        assert end.rating is not None and {r.name for r in end.rating.ratings} == {"ada", "bob"}
        assert not any(isinstance(r, SaveRatings) for r in storage.requests)  # the end carries them
        assert (await engine.storage.ratings(end.rating.preset, ["ada"]))["ada"].games == 1
    finally:
        await engine.stop()
