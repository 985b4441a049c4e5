"""The hot seat's "pass the keyboard" screen names the next person in a sentence of its
language: Italian writes "ad" before a name that begins with a vowel ("Passa la tastiera
ad ada"), "a" before the others, as the status line's "Tocca ad ada" does."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.tui.dialogs import HandOverScreen

pytestmark = pytest.mark.integration


async def shown(name: str) -> str:
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(HandOverScreen(name))
        await pilot.pause()
        return str(app.screen.query_one("#handover", Static).render())


@pytest.mark.parametrize(("lang", "name", "line"), [
    ("it", "ada", "Passa la tastiera ad ada."),
    ("it", "Elena", "Passa la tastiera ad Elena."),
    ("it", "bruno", "Passa la tastiera a bruno."),
    ("en", "ada", "Pass the keyboard to ada."),
])
async def test_the_hand_over_names_the_next_person_in_a_sentence(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                                name: str, line: str) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    text = await shown(name)
    assert text.splitlines()[0] == line, text
