"""A watched game that ends because a player left it (a table made to end then): the
spectator (full-screen, or the plain client's lines) is told it was abandoned and by whom,
not shown a finished game of 0–0 and a table of zero points."""

from __future__ import annotations

import asyncio

import pytest
from rich.console import Console

from scopa.client.console import watch_table
from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.client.tui.dialogs import GameOverScreen
from scopa.server import NetworkEngine

from test_tui_leaving_told import screen_text
from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: the server fixture

pytestmark = pytest.mark.integration


async def test_a_spectator_is_told_who_abandoned_the_game(engine: NetworkEngine,  # noqa: F811
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
    carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
    try:
        async with asyncio.timeout(SAFETY):
            table = (await bruno.create_table(preset="scopa", bot_takeover=False)).id
            await carla.join_table(table)
            app = app_for(engine, name="cleo", watch=table)
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: app.watching == table and app.board_screen is not None
                            and app.board_screen.board.round_no > 0)
                await carla.leave_table()  # the game ends for everyone
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen), limit=1000)
                box = app.screen
                assert isinstance(box, GameOverScreen)
                shown = screen_text(app)
                assert "abbandonata" in box.line and "carla" in box.line, box.line
                assert "0–0" not in box.line, box.line
                assert not box.query("#game-points"), shown  # no table of zero points
                await pilot.press("enter")  # the spectator leaves
                await until(pilot, lambda: app.return_value is not None)
    finally:
        await bruno.close()
        await carla.close()


async def test_the_plain_spectator_is_told_who_abandoned_the_game(engine: NetworkEngine,  # noqa: F811
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
    carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
    cleo = await ClientSession.connect("127.0.0.1", engine.port, "cleo")
    try:
        async with asyncio.timeout(SAFETY):
            table = (await bruno.create_table(preset="scopa", bot_takeover=False)).id
            await carla.join_table(table)
            console = Console(record=True, width=200)
            watching = asyncio.ensure_future(watch_table(cleo, console, table))
            while "Carte in mano" not in console.export_text(clear=False):  # the game's first deal, as watched
                await asyncio.sleep(0.01)
                assert not watching.done()
            await carla.leave_table()
            assert await watching  # the watch ends with the game
            text = console.export_text()
            assert "La partita è stata abbandonata: carla l'ha lasciata. Nessuno vince." in text, text
            assert "non vince nessuno —" not in text, text  # no score of zeros
    finally:
        for s in (bruno, carla, cleo):
            await s.close()
