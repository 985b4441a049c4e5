"""Leaving a network game mid-game, said to both people: the one who left is told in the
lobby what became of the game (a bot plays the seat); the other keeps a line among the
round's plays saying so (the bot's move comes at once after it, on the status line), and
at the game's end the rematch is not offered "against the same bots" when one of them
had been a person."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.bots import make_bot
from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.client.tui.dialogs import ConfirmScreen, GameOverScreen
from scopa.client.tui.online import LobbyScreen
from scopa.engine import RuleSet
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, play_through, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


def screen_text(app: NetApp) -> str:
    return "\n".join("".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips())


async def join_the_only_table(app: NetApp, pilot, first: bool = True) -> None:  # type: ignore[no-untyped-def]
    """j on the lobby's one table, until the game is on (``first``: until this seat is asked to move)."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
    await pilot.press("j")
    await until(pilot, lambda: app.board_screen is not None and (app.board_screen.asking if first else
                                                                 app.board_screen.board.round_no > 0), limit=1000)


async def test_who_leaves_is_told_in_the_lobby_that_a_bot_plays_on(engine: NetworkEngine,  # noqa: F811
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    bea = await ClientSession.connect("127.0.0.1", engine.port, "bea")
    plays: asyncio.Task[object] | None = None
    try:
        async with asyncio.timeout(SAFETY):
            await bea.create_table(RuleSet.build("scopa"), bot_takeover=True)
            app = app_for(engine)
            async with app.run_test(size=(80, 24)) as pilot:
                plays = asyncio.ensure_future(bea.play_game(make_bot("greedy")))
                await join_the_only_table(app, pilot)
                table = app.session.table_id  # type: ignore[union-attr]
                await pilot.press("q")
                await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                await pilot.press("s")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.board_screen is None)
                await pilot.pause(0.2)
                said = f"Hai lasciato la partita al tavolo {table}: al tuo posto gioca un bot."
                assert said in app.messages, app.messages[-4:]
                status = str(app.screen.query_one("#lobby-status", Static).render()) \
                    if app.screen.query("#lobby-status") else screen_text(app)
                assert said in status or said in screen_text(app), (status, app.messages[-4:])
    finally:
        if plays is not None:
            plays.cancel()
        await bea.close()


async def test_the_other_player_keeps_the_line_and_is_offered_the_right_rematch(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    ada = await ClientSession.connect("127.0.0.1", engine.port, "ada")
    try:
        async with asyncio.timeout(SAFETY):
            await ada.create_table(RuleSet.build("scopa"), bot_takeover=True)
            app = app_for(engine, "bea")
            async with app.run_test(size=(100, 30)) as pilot:
                await join_the_only_table(app, pilot, first=False)
                screen = app.board_screen
                assert screen is not None
                await ada.leave_table()  # a bot plays ada's seat from now on, and moves at once
                await until(pilot, lambda: len(screen.board.plays) >= 1 and screen.asking, limit=1000)
                plays = str(screen.query_one("#plays", Static).render())
                assert "ada ha lasciato la partita" in plays, plays
                await play_through(app, pilot, lambda: isinstance(app.screen, GameOverScreen))
                shown = screen_text(app)
                assert "contro gli stessi bot" not in shown, shown
                assert "ada ha lasciato la partita" in shown, shown
    finally:
        await ada.close()
