"""The help of ``scopa watch --table N`` (no lobby seen first) says the watched table's
number and its turn timer as a spectator reads it, as watching from the lobby does."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n
from scopa.server import NetworkEngine

from test_tui_help_table import help_text
from test_tui_network import engine, until  # noqa: F401 - engine: the server fixture
from test_tui_watch_quit import cleo_watching

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_scopa_watch_help_says_the_tables_number_and_timer(engine: NetworkEngine,  # noqa: F811
                                                                monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with cleo_watching(engine, from_lobby=False) as (app, pilot, table):
        shown = await help_text(app, pilot)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.board_screen)
        await pilot.press("b")
        await until(pilot, lambda: not app.is_running)
    table_facts = shown.split("\n## ")[0]
    if lang == "en":
        assert f"Table number: {table}" in table_facts, table_facts
        assert "Turn timer:" in table_facts and "then the server plays for that player." in table_facts, table_facts
    else:
        assert f"Numero del tavolo: {table}" in table_facts, table_facts
        assert "poi gioca il server al suo posto." in table_facts, table_facts
