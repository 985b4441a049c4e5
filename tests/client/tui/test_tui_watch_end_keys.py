"""A spectator's last screens, once the game watched is over (its last round's box, then
the result's): the key line does not offer ``b`` (stop watching), as the box takes that
letter itself (it closes the box), nor ``q``."""

from __future__ import annotations

import asyncio

import pytest

from scopa.bots import GreedyBot
from scopa.client.text import i18n
from scopa.client.tui.dialogs import GameOverScreen, RoundEndScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture
from test_tui_small_window import screen_rows
from test_tui_watch_game_end import two_bots_play, watching

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("lobby", [True, False], ids=["from-the-lobby", "scopa-watch"])
async def test_the_last_screens_of_a_watched_game_offer_no_b(engine: NetworkEngine,  # noqa: F811
                                                             monkeypatch: pytest.MonkeyPatch, lobby: bool) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        table, (bruno, carla) = await two_bots_play(engine)
        app = app_for(engine, name="cleo", watch=None if lobby else table)
        async with app.run_test(size=(80, 24)) as pilot:
            if lobby:
                await until(pilot, lambda: app.lobby is not None and table in app.lobby.tables)
                await pilot.press("w")
            await watching(pilot, app, table)
            await carla.join_table(table)
            game = asyncio.gather(bruno.play_game(GreedyBot()), carla.play_game(GreedyBot()))
            seen = []
            for _ in range(5000):
                if isinstance(app.screen, GameOverScreen):
                    break
                if isinstance(app.screen, RoundEndScreen):
                    if app.screen.last_round():
                        await pilot.pause()
                        seen.append("\n".join(screen_rows(app)))
                    await pilot.press("enter")
                await pilot.pause(0.02)
            await game
            await pilot.pause()
            seen.append("\n".join(screen_rows(app)))
            assert len(seen) == 2 and "Vince" in seen[-1]
            for shown in seen:
                keys = shown.splitlines()[-1]
                assert "? aiuto" in keys and "smetti di guardare" not in keys and "q esci" not in keys, shown
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) if lobby else not app.is_running)
        for s in (bruno, carla):
            await s.close()
