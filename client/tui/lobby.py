"""The lobby: the server's tables (kept up to date), join, watch, chat, and the form that
opens a table, each preset and option explained in a line."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, get_args, get_origin

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Input, Label, RichLog, Select, Static

from scopa.bots import STRATEGIES
from scopa.engine import AssoPigliaTutto, CaptureMode, Preset, RuleSet, RuleSetError
from scopa.protocol import TableInfo, TableState
from scopa.protocol.convert import rules_from_wire

from ..rulebook import ASSO_TEXT, CAPTURE_MODE_NAMES, CAPTURE_MODE_TEXT, PRESET_TEXT
from .dialogs import Once, dialog_css
from .text import PRESET_NAMES, matching_preset, rules_line


def seats_text(info: TableInfo) -> Text:
    parts = []
    for i, name in enumerate(info.seats):
        if name is None:
            parts.append(Text("free", style="green"))
        elif i in info.away:
            parts.append(Text(f"{name} (away)", style="yellow"))
        else:
            parts.append(Text(name))
    return Text(", ").join(parts)


class LobbyScreen(Screen[None]):
    """Tables, chat and the lobby's keys; the app does the talking to the server."""

    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    #lobby-top { height: 1; background: $primary-background; padding: 0 1; }
    #tables { height: 1fr; min-height: 5; }
    #chat { height: 6; border-top: solid $primary; }
    #say { height: 3; }
    #lobby-status { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS = [
        Binding("c", "create", "create"),
        Binding("j", "join", "join"),
        Binding("w", "watch", "watch"),
        Binding("r", "refresh", "refresh"),
        Binding("t", "talk", "chat"),
    ]

    class Action(Message):
        """The person asked for something: create, join ID, watch ID, refresh, say TEXT."""

        def __init__(self, kind: str, arg: str = "") -> None:
            super().__init__()
            self.kind, self.arg = kind, arg

    def __init__(self, who: str) -> None:
        super().__init__()
        self.who = who
        self.tables: dict[str, TableInfo] = {}
        self._question: asyncio.Future[bool] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(("Scopa lobby", "bold"), f" · {self.who}"), id="lobby-top")
        table: DataTable[object] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        table.add_columns("table", "rules", "seats", "state", "watching")
        yield table
        yield RichLog(id="chat", markup=False, wrap=True)
        yield Input(placeholder="t: say something to the lobby", id="say")
        yield Static("", id="lobby-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tables", DataTable).focus()
        self.say("c: create a table · Enter or j: join the selected table · w: watch it · ?: rules")

    def ask(self, question: Text, answer: asyncio.Future[bool]) -> None:
        """A yes/no question on the status line; y or n answers it."""
        self._question = answer
        self.say(question)

    def on_key(self, event: events.Key) -> None:
        question = self._question
        if question is None or question.done() or event.key not in ("y", "n"):
            return
        event.stop()
        self._question = None
        question.set_result(event.key == "y")
        self.say("")

    def say(self, text: str | Text) -> None:
        self.query_one("#lobby-status", Static).update(text)

    def chat(self, author: str, text: str) -> None:
        self.query_one("#chat", RichLog).write(Text.assemble((author, "bold"), ": ", text))

    def show_tables(self, tables: Sequence[TableInfo]) -> None:
        self.tables = {t.id: t for t in tables if t.state is not TableState.FINISHED}
        self._redraw()

    def update_table(self, info: TableInfo) -> None:
        """One table changed (a pushed table_update)."""
        if info.state is TableState.FINISHED:
            self.tables.pop(info.id, None)
        else:
            self.tables[info.id] = info
        self._redraw()

    def _redraw(self) -> None:
        dt = self.query_one("#tables", DataTable)
        keep = self.selected_id()
        dt.clear()
        for info in self.tables.values():
            style = {TableState.WAITING: "green", TableState.PLAYING: "yellow"}.get(info.state, "dim")
            dt.add_row(info.id, rules_line(rules_from_wire(info.rules)), seats_text(info),
                       Text(info.state.value, style=style), str(info.spectators), key=info.id)
        if not self.tables:
            self.say("No tables yet: press c to create one.")
        if keep in self.tables:
            dt.move_cursor(row=list(self.tables).index(keep))

    def selected_id(self) -> str | None:
        dt = self.query_one("#tables", DataTable)
        if not self.tables or dt.row_count == 0:
            return None
        try:
            key = dt.coordinate_to_cell_key(dt.cursor_coordinate).row_key
        except Exception:  # noqa: BLE001 - no row under the cursor
            return None
        return str(key.value) if key.value is not None else None

    def selected_rules(self) -> RuleSet | None:
        table_id = self.selected_id()
        return self.tables[table_id].rules if table_id in self.tables else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.post_message(self.Action("join", str(event.row_key.value)))

    def action_create(self) -> None:
        self.post_message(self.Action("create"))

    def action_join(self) -> None:
        table_id = self.selected_id()
        if table_id is None:
            self.say("No table selected: c creates one.")
            return
        self.post_message(self.Action("join", table_id))

    def action_watch(self) -> None:
        table_id = self.selected_id()
        if table_id is not None:
            self.post_message(self.Action("watch", table_id))

    def action_refresh(self) -> None:
        self.post_message(self.Action("refresh"))

    def action_talk(self) -> None:
        self.query_one("#say", Input).focus()

    @on(Input.Submitted, "#say")
    def _said(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.query_one("#tables", DataTable).focus()
        if text:
            self.post_message(self.Action("say", text))


@dataclass(frozen=True)
class NewTable:
    """What the create-table form asks the server for."""

    rules: RuleSet
    bots: list[str]


LABELS: dict[str, str] = {
    "preset": "Game",
    "target": "Play to",
    "capture_mode": "Capture rule",
    "refill_each_turn": "Refill each turn",
    "max_two": "At most two",
    "re_bello": "Re bello",
}
TEAMS_CHOICES: dict[str, bool | None] = {"auto": None, "yes": True, "no": False}
TEAMS_NAMES = {"auto": "teams with 4 or 6 players", "yes": "two teams", "no": "each alone"}
CUSTOM = "custom"


def option_label(name: str) -> str:
    return LABELS.get(name, name.replace("_", " ").capitalize())


def option_choices(name: str) -> list[tuple[str, object]]:
    """The values a list offers for the option ``name`` (from the rules model's own type)."""
    field = RuleSet.model_fields[name]
    if name == "preset":
        return [(PRESET_NAMES[p], p.value) for p in Preset] + [("Custom: the options below", CUSTOM)]
    if name == "teams":
        return [(TEAMS_NAMES[k], k) for k in TEAMS_CHOICES]
    if name == "capture_mode":
        return [(CAPTURE_MODE_NAMES[m], m.value) for m in CaptureMode]
    annotation = field.annotation
    if isinstance(annotation, type) and issubclass(annotation, StrEnum):
        return [(m.value, m.value) for m in annotation]
    if get_origin(annotation) is Literal:
        return [(str(v), v) for v in get_args(annotation)]
    low = next(int(m.ge) for m in field.metadata if hasattr(m, "ge"))  # the field's own bounds
    high = next(int(m.le) for m in field.metadata if hasattr(m, "le"))
    return [(str(n), n) for n in range(low, high + 1)]


def is_flag(name: str) -> bool:
    return RuleSet.model_fields[name].annotation is bool


def form_value(rules: RuleSet, name: str) -> object:
    """What the form shows for one option of ``rules``."""
    value = getattr(rules, name)
    if name == "teams":
        return next(k for k, v in TEAMS_CHOICES.items() if v is value)
    if name == "preset":
        preset = matching_preset(rules)
        return preset.value if preset is not None else CUSTOM
    return value.value if isinstance(value, StrEnum) else value


class CreateTableScreen(Once, ModalScreen[NewTable | None]):
    """Every table option, each with its line from the rules model saying what it does; a
    preset fills them all in."""

    DEFAULT_CSS = dialog_css("CreateTableScreen", "76") + """
    CreateTableScreen .dialog { height: 90%; }
    CreateTableScreen #form-fields { height: 1fr; }
    CreateTableScreen .explain { color: $text-muted; padding-left: 2; }
    CreateTableScreen Select { width: 1fr; }
    CreateTableScreen .row { height: auto; }
    CreateTableScreen .row Label { width: 18; }
    CreateTableScreen Button { margin-right: 2; }
    CreateTableScreen #form-error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "back"), Binding("ctrl+s", "create", "create")]

    def __init__(self, defaults: RuleSet) -> None:
        super().__init__()
        self.defaults = defaults
        self._filling = False

    def compose(self) -> ComposeResult:
        d = self.defaults
        with Vertical(classes="dialog"):
            yield Static("Open a table", classes="dialog-title")
            with Horizontal(classes="row"):  # first: on a small (touch) screen, without scrolling
                yield Button("Create", variant="primary", compact=True, id="create")
                yield Button("Cancel", compact=True, id="cancel")
            yield Static("", id="form-error")
            with VerticalScroll(id="form-fields", can_focus=False):
                for name, field in RuleSet.model_fields.items():
                    if is_flag(name):
                        yield Checkbox(option_label(name), value=getattr(d, name), compact=True, id=name)
                    else:
                        with Horizontal(classes="row"):
                            yield Label(option_label(name))
                            yield Select(option_choices(name), value=form_value(d, name), allow_blank=False,
                                         compact=True, id=name)
                    yield Static(field.description or "", classes="explain", id=f"{name}-about")
                    if name == "preset":
                        yield Static(self._preset_text(form_value(d, name)), classes="explain", id="preset-explain")
                    elif name == "capture_mode":
                        yield Static(CAPTURE_MODE_TEXT[d.capture_mode], classes="explain", id="capture-explain")
                    elif name == "asso_piglia_tutto":
                        yield Static(ASSO_TEXT[d.asso_piglia_tutto], classes="explain", id="asso-explain")
                with Horizontal(classes="row"):
                    yield Label("Other seats")
                    yield Select([("wait for people", "none")] + [(f"{s} bots", s) for s in STRATEGIES],
                                 value="greedy", allow_blank=False, compact=True, id="bots")
            yield Static("Tab: next field · Enter: open a list or press a button · Space: tick · "
                         "Ctrl+S: create · Esc: cancel", classes="dialog-hint")

    @staticmethod
    def _preset_text(value: object) -> str:
        if value == CUSTOM:
            return "Your own game: set each option below."
        return PRESET_TEXT[Preset(str(value))]

    def fill(self, rules: RuleSet) -> None:
        """Show ``rules`` in every field (a preset chosen)."""
        self._filling = True
        try:
            for name in RuleSet.model_fields:
                if name == "preset":
                    continue
                value = form_value(rules, name)
                if is_flag(name):
                    self.query_one(f"#{name}", Checkbox).value = bool(value)
                else:
                    self.query_one(f"#{name}", Select).value = value
        finally:
            self._filling = False

    def on_select_changed(self, event: Select.Changed) -> None:
        name, value = event.select.id, event.value
        if name == "preset" and isinstance(value, str):
            self.query_one("#preset-explain", Static).update(self._preset_text(value))
            if value != CUSTOM and matching_preset(self._current_or_defaults()) is not Preset(value):
                self.fill(RuleSet.build(value))
        elif name == "capture_mode" and isinstance(value, str):
            self.query_one("#capture-explain", Static).update(CAPTURE_MODE_TEXT[CaptureMode(value)])
        elif name == "asso_piglia_tutto" and isinstance(value, str):
            self.query_one("#asso-explain", Static).update(ASSO_TEXT[AssoPigliaTutto(value)])
        self.call_after_refresh(self._check)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.call_after_refresh(self._check)

    def _current_or_defaults(self) -> RuleSet:
        try:
            return self.rules()
        except RuleSetError:
            return self.defaults

    def _check(self) -> None:
        """Say at once when the options do not go together (and clear it when they do)."""
        try:
            self.rules()
        except RuleSetError as exc:
            self._problem(exc)
        else:
            self.query_one("#form-error", Static).update("")

    def _problem(self, exc: RuleSetError) -> None:
        self.query_one("#form-error", Static).update(Text(f"Those rules do not work: {exc}"))

    def options(self) -> dict[str, object]:
        """Every option as the form shows it."""
        out: dict[str, object] = {}
        for name in RuleSet.model_fields:
            if name == "preset":
                continue
            if is_flag(name):
                out[name] = self.query_one(f"#{name}", Checkbox).value
            else:
                value = self.query_one(f"#{name}", Select).value
                out[name] = TEAMS_CHOICES[str(value)] if name == "teams" else value
        return out

    def rules(self) -> RuleSet:
        """The form's rules (RuleSetError if they make no sense)."""
        preset = str(self.query_one("#preset", Select).value)
        return RuleSet.build(None if preset == CUSTOM else preset, **self.options())

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        try:
            rules = self.rules()
        except RuleSetError as exc:
            self._problem(exc)
            return
        bots = str(self.query_one("#bots", Select).value)
        self.close(NewTable(rules, [] if bots == "none" else [bots] * (rules.players - 1)))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.close(None)
