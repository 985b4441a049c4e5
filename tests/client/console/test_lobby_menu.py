"""The plain lobby's list of commands at 80 columns: lines break between two commands,
never inside one, in English and in Italian."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from scopa.client.console.lobby import MENU
from scopa.client.text import i18n

ITEMS = {
    "en": ["p [PRESET] play now", "c create a table", "j ID join a table", "w ID watch a table", "t tournaments",
           "b [PRESET] leaderboard", "r refresh", "q quit"],
    "it": ["p [GIOCO] gioca subito", "c apri un tavolo", "j ID siediti a un tavolo", "w ID guarda un tavolo",
           "t tornei", "b [GIOCO] classifica", "r aggiorna", "q esci"],
}

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("width", [80, 40])
def test_the_lobby_commands_wrap_between_items(monkeypatch: pytest.MonkeyPatch, language: str, width: int) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", language)
    out = Console(width=width, file=io.StringIO(), color_system=None)
    out.print(MENU)
    lines = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert all(len(line) <= width for line in lines)
    assert [item for line in lines for item in line.strip().split(" · ")] == ITEMS[language]  # each whole, in order
    assert width != 80 or len(lines) == 2  # as few lines as fit
