"""The create-table form of the Textual lobby: every table option of the rules model, each
with its own field description; presets fill the form; the table the server opens carries
what was chosen (R5, R9, R12, R15, R22, V1-V13); options that do not go together are
explained in the form."""

from __future__ import annotations

import asyncio

import pytest
from textual.widget import Widget
from textual.widgets import Checkbox, DataTable, Select, Static

from scopa.client.net import ClientSession
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.online.invitepanel import ShareInviteScreen
from scopa.client.tui.online import CreateTableScreen, LobbyScreen
from scopa.engine import AssoPigliaTutto, CaptureMode, Preset, RuleSet
from scopa.protocol import TableInfo
from scopa.protocol.convert import rules_from_wire
from scopa.protocol.rules import WireRules
from scopa.server import NetworkEngine

from test_server_games import seeded_server
from test_tui_network import app_for, until

SAFETY = 60


engine = seeded_server(47, name="engine")


async def open_form(app, pilot) -> CreateTableScreen:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await pilot.press("c")
    await until(pilot, lambda: isinstance(app.screen, CreateTableScreen))
    form = app.screen
    assert isinstance(form, CreateTableScreen)
    return form


def text_of(form: CreateTableScreen, selector: str) -> str:
    return str(form.query_one(selector, Static).render())


async def listed(engine: NetworkEngine, table_id: str) -> TableInfo:
    """The table as the lobby lists it to somebody else."""
    async with await ClientSession.connect("127.0.0.1", engine.port, "eve") as eve:
        tables = {t.id: t for t in await eve.list_tables()}
    return tables[table_id]


async def test_every_option_of_the_rules_model_is_in_the_form_with_its_own_description(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            assert set(WireRules.model_fields) == set(RuleSet.model_fields)
            for name, field in RuleSet.model_fields.items():
                widget = form.query_one(f"#{name}")
                assert isinstance(widget, Checkbox if field.annotation is bool else Select), name
                plain = {"teams": "whether partners play together as a team, sitting opposite each other"}
                assert field.description and text_of(form, f"#{name}-about") == plain.get(name, field.description)
            captures = dict((str(v), label) for label, v in form.query_one("#capture_mode", Select)._options)
            assert captures["traditional"].startswith("Traditional") and captures["fewest"] == "Fewest cards"
            assert captures["free"] == "Free choice"  # R15 as players call it, not the code names
            hand = [v for _, v in form.query_one("#hand_size", Select)._options]
            assert hand == list(range(1, 21))  # the model's own bounds (R9)
            assert [v for _, v in form.query_one("#target", Select)._options] == [11, 16, 21, 31, 51]


async def test_a_preset_fills_every_field(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            for preset in (Preset.SCOPONE_SCIENTIFICO, Preset.ESCOBA, Preset.FRAC, Preset.TRENTINO, Preset.SCOPA):
                form.query_one("#preset", Select).value = preset.value
                await pilot.pause()
                await pilot.pause()
                assert form.rules() == RuleSet.build(preset), preset
            form.query_one("#preset", Select).value = Preset.CIRULLA.value
            await pilot.pause()
            await pilot.pause()
            assert form.query_one("#cirulla", Checkbox).value is True
            assert form.query_one("#target", Select).value == 51
            assert "Ligurian" in text_of(form, "#preset-explain")
            assert text_of(form, "#form-error") == ""


async def test_the_chosen_options_reach_the_server(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            choices: dict[str, object] = {"players": 3, "teams": "no", "hand_size": 4, "table_cards": 4,
                                          "target": 16, "capture_mode": "fewest", "asso_piglia_tutto": "traditional",
                                          "bots": "none"}
            for name, value in choices.items():
                form.query_one(f"#{name}", Select).value = value
            for name in ("max_two", "re_bello", "ponino"):
                form.query_one(f"#{name}", Checkbox).value = True
            await pilot.pause()
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            table_id = app.session.table_id  # type: ignore[union-attr]
            assert table_id is not None
            rules = rules_from_wire((await listed(engine, table_id)).rules)
            assert (rules.players, rules.has_teams, rules.hand_size, rules.table_cards, rules.target) == (3, False, 4, 4, 16)
            assert rules.capture_mode is CaptureMode.FEWEST
            assert rules.asso_piglia_tutto is AssoPigliaTutto.TRADITIONAL
            assert rules.max_two and rules.re_bello and rules.ponino
            assert not (rules.napola or rules.quindici or rules.refill_each_turn)


async def test_a_preset_chosen_in_the_form_is_the_tables_game(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            form.query_one("#preset", Select).value = "escoba"
            await pilot.pause()
            form.query_one("#bots", Select).value = "none"
            await pilot.pause()
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            info = await listed(engine, app.session.table_id)  # type: ignore[union-attr, arg-type]
            assert rules_from_wire(info.rules) == RuleSet.build("escoba")  # V7: quindici and escoba, to 21
            assert f"Table {info.id} is open: Escoba, 2p, to 21." in app.messages  # the name players know
            lobby = app.lobby
            assert lobby is not None
            await until(pilot, lambda: info.id in lobby.tables)
            row = lobby.query_one("#tables", DataTable).get_row(info.id)
            assert str(row[1]).startswith("Escoba, 2p, to 21")


async def test_options_that_do_not_go_together_are_explained_and_nothing_is_opened(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            form.query_one("#teams", Select).value = "yes"  # two players, two teams: R5 says no
            await pilot.pause()
            await pilot.pause()
            assert "2 players cannot form two teams" in text_of(form, "#form-error")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is form and not engine.tables
            form.query_one("#teams", Select).value = "auto"
            form.query_one("#hand_size", Select).value = 5  # 40 - 14 = 26 cards do not deal in tens (R9)
            await pilot.pause()
            await pilot.pause()
            assert "does not divide" in text_of(form, "#form-error")
            form.query_one("#refill_each_turn", Checkbox).value = True  # R12: refilling after each play works
            await pilot.pause()
            await pilot.pause()
            assert text_of(form, "#form-error") == ""
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            info = await listed(engine, app.session.table_id)  # type: ignore[union-attr, arg-type]
            rules = rules_from_wire(info.rules)
            assert rules.hand_size == 5 and rules.refill_each_turn


async def test_a_private_table_with_a_turn_timer_and_its_invite_code_joined_from_the_lobby(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            form.query_one("#bots", Select).value = "none"
            form.query_one("#turn_timeout", Select).value = 30.0
            form.query_one("#bot_takeover", Select).value = False
            form.query_one("#private", Checkbox).focus()
            await pilot.press("space")  # ticked as a person ticks it
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, ShareInviteScreen))  # the invite to pass on first
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            table = engine.tables[app.session.table_id]  # type: ignore[union-attr, index]
            assert table.private and table.turn_timeout == 30.0 and not table.bot_takeover
            invite = app.session.invite  # type: ignore[union-attr]
            status = str(app.screen.query_one("#status", Static).render())
            assert f"pass on its invite, {table.id}.{invite}" in status.replace("\n", " ")  # one string
            guest = app_for(engine, name="bea")
            async with guest.run_test(size=(80, 24)) as guest_pilot:
                await until(guest_pilot, lambda: isinstance(guest.screen, LobbyScreen))
                await guest_pilot.press("i")
                await guest_pilot.press(*f"{table.id}.{invite}", "enter")
                await until(guest_pilot, lambda: isinstance(guest.screen, BoardScreen))
                assert guest.session.table_id == table.id  # type: ignore[union-attr]


async def test_an_invite_code_with_no_table_number_is_explained(engine: NetworkEngine) -> None:
    from scopa.client.tui.online import InviteScreen

    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("i", *"Xq3abcdefgh", "enter")
            await pilot.pause()
            assert isinstance(app.screen, InviteScreen)
            assert "the table, a dot, the code" in text_of(app.screen, "#invite-error")  # type: ignore[arg-type]


async def test_unticked_boxes_are_empty_and_ticked_ones_show_a_tick(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            box = form.query_one("#max_two", Checkbox)
            assert "X" not in str(box.render()) and "✓" not in str(box.render())
            box.focus()
            await pilot.press("space")
            await pilot.pause()
            assert "✓" in str(box.render())


async def test_the_game_named_in_the_form_follows_the_options(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            preset = form.query_one("#preset", Select)
            assert preset.value == "scopa"
            form.query_one("#target", Select).value = 21
            await until(pilot, lambda: preset.value == "custom")
            assert "Your own game" in text_of(form, "#preset-explain")
            form.query_one("#target", Select).value = 11
            await until(pilot, lambda: preset.value == "scopa")
            form.query_one("#escoba", Checkbox).value = True  # with quindici and 21: Escoba (V7)
            form.query_one("#quindici", Checkbox).value = True
            form.query_one("#target", Select).value = 21
            await until(pilot, lambda: preset.value in ("escoba", "custom") and preset.value != "scopa")


async def test_the_bots_offered_are_the_levels_not_a_benchmark_baseline(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            offered = [v for _, v in form.query_one("#bots", Select)._options]
            assert offered == ["none", "easy", "medium", "hard"]


async def test_an_open_list_has_a_border_of_its_own(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            select = form.query_one("#players", Select)
            select.focus()
            await pilot.press("enter")
            await until(pilot, lambda: select.expanded)
            overlay = select.query_one("SelectOverlay")
            assert overlay.styles.border_top[0] not in ("", "none", "hidden")
            assert overlay.styles.border_left[0] not in ("", "none", "hidden")


async def test_a_table_from_the_lobby_waits_for_people_and_says_so_plainly(engine: NetworkEngine) -> None:
    """Two people can play each other with the form as it opens: the other seats wait for
    people (bots are one choice away), and its lines speak no jargon."""
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(100, 32)) as pilot:
            form = await open_form(app, pilot)
            assert form.query_one("#bots", Select).value == "none"
            assert "medium" in [v for _, v in form.query_one("#bots", Select)._options]
            said = " ".join(str(w.render()) for w in form.query(Static))
            for jargon in ("game master", "grace period", "unset:"):
                assert jargon not in said, jargon
            await pilot.press("ctrl+s")
            await until(pilot, lambda: app.session is not None and app.session.table_id is not None)
            assert app.session is not None and app.session.table_id is not None
            info = await listed(engine, app.session.table_id)
            assert info.seats[1:] == [None]  # the other seat waits for a person


def look(widget: Widget) -> tuple[object, ...]:
    """How a field looks: its own colours and style, and its row's."""
    row = widget.parent
    assert row is not None
    return (widget.styles.background, widget.styles.text_style, row.styles.background)


async def test_tab_goes_down_the_form_as_a_person_fills_it_and_the_focused_field_stands_out(
        engine: NetworkEngine) -> None:
    """The game first, then how many play, to how many points, the turn timer, the other
    seats …, the Create and Cancel buttons last; whatever has the focus looks different."""
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            await pilot.pause()
            order: list[str] = []
            for _ in range(40):
                focused = app.focused
                assert focused is not None and focused.id is not None
                if focused.id in order:
                    break
                order.append(focused.id)
                before = look(focused)
                await pilot.press("tab")
                await pilot.pause()
                assert look(focused) != before, focused.id  # it looked different while focused
            assert order[:7] == ["preset", "players", "target", "turn_timeout", "bots", "private", "bot_takeover"]
            assert order[-2:] == ["create", "cancel"]
            assert set(RuleSet.model_fields) <= set(order)
            assert isinstance(form, CreateTableScreen)


async def test_in_italian_every_choice_and_line_of_the_form_names_values_in_italian(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lists of the form show each value's Italian name ("no, semplice, tradizionale"),
    never its code ("off, simple, traditional"), and so do the lines under them."""
    from scopa.client.text import i18n

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            asso = [label for label, _ in form.query_one("#asso_piglia_tutto", Select)._options]
            assert asso == ["no", "semplice", "tradizionale"]
            lines = " ".join(text_of(form, f"#{name}-about") for name in RuleSet.model_fields)
            for code in ("traditional", "fewest", "free", "simple"):
                assert code not in lines


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_every_label_of_the_form_is_whole_at_80_columns(engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch,
                                                             lang: str) -> None:
    """A label longer than the others ("Se qualcuno se ne va") is not cut into the list beside it."""
    from rich.cells import cell_len
    from textual.widgets import Label

    from scopa.client.text import i18n

    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            form = await open_form(app, pilot)
            await pilot.pause()
            labels = {str(label.render()): label.size for label in form.query(".row Label").results(Label)}
            room = {str(label.render()): label.outer_size.width for label in form.query(".row Label").results(Label)}
    cut = {text: size for text, size in labels.items() if size.height != 1 or size.width < cell_len(text)}
    assert labels and cut == {}
    joined = [text for text, width in room.items() if width <= cell_len(text)]  # "Se qualcuno se ne vacontinua"
    assert joined == [], "no space between the label and its list"
