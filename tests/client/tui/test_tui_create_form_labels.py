"""The create-table form keeps each label apart from its value: "Se qualcuno se ne va"
and "continua un bot" have a column between them, in Italian and in English, for every
row of the form."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Label, Select

from scopa.client.text import i18n
from scopa.client.tui.online.createform import CreateTableScreen
from scopa.engine import RuleSet

pytestmark = pytest.mark.integration


class FormHarness(App[None]):
    def on_mount(self) -> None:
        self.push_screen(CreateTableScreen(RuleSet(), server_timer=60.0))


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_every_label_of_the_form_stands_apart_from_its_value(lang: i18n.Lang,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    app = FormHarness()
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        rows = list(app.screen.query(".row"))
        assert len(rows) > 5
        for row in rows:
            labels, selects = list(row.query(Label)), list(row.query(Select))
            if not labels or not selects:
                continue
            label, select = labels[0], selects[0]
            text = str(label.render())
            assert label.region.width >= len(text), text  # the label whole
            assert label.region.x + len(text) < select.region.x, (text, label.region, select.region)  # a column apart
