"""Scrolling parts leave a column between their text and the scroll bar, so the bar's
blocks (▄▄ ▆▆) never sit on a word: the create form at 60 columns and the board's plays
list, opened as a person opens them."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.containers import VerticalScroll

from scopa.client.text import i18n
from scopa.client.tui.online import CreateTableScreen
from scopa.engine import RuleSet

from test_tui_local import BoardHarness, position

pytestmark = pytest.mark.unit


def touching(box: VerticalScroll) -> list[str]:
    """The parts of ``box`` whose text would run up to its scroll bar."""
    edge = box.scrollable_content_region.right
    return [repr(child) for child in box.children if child.display and child.content_region.right >= edge]


async def test_the_create_form_at_60_columns_keeps_its_text_off_the_scroll_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")

    class Form(App[None]):
        def on_mount(self) -> None:
            self.push_screen(CreateTableScreen(RuleSet()))

    app = Form()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press("tab")  # a person moves through the form
        await pilot.pause()
        fields = app.screen.query_one("#form-fields", VerticalScroll)
        assert fields.max_scroll_y > 0  # it scrolls at 60×20: the bar is there
        assert touching(fields) == []


async def test_the_plays_list_keeps_its_text_off_the_scroll_bar() -> None:
    app = BoardHarness(position("5d 2c 4b 3c", "7s 3b Rc"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert touching(app.board_screen.query_one("#plays-box", VerticalScroll)) == []
