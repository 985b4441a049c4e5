"""Watching a game to its end in the full-screen app: the spectator is shown who won and
the final score, as the players are, until a key leaves it; `scopa watch` then ends with
that result line, and the lobby's w goes back to the lobby."""

from __future__ import annotations

import asyncio

import pytest

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession
from scopa.client.tui.dialogs import GameOverScreen, RoundEndScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def two_bots_play(engine: NetworkEngine) -> tuple[str, list[ClientSession]]:
    """bruno waits at a table; once asked, carla joins and both play greedily to the end."""
    bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
    table = (await bruno.create_table(preset="scopa")).id
    carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
    return table, [bruno, carla]


async def play_to_the_end(pilot, app, table: str, sessions: list[ClientSession]) -> str:  # type: ignore[no-untyped-def]
    """Start the game once the app watches, leave each round's box, until the game-over box."""
    bruno, carla = sessions
    await watching(pilot, app, table)
    await carla.join_table(table)
    game = asyncio.gather(bruno.play_game(GreedyBot()), carla.play_game(GreedyBot()))
    await rounds_left_until_the_end(pilot, app)
    await game
    return str(app.screen.line)


async def watching(pilot, app, table: str) -> None:  # type: ignore[no-untyped-def]
    """Wait until the app watches ``table``."""
    for _ in range(400):
        if app.watching == table:
            break
        await pilot.pause(0.02)


async def rounds_left_until_the_end(pilot, app) -> None:  # type: ignore[no-untyped-def]
    """Leave each round's box (Enter) until the game-over box is up."""
    for _ in range(5000):
        if isinstance(app.screen, GameOverScreen):
            break
        if isinstance(app.screen, RoundEndScreen):
            await pilot.press("enter")
        await pilot.pause(0.02)
    assert isinstance(app.screen, GameOverScreen)


async def test_scopa_watch_shows_the_result_and_ends_with_it_R22(engine: NetworkEngine,  # noqa: F811
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    async with asyncio.timeout(SAFETY):
        table, sessions = await two_bots_play(engine)
        app = app_for(engine, name="cleo", watch=table)
        async with app.run_test(size=(80, 24)) as pilot:
            line = await play_to_the_end(pilot, app, table, sessions)
            assert ("bruno wins" in line or "carla wins" in line) and "–" in line
            assert app.is_running  # the box waits for a key
            assert not app.check_action("stop_watching", ())  # the game is over: no "b stop watching" in the keys
            await pilot.press("enter")
            for _ in range(400):
                if app.return_value is not None:
                    break
                await pilot.pause(0.02)
        assert app.return_value == 0
        assert line in capsys.readouterr().err  # printed as the app closes
        for s in sessions:
            await s.close()


async def test_watching_from_the_lobby_shows_the_result_then_the_lobby(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        table, sessions = await two_bots_play(engine)
        app = app_for(engine, name="cleo")
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                if isinstance(app.screen, LobbyScreen) and table in app.screen.tables:
                    break
                await pilot.pause(0.02)
            await pilot.press("w")
            line = await play_to_the_end(pilot, app, table, sessions)
            assert "wins" in line
            await pilot.press("enter")
            for _ in range(400):
                if isinstance(app.screen, LobbyScreen):
                    break
                await pilot.pause(0.02)
            assert isinstance(app.screen, LobbyScreen) and app.watching is None
        for s in sessions:
            await s.close()
