"""The plain spectator is told the game in the plain player's words (client/text's
event_line and round box): cards as the player sees them, "bruno played …", the round's
score and the game's end; a game found under way is the table, the cards in each hand and
the totals, not lists of numbers."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest
from rich.console import Console

from scopa.bots import GreedyBot
from scopa.client.console import watch_table
from scopa.client.net import ClientSession
from scopa.server import NetworkEngine

pytestmark = pytest.mark.integration

SAFETY = 60
RAW_CARD = re.compile(r"\b(?:10|[1-9]|[FCR])[dcsb]\b")  # the wire's notation: 4d, Rs


@pytest.fixture
async def engine() -> AsyncIterator[NetworkEngine]:
    e = NetworkEngine("127.0.0.1", 0, seed=5)
    await e.start()
    try:
        yield e
    finally:
        await e.stop()


async def test_a_watched_game_is_told_in_the_players_words_R22(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
        table = (await bruno.create_table(preset="scopa")).id
        cleo = await ClientSession.connect("127.0.0.1", engine.port, "cleo")
        console = Console(record=True, width=100)
        watching = asyncio.ensure_future(watch_table(cleo, console, table))
        while cleo.watching is None:
            await asyncio.sleep(0.01)
        await carla.join_table(table)
        await asyncio.gather(bruno.play_game(GreedyBot()), carla.play_game(GreedyBot()))
        assert await watching
        text = console.export_text()
        assert "bruno played " in text and "carla played " in text, text
        assert "Game starts: Scopa" in text and "Seats: bruno, carla" in text
        assert re.search(r"Game over \([^)]*\): (bruno|carla) wins \d+ – (bruno|carla) \d+", text), text
        assert "Round points" in text and "Game (to 11)" in text  # the round box
        assert not RAW_CARD.search(text), RAW_CARD.search(text)
        assert "(laid down)" not in text and "[" not in text
        for s in (bruno, carla, cleo):
            await s.close()
