"""`q` while watching a table asks first, as it does at a game: from the lobby, yes goes
back to the lobby (as leaving a game does); with `scopa watch`, yes ends it; no (or Esc)
goes on watching."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: the server fixture

pytestmark = pytest.mark.integration


async def a_game_under_way(engine: NetworkEngine) -> tuple[str, list[ClientSession]]:  # noqa: F811
    """bruno and carla seated at bruno's table, the game started (nobody plays yet)."""
    bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
    carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
    table = (await bruno.create_table(preset="scopa")).id
    await carla.join_table(table)
    return table, [bruno, carla]


async def watch_from_the_lobby(app: NetApp, pilot, table: str) -> None:  # type: ignore[no-untyped-def]
    """``table`` picked in the lobby's list with `w`, until the app watches it."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and table in app.screen.tables)
    await pilot.press("w")
    await until(pilot, lambda: app.watching == table and app.screen is app.board_screen)


@asynccontextmanager
async def cleo_watching(engine: NetworkEngine, from_lobby: bool = True) -> AsyncIterator[tuple[NetApp, Any, str]]:  # noqa: F811
    """cleo's app (80x24) watching a game under way, from the lobby's list (or as ``scopa
    watch --table N``): the app, its pilot and the table; the players' sessions closed after."""
    table, sessions = await a_game_under_way(engine)
    try:
        async with asyncio.timeout(SAFETY):
            app = app_for(engine, name="cleo", watch=None if from_lobby else table)
            async with app.run_test(size=(80, 24)) as pilot:
                if from_lobby:
                    await watch_from_the_lobby(app, pilot, table)
                else:
                    await until(pilot, lambda: app.watching == table and app.screen is app.board_screen)
                yield app, pilot, table
    finally:
        for session in sessions:
            await session.close()


async def asked(app: NetApp, pilot) -> str:  # type: ignore[no-untyped-def]
    """q, until the question is up: its words."""
    await pilot.press("q")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    assert isinstance(app.screen, ConfirmScreen) and app.is_running
    return app.screen.question


async def test_q_while_watching_from_the_lobby_asks_then_goes_back_to_the_lobby(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    table, sessions = await a_game_under_way(engine)
    try:
        async with asyncio.timeout(SAFETY):
            app = app_for(engine, name="cleo")
            async with app.run_test(size=(80, 24)) as pilot:
                await watch_from_the_lobby(app, pilot, table)
                question = await asked(app, pilot)
                assert f"tavolo {table}" in question and "sala" in question, question
                await pilot.press("n")  # no: still watching
                await until(pilot, lambda: app.screen is app.board_screen)
                assert app.watching == table and app.is_running
                await asked(app, pilot)
                await pilot.press("s")  # yes: back in the lobby, not out of the app
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.watching is None)
                assert app.is_running and app.return_value is None
    finally:
        for s in sessions:
            await s.close()


async def test_q_in_scopa_watch_asks_then_ends_it(engine: NetworkEngine,  # noqa: F811
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    table, sessions = await a_game_under_way(engine)
    try:
        async with asyncio.timeout(SAFETY):
            app = app_for(engine, name="cleo", watch=table)
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: app.watching == table and app.screen is app.board_screen)
                question = await asked(app, pilot)
                assert f"tavolo {table}" in question and "esci" in question, question
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is app.board_screen)
                assert app.is_running and app.watching == table
                await asked(app, pilot)
                await pilot.press("s")
                await until(pilot, lambda: app.return_value is not None)
            assert app.return_value == 0
    finally:
        for s in sessions:
            await s.close()
