"""Help while watching a table lists a spectator's keys (b to stop watching, the chat
read only, the rematch to watch) and none of a player's (playing a card, typing one,
writing in the chat), and says the turn timer as a spectator reads it, in Italian too."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_help_table import help_text
from test_tui_network import engine, until  # noqa: F401 - engine: the server fixture
from test_tui_watch_quit import cleo_watching

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_spectators_help_lists_only_a_spectators_keys(engine: NetworkEngine,  # noqa: F811
                                                              monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with cleo_watching(engine) as (app, pilot, table):
        shown = await help_text(app, pilot)
        table_facts, keys = shown.split("\n## ")[0], shown.split("\n## ")[1]
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.board_screen and app.watching == table)
        await pilot.press("b")  # the key the help names: back in the lobby
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.watching is None)
    if lang == "en":  # the timer: the server plays for the seat whose time ran out, not for the spectator
        assert "then the server plays for that player." in table_facts and "for you" not in table_facts, table_facts
        assert keys.startswith("Keys while watching") and "`b`: stop watching" in keys, keys
        assert "play that card" not in keys and "`/`" not in keys and "`t`" not in keys, keys
    else:
        assert "poi gioca il server al suo posto." in table_facts and "per te" not in table_facts, table_facts
        assert keys.startswith("Tasti mentre guardi") and "`b`: smetti di guardare" in keys, keys
        assert "gioca quella carta" not in keys and "`/`" not in keys and "`t`" not in keys, keys
