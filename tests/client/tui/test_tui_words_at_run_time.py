"""The full-screen client's words follow the language chosen when it runs (``--lang``,
the locale), not the one in effect when its modules were imported: the question ``q``
asks during a local game, and the create-table form's labels, teams and bots, in
Italian and in English alike (the modules are imported once, in one of them)."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Select

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.client.tui.online.createform import CreateTableScreen
from scopa.engine import RuleSet

from test_tui_local import play_until
from test_tui_small_window import screen_rows

pytestmark = pytest.mark.integration

LEAVE = {"it": "Lasci la partita?", "en": "Leave the game?"}
TEAMS = {"it": ("Squadre", ["squadre in 4 o in 6", "due squadre", "ciascuno per sé"]),
         "en": ("Teams", ["teams with 4 or 6 players", "two teams", "each alone"])}
BOTS = {"it": "aspetta le persone", "en": "wait for people"}


class FormHarness(App[None]):
    def on_mount(self) -> None:
        self.push_screen(CreateTableScreen(RuleSet(players=4), server_timer=60.0))


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_leaving_a_local_game_is_asked_in_the_language_chosen(lang: i18n.Lang,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(app, pilot, lambda: app.board_screen.asking)
        await pilot.press("q")
        await play_until(app, pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.pause()
        shown = "\n".join(screen_rows(app))  # type: ignore[arg-type]
        assert LEAVE[lang] in shown, shown


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_create_form_speaks_the_language_chosen(lang: i18n.Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    app = FormHarness()
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        label, choices = TEAMS[lang]
        teams = app.screen.query_one("#teams", Select)
        assert [name for name, _ in teams._options] == choices
        bots = app.screen.query_one("#bots", Select)
        assert bots._options[0][0] == BOTS[lang], bots._options
        shown = "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())
        assert label in shown and choices[0] in shown, shown  # as the form shows them
