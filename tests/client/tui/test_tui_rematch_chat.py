"""A rematch's chat goes on from the finished game's (PROTOCOL.md, ``joined.chat``): a
person taking a seat at the rematch sees those lines on the board's chat panel in
`scopa play` (the Textual app), and in the plain client's lines, each once."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import pytest
from rich.console import Console

from scopa.bots import GreedyBot
from scopa.client.console import Lobby
from scopa.client.net import ClientSession
from scopa.client.tui.online import LobbyScreen
from scopa.engine import Preset
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine

from test_tui_network import app_for, until
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 60


@pytest.fixture
async def engine() -> AsyncIterator[NetworkEngine]:
    e = NetworkEngine("127.0.0.1", 0, seed=5)
    await e.start()
    try:
        yield e
    finally:
        await e.stop()


async def a_rematch_after_some_chat(engine: NetworkEngine) -> tuple[WireClient, str]:
    """ana and bea play, bea asks for another game and leaves (the game is over); ana makes
    its public rematch and sits there: ana's connection, the rematch's id."""
    ana = await WireClient.connect(engine.port, "ana")
    bea = await WireClient.connect(engine.port, "bea")
    ana.send(wire.CreateTable(preset=Preset.SCOPA, bot_takeover=False))
    created = (await ana.recv_until("table_created")).body
    old = created.table.id
    bea.send(wire.JoinTable(table=old))
    await bea.recv_until("joined")
    await ana.recv_until("game_start")
    bea.send(wire.Chat(text="un'altra?"), recipient=f"table:{old}")
    await ana.recv_until("chat_message")
    bea.send(wire.LeaveTable(table=old))
    for c in (ana, bea):
        await c.recv_until("left")
    await bea.close()
    ana.send(wire.CreateTable(rules=created.table.rules, bot_takeover=False, rematch_of=old))
    seated = (await ana.recv_until("joined")).body
    return ana, seated.table


async def test_the_full_screen_client_at_a_rematch_shows_the_finished_games_chat(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        ana, rematch = await a_rematch_after_some_chat(engine)
        app = app_for(engine, "cid")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and rematch in app.screen.tables)
            assert isinstance(app.screen, LobbyScreen)
            app.screen.post_message(LobbyScreen.Action("join", rematch))  # as j on its row
            await until(pilot, lambda: app.board_screen is not None and bool(app.board_screen.chat_lines))
            assert app.board_screen is not None
            assert [line.plain for line in app.board_screen.chat_lines] == ["bea: un'altra?"]
        await ana.close()


async def test_the_plain_client_at_a_rematch_says_the_finished_games_chat(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        ana, rematch = await a_rematch_after_some_chat(engine)
        session = await ClientSession.connect("127.0.0.1", engine.port, "cid")
        out = io.StringIO()
        lobby = Lobby(session, Console(file=out, width=120), GreedyBot, input_fn=lambda prompt: "")
        joining = asyncio.create_task(lobby.join(rematch, await session.list_tables()))
        while "You sit at table" not in out.getvalue():  # then the game goes on: what was said comes first
            await asyncio.wait([joining], timeout=0.05)
        joining.cancel()
        lines = out.getvalue().splitlines()
        start = next(i for i, line in enumerate(lines) if "You sit at table" in line)
        assert lines[start + 1:start + 3] == ["Said at the table so far:", "bea: un'altra?"]
        assert out.getvalue().count("un'altra?") == 1
        await session.close()
        await ana.close()
