"""``q`` in the lobby asks before the program ends, as it does in a game: Esc or n keeps
the person in the lobby, y (s in Italian) ends the program."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.text import i18n
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(("lang", "question", "yes"), [("en", "Leave Scopa?", "y"),
                                                       ("it", "Vuoi uscire da Scopa?", "s")])
async def test_q_in_the_lobby_asks_first(engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
                                         lang: str, question: str, yes: str) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session is not None)
            for no in ("escape", "n"):
                await pilot.press("q")
                await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
                assert app.screen.question == question
                await pilot.press(no)
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                assert app.is_running
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press(yes)
            await until(pilot, lambda: not app.is_running)
