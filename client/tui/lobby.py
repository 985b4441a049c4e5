"""The lobby: the server's tables (kept up to date), join, watch, chat, and the form that
opens a table, each preset and option explained in a line."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Input, Label, RichLog, Select, Static

from scopa.bots import STRATEGIES
from scopa.engine import AssoPigliaTutto, CaptureMode, Preset, RuleSet, RuleSetError
from scopa.protocol import TableInfo, TableState
from scopa.protocol.convert import rules_from_wire

from ..rulebook import ASSO_TEXT, CAPTURE_MODE_NAMES, CAPTURE_MODE_TEXT, PRESET_TEXT
from .dialogs import Once, dialog_css


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
            dt.add_row(info.id, info.description or rules_from_wire(info.rules).describe(), seats_text(info),
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


BOOL_OPTIONS = ("refill_each_turn", "max_two", "ponino", "napola", "re_bello")


class CreateTableScreen(Once, ModalScreen[NewTable | None]):
    """A preset, the main choices and the optional extras, each with a line saying what it does."""

    DEFAULT_CSS = dialog_css("CreateTableScreen", "76") + """
    CreateTableScreen .dialog { height: 90%; }
    CreateTableScreen .explain { color: $text-muted; padding-left: 2; }
    CreateTableScreen Select { width: 1fr; }
    CreateTableScreen .row { height: auto; }
    CreateTableScreen .row Label { width: 18; }
    CreateTableScreen Button { margin-right: 2; }
    CreateTableScreen #form-error { color: $error; }
    """
    BINDINGS = [Binding("escape", "cancel", "back"), Binding("ctrl+s", "create", "create")]

    def __init__(self, defaults: RuleSet) -> None:
        super().__init__()
        self.defaults = defaults

    def compose(self) -> ComposeResult:
        d = self.defaults
        preset = d.preset.value if d.preset else Preset.SCOPA.value
        with VerticalScroll(classes="dialog"):
            yield Static("Open a table", classes="dialog-title")
            with Horizontal(classes="row"):  # first: on a small (touch) screen, without scrolling
                yield Button("Create", variant="primary", compact=True, id="create")
                yield Button("Cancel", compact=True, id="cancel")
            yield Static("", id="form-error")
            with Horizontal(classes="row"):
                yield Label("Game")
                yield Select([(p.value, p.value) for p in Preset], value=preset, allow_blank=False, compact=True, id="preset")
            yield Static(PRESET_TEXT[Preset(preset)], classes="explain", id="preset-explain")
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Select([(str(n), n) for n in (2, 3, 4, 6)], value=d.players, allow_blank=False, compact=True, id="players")
            with Horizontal(classes="row"):
                yield Label("Play to")
                yield Select([(str(n), n) for n in (11, 16, 21, 31, 51)], value=d.target, allow_blank=False, compact=True,
                             id="target")
            with Horizontal(classes="row"):
                yield Label("Capture rule")
                yield Select([(CAPTURE_MODE_NAMES[m], m.value) for m in CaptureMode], value=d.capture_mode.value,
                             allow_blank=False, compact=True, id="capture_mode")
            yield Static(CAPTURE_MODE_TEXT[d.capture_mode], classes="explain", id="capture-explain")
            with Horizontal(classes="row"):
                yield Label("Asso piglia tutto")
                yield Select([(m.value, m.value) for m in AssoPigliaTutto], value=d.asso_piglia_tutto.value,
                             allow_blank=False, compact=True, id="asso_piglia_tutto")
            yield Static(ASSO_TEXT[d.asso_piglia_tutto], classes="explain", id="asso-explain")
            for name in BOOL_OPTIONS:
                yield Checkbox(name.replace("_", " "), value=getattr(d, name), compact=True, id=name)
                yield Static(RuleSet.model_fields[name].description or "", classes="explain")
            with Horizontal(classes="row"):
                yield Label("Other seats")
                yield Select([("wait for people", "none")] + [(f"{s} bots", s) for s in STRATEGIES],
                             value="greedy", allow_blank=False, compact=True, id="bots")
            yield Static("Tab: next field · Enter: open a list or press a button · Space: tick · "
                         "Ctrl+S: create · Esc: cancel", classes="dialog-hint")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and isinstance(event.value, str):
            p = Preset(event.value)
            self.query_one("#preset-explain", Static).update(PRESET_TEXT[p])
            base = RuleSet.build(p)
            self.query_one("#players", Select).value = base.players
            self.query_one("#target", Select).value = base.target
            self.query_one("#capture_mode", Select).value = base.capture_mode.value
        elif event.select.id == "capture_mode" and isinstance(event.value, str):
            self.query_one("#capture-explain", Static).update(CAPTURE_MODE_TEXT[CaptureMode(event.value)])
        elif event.select.id == "asso_piglia_tutto" and isinstance(event.value, str):
            self.query_one("#asso-explain", Static).update(ASSO_TEXT[AssoPigliaTutto(event.value)])

    def rules(self) -> RuleSet:
        """The form's rules (RuleSetError if they make no sense)."""
        preset = str(self.query_one("#preset", Select).value)
        options: dict[str, object] = {
            "players": self.query_one("#players", Select).value,
            "target": self.query_one("#target", Select).value,
            "capture_mode": self.query_one("#capture_mode", Select).value,
            "asso_piglia_tutto": self.query_one("#asso_piglia_tutto", Select).value,
        }
        for name in BOOL_OPTIONS:
            options[name] = self.query_one(f"#{name}", Checkbox).value
        base = RuleSet.build(preset)
        options = {k: v for k, v in options.items() if getattr(base, k) != v and not
                   (hasattr(getattr(base, k), "value") and getattr(base, k).value == v)}
        return RuleSet.build(preset, **options)

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        try:
            rules = self.rules()
        except RuleSetError as exc:
            self.query_one("#form-error", Static).update(f"Those rules do not work: {exc}")
            return
        bots = str(self.query_one("#bots", Select).value)
        self.close(NewTable(rules, [] if bots == "none" else [bots] * (rules.players - 1)))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.close(None)

