"""Watching a private table (`scopa watch N --invite`) to the end of its game: the rounds'
boxes go by themselves, but the last one waits for the spectator, and the game-over box
comes after it; `scopa watch` ends only when the spectator leaves that box."""

from __future__ import annotations

import asyncio
import pytest

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession, MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.client.tui import dialogs
from scopa.client.tui.dialogs import GameOverScreen, RoundEndScreen
from scopa.protocol import Command
from scopa.protocol.commands import GameEnd
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, engine, until  # noqa: F401 - engine: the server fixture

pytestmark = pytest.mark.integration


async def test_the_last_round_box_waits_and_the_game_over_box_follows(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    mounted = dialogs.RoundEndScreen.on_mount

    def quick(self: RoundEndScreen) -> None:  # the boxes that go by themselves: at once
        if self.pause is not None:
            self.pause = 0.001
        mounted(self)

    monkeypatch.setattr(dialogs.RoundEndScreen, "on_mount", quick)
    bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
    carla = await ClientSession.connect("127.0.0.1", engine.port, "carla")
    try:
        async with asyncio.timeout(SAFETY):
            table = (await bruno.create_table(preset="scopa", private=True)).id
            code = bruno.invite
            assert code is not None
            app = NetApp("127.0.0.1", engine.port, "cleo", MemoryTokenStore(), watch=table, invite=(table, code))
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: app.watching == table)
                ended: list[Command] = []  # the game's end as the spectator's client hears it
                app.session.observers.append(lambda c: ended.append(c) if isinstance(c.body, GameEnd) else None)  # type: ignore[union-attr]
                await carla.join_table(table, invite=code)
                await asyncio.gather(bruno.play_game(GreedyBot()), carla.play_game(GreedyBot()))
                # the game is over (its game_end is here): the last round's box is still up
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen) or isinstance(
                    app.screen, RoundEndScreen) and app.screen.last_round() and bool(ended), limit=3000)
                box = app.screen
                assert isinstance(box, RoundEndScreen), type(box).__name__
                assert box.pause is None  # it does not close by itself: only the spectator's key does
                hint = str(box.query_one("#round-hint").render())
                assert "mostra il risultato" in hint, hint
                await pilot.press("enter")  # one Enter: the game's result, not the end of `scopa watch`
                await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
                assert app.is_running and app.return_value is None
                await pilot.press("enter")  # the spectator leaves
                await until(pilot, lambda: app.return_value is not None)
            assert app.return_value == 0
    finally:
        await bruno.close()
        await carla.close()
