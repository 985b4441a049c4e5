"""Tab through the create-table form (Italian, 80×24 and 60×20): each field that takes the
focus is in sight with the whole of the lines explaining it ("Privato" and its invite,
"Napola"), not cut off at the form's bottom edge."""

from __future__ import annotations

import asyncio
from itertools import takewhile

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Checkbox

from scopa.client.text import i18n
from scopa.client.tui.online import CreateTableScreen, LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture
from test_tui_small_window import screen_rows

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
async def test_tab_brings_each_field_in_sight_with_its_explanation(engine: NetworkEngine,  # noqa: F811
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   size: tuple[int, int]) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen) and bool(app.screen.query("#private")))
            form = app.screen
            fields = form.query_one("#form-fields", VerticalScroll)
            private = form.query_one("#private", Checkbox)
            stops = 0
            for _ in range(80):  # all the way down the form, Privato among the fields
                await pilot.press("tab")
                await pilot.pause()
                await pilot.pause()
                field = app.focused if isinstance(app.focused, Checkbox) else app.focused.parent
                if field is None or field.parent is not fields:
                    break  # the buttons, under the fields
                stops += 1
                after = list(fields.children)[list(fields.children).index(field) + 1:]
                explained = [field, *takewhile(lambda widget: widget.has_class("explain"), after)]
                top, room = fields.scroll_offset.y, fields.scrollable_content_region.height
                for widget in explained:
                    region = widget.virtual_region
                    assert top <= region.y and region.bottom <= top + room, (field, widget, region, top, room)
                if field is private:
                    inside = [row[row.index("█") + 1:row.rindex("█")] for row in screen_rows(app) if row.count("█") > 1]
                    shown = " ".join(" ".join(row.split()) for row in inside)  # the form's rows, as one text
                    assert "o premono i nella sala e lo incollano)" in shown, shown
            assert stops > 10
