"""A rematch's chat goes on from the finished game's (PROTOCOL.md, ``joined.chat``): a
person taking a seat at the rematch sees those lines on the board's chat panel in
`scopa play` (the Textual app), and in the plain client's lines, each once."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console

from scopa.bots import GreedyBot
from scopa.client.console import Lobby
from scopa.client.net import ClientSession
from scopa.client.tui.online import LobbyScreen
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine

from test_rematch import over_after_a_word
from test_server_games import seeded_server
from test_tui_network import app_for, until
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 60


engine = seeded_server(5, name="engine")


async def a_rematch_after_some_chat(engine: NetworkEngine) -> tuple[WireClient, str]:
    """ana and bea play, bea asks for another game and leaves (the game is over); ana makes
    its public rematch and sits there: ana's connection, the rematch's id."""
    ana, bea, created = await over_after_a_word(engine, private=False)
    await bea.close()
    ana.send(wire.CreateTable(rules=created.table.rules, bot_takeover=False, rematch_of=created.table.id))
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
