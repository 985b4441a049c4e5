"""`t` while watching a table (the players' chat key) says that spectators read the
table's chat but do not write in it, in the terminal's language, rather than calling it
an unknown key."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import engine, until  # noqa: F401 - engine: the server fixture
from test_tui_watch_quit import cleo_watching

pytestmark = pytest.mark.integration

SAID = {"en": "Spectators read the table's chat but do not write in it.",
        "it": "Chi guarda legge le chiacchiere del tavolo ma non vi scrive."}


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_t_while_watching_says_spectators_do_not_write(engine: NetworkEngine,  # noqa: F811
                                                             monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with cleo_watching(engine) as (app, pilot, table):
        screen = app.board_screen
        assert screen is not None
        await pilot.press("t")
        await until(pilot, lambda: str(screen._status) != "")
        assert str(screen._status) == SAID[lang], str(screen._status)
        assert app.screen is screen and app.watching == table  # nothing opened, still watching
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.watching is None)
