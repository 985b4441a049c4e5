"""`scopa watch` without `--name`, in the Textual app and in Italian: the name box does not
offer the login name as if the players would see it; it starts empty, says that the
players see how many watch and not who, and Enter on it watches under the login name."""

from __future__ import annotations

import asyncio
import re

import pytest
from textual.widgets import Input

from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import NameScreen
from scopa.server import NetworkEngine

from test_tui_lobby_fits import screen_rows
from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def test_the_watch_name_box_starts_empty_and_says_why(engine: NetworkEngine,  # noqa: F811
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        table = (await bruno.create_table(preset="scopa")).id
        app = app_for(engine, "zio", watch=table)
        app.ask_name = True  # as scopa watch without --name
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NameScreen))
            await pilot.pause()
            box = app.screen.query_one("#name", Input)
            assert box.value == ""  # nothing offered as if it were the name the table sees
            shown = " ".join(re.sub("[█▊▎▔▁▀▄]", " ", " ".join(screen_rows(app))).split())  # as read, borders aside
            assert "Invio: guardi come zio" in shown, shown
            assert "I giocatori vedono quanti guardano il loro tavolo, non chi" in shown, shown
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.watching == table)
            assert app.session is not None and app.session.name == "zio"
            await pilot.press("b")  # done watching: the app ends
            await until(pilot, lambda: app.return_code is not None)
        await bruno.close()
