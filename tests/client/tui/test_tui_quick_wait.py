"""Waiting for a quick game can be given up: the waiting line says how (Esc, or p
again), Esc stops the wait (the server is told: asking again later waits again, never
"you wait already"), and so does p pressed while waiting; the lobby's help says it."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.client.tui.dialogs import HelpScreen
from scopa.client.tui.online.lobby import LobbyScreen
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions
from scopa.server.core.clock import FakeClock

from test_tui_network import app_for, until

pytestmark = pytest.mark.integration

SAFETY = 60
WAITING = "Si aspetta una partita di scopa"
STOPPED = "Non aspetti più una partita veloce."


def told(app: NetApp, words: str) -> int:
    return sum(words in m for m in app.messages)


async def test_esc_and_p_again_stop_waiting_for_a_quick_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    engine = NetworkEngine("127.0.0.1", 0, seed=4, clock=FakeClock(), club=ClubOptions())  # quick play offered
    await engine.start()
    try:
        await waits_and_stops(engine)
    finally:
        await engine.stop()


async def waits_and_stops(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("p")
            await until(pilot, lambda: told(app, WAITING) == 1)
            waiting = next(m for m in app.messages if WAITING in m)
            assert "Esc (o di nuovo p) smette di aspettare" in waiting, waiting
            await pilot.press("escape")
            await until(pilot, lambda: told(app, STOPPED) == 1)
            await pilot.press("p")  # the server let the wait go: a new wait, not "sei già in attesa"
            await until(pilot, lambda: told(app, WAITING) == 2)
            assert not any("già in attesa" in m for m in app.messages), app.messages
            await pilot.press("p")  # p while waiting: stops it too
            await until(pilot, lambda: told(app, STOPPED) == 2)
            await pilot.press("p")
            await until(pilot, lambda: told(app, WAITING) == 3)
            assert not any("già in attesa" in m for m in app.messages), app.messages
            await pilot.press("escape")
            await until(pilot, lambda: told(app, STOPPED) == 3)
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert isinstance(app.screen, HelpScreen)
            assert "Esc o di nuovo `p`" in app.screen.source
