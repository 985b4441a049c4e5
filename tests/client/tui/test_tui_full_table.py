"""A full table joined from the lobby: the refusal says the table is full and how to
watch its game instead (w in the full-screen lobby, ``w ID`` in the plain one), in Italian."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console

from scopa.bots import GreedyBot
from scopa.client.console import Lobby
from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def test_the_full_screen_lobby_points_a_full_table_to_w(engine: NetworkEngine,  # noqa: F811
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa", fill_with_bots=["medium"])  # both seats taken: full
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
            await pilot.press("j")
            said = f"Il tavolo {bruno.table_id} è pieno: con w guardi la sua partita."
            await until(pilot, lambda: said in app.messages)
            assert isinstance(app.screen, LobbyScreen)
        await bruno.close()


async def test_the_plain_lobby_points_a_full_table_to_w_id(engine: NetworkEngine,  # noqa: F811
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        await bruno.create_table(preset="scopa", fill_with_bots=["medium"])
        answers = iter([f"j {bruno.table_id}", "q"])
        out = io.StringIO()
        session = await ClientSession.connect("127.0.0.1", engine.port, "ada")
        await Lobby(session, Console(file=out, width=160), GreedyBot, input_fn=lambda _: next(answers)).run()
        said = " ".join(out.getvalue().split())
        assert f"Il tavolo {bruno.table_id} è pieno: con w {bruno.table_id} guardi la sua partita." in said, said
        await session.close()
        await bruno.close()
