"""`scopa local` in the full-screen app names its people: the name given (`--name`), or
asked first as `scopa play` asks it (the box empty, the login name shown as what Enter
on nothing takes; a name with a space asked again, saying what a name is), and the
people of a hot-seat table by theirs."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import NameScreen
from scopa.engine import RuleSet


async def test_the_name_is_asked_first_and_enter_takes_the_login_name() -> None:
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0, ask_name="zio")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if isinstance(app.screen, NameScreen):
                break
        assert isinstance(app.screen, NameScreen) and app.master is None  # no game before the name
        box = app.screen.query_one("#name", Input)
        assert box.value == "" and "zio" in box.placeholder, box.placeholder  # the login offered, not typed in
        shown = "".join(seg.text for strip in app.screen._compositor.render_strips() for seg in strip)
        assert "Enter: play as zio" in shown, shown
        app.screen.query_one("#name", Input).value = "Nonna Pina"
        await pilot.press("enter")
        await pilot.pause()
        assert "Nonna_Pina" in str(app.screen.query_one("#name-problem", Static).render())
        app.screen.query_one("#name", Input).value = ""
        await pilot.press("enter")  # Enter on nothing: the login name
        for _ in range(100):
            await pilot.pause()
            if app.master is not None:
                break
        assert app.master is not None and [p.name for p in app.master.players][0] == "zio"
        assert app.board.names[0] == "zio" and app.board.seat_name(0) == "You"  # the board still says you
        await pilot.press("ctrl+c")


async def test_the_names_given_sit_the_people_of_a_hot_seat_table() -> None:
    app = LocalGameApp(RuleSet(players=4), ["human", "greedy", "human", "random"], seed=5, pace=0, names=["ada", "bruno"],
                       ask_name="zio")
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if app.master is not None:
                break
        assert app.master is not None and not isinstance(app.screen, NameScreen)
        assert [p.name for p in app.master.players][0::2] == ["ada", "bruno"]
        await pilot.press("ctrl+c")


async def test_a_name_with_a_space_is_refused_saying_what_a_name_is_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0, ask_name="zio")
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if isinstance(app.screen, NameScreen):
                break
        assert isinstance(app.screen, NameScreen)
        await pilot.press(*"nonna", "space", *"Pina", "enter")
        await pilot.pause()
        said = " ".join(str(app.screen.query_one("#name-problem", Static).render()).split())
        assert said == "'nonna Pina' non può essere un nome: un nome non ha spazi. Prova nonna_Pina o nonnaPina.", said
        await pilot.press("ctrl+c")
