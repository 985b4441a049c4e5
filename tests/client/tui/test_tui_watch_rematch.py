"""A spectator who watched a game to its end follows its rematch: once the players make
one, the result box offers ``n`` to watch it (in the spectator's language), and ``n``
shows the rematch's board, its game told as it is played; Enter still goes back to the
lobby.  From the lobby's w, and with ``scopa watch``."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.bots import GreedyBot
from scopa.client.text import i18n
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import GameOverScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture
from test_tui_watch_game_end import play_to_the_end, rounds_left_until_the_end, two_bots_play, watching

pytestmark = pytest.mark.integration

WATCH_REMATCH = {"it": "guarda la rivincita, al tavolo", "en": "watch the rematch, at table"}


def box_says(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_n_on_the_watched_result_watches_the_rematch(engine: NetworkEngine,  # noqa: F811
                                                           lang: i18n.Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with asyncio.timeout(SAFETY):
        table, sessions = await two_bots_play(engine)
        bruno, carla = sessions
        app = app_for(engine, name="cleo")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and table in app.screen.tables)
            await pilot.press("w")
            await play_to_the_end(pilot, app, table, sessions)
            box = app.screen
            assert isinstance(box, GameOverScreen) and WATCH_REMATCH[lang] not in box_says(app)  # none made yet
            rematch = (await bruno.create_table(preset="scopa", rematch_of=table)).id
            await until(pilot, lambda: f"{WATCH_REMATCH[lang]} {rematch}" in box_says(app))
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.watching == rematch)
            await carla.join_table(rematch)
            game = asyncio.gather(bruno.play_game(GreedyBot()), carla.play_game(GreedyBot()))
            screen = app.screen
            assert isinstance(screen, BoardScreen)
            await until(pilot, lambda: screen.board.round_no >= 1 and bool(screen.board.table), limit=2000)
            await rounds_left_until_the_end(pilot, app)  # the rematch watched to its end, as the first game
            await game
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert app.watching is None
        for s in sessions:
            await s.close()


async def test_scopa_watch_follows_a_rematch_made_before_the_box(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        table, sessions = await two_bots_play(engine)
        bruno, carla = sessions
        app = app_for(engine, name="cleo", watch=table)
        async with app.run_test(size=(80, 24)) as pilot:
            await watching(pilot, app, table)
            await carla.join_table(table)
            await asyncio.gather(bruno.play_game(GreedyBot()), carla.play_game(GreedyBot()))
            rematch = (await bruno.create_table(preset="scopa", rematch_of=table)).id  # before the box is up
            await rounds_left_until_the_end(pilot, app)
            await until(pilot, lambda: f"watch the rematch, at table {rematch}" in box_says(app))
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.watching == rematch)
            await pilot.press("b")  # stop watching the rematch: scopa watch ends
            await until(pilot, lambda: app.return_value is not None)
        for s in sessions:
            await s.close()
