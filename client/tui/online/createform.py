"""The form that opens a table: every table option of the rules model, each explained
in a line (a preset fills them all in, and the game's name follows what they make), the
bots for the empty seats, and the table's own settings: private with an invite code,
the turn timer, what becomes of a seat left empty."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import takewhile
from enum import StrEnum
from typing import Literal, get_args, get_origin

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Label, Select, Static

from scopa.bots import LEVELS
from scopa.engine import AssoPigliaTutto, CaptureMode, Preset, RuleSet, RuleSetError

from ...text import ASSO_TEXT, CAPTURE_MODE_NAMES, CAPTURE_MODE_TEXT, current_language, PRESET_TEXT, rulebook_it, tr
from ...text import catalog_value, level_text, rules_problem_text
from ..keywords import key_word
from ...game import seconds_text
from ..dialogs import Once, dialog_css
from ...text import PRESET_NAMES, matching_preset
from ...text import NO_TIMER, SERVER_TIMER, timer_choices


@dataclass(frozen=True)
class NewTable:
    """What the create-table form asks the server for."""

    rules: RuleSet
    bots: list[str]
    private: bool = False
    turn_timeout: float | None = None  # None: the server's own
    no_turn_timer: bool = False
    bot_takeover: bool = True


def option_labels() -> dict[str, str]:
    """The options' names in the form, in the language spoken now."""
    return {
        "preset": tr("Game"),
        "target": tr("Play to"),
        "capture_mode": tr("Capture rule"),
        "refill_each_turn": tr("Refill each turn"),
        "max_two": tr("At most two"),
        "re_bello": tr("Re bello"),
        "players": tr("Players"),
        "teams": tr("Teams"),
        "hand_size": tr("Hand size"),
        "table_cards": tr("Table cards"),
        "ponino": tr("Ponino"),
        "napola": tr("Napola"),
        "quindici": tr("Quindici"),
        "escoba": tr("Escoba"),
        "trentino": tr("Trentino"),
        "asso_piglia_tutto": tr("Asso piglia tutto"),
        "frac": tr("Frac"),
        "cirulla": tr("Cirulla"),
    }


TEAMS_CHOICES: dict[str, bool | None] = {"auto": None, "yes": True, "no": False}


def teams_names() -> dict[str, str]:
    """The teams' choices in the form, in the language spoken now."""
    return {"auto": tr("teams with 4 or 6 players"), "yes": tr("two teams"), "no": tr("each alone")}


CUSTOM = "custom"
FIRST_OPTIONS = ("preset", "players", "target")
"""The options a person sets first, at the top of the form: the game, how many play, to
how many points (the others below the table's own settings)."""

def bot_choices() -> list[tuple[str, str]]:
    """The bots offered to people: the levels (a benchmark's baselines are not among
    them), in the language spoken now."""
    return [(tr("wait for people"), "none")] + [(tr("{level} bots", level=level_text(level)), level)
                                                for level in LEVELS]


def _capture_text(mode: CaptureMode) -> str:
    return (rulebook_it.CAPTURE_MODE_TEXT if current_language() == "it" else CAPTURE_MODE_TEXT)[mode]


def _asso_text(mode: AssoPigliaTutto) -> str:
    return (rulebook_it.ASSO_TEXT if current_language() == "it" else ASSO_TEXT)[mode]


def option_label(name: str) -> str:
    return option_labels().get(name, name.replace("_", " ").capitalize())


def option_choices(name: str) -> list[tuple[str, object]]:
    """The values a list offers for the option ``name`` (from the rules model's own type)."""
    field = RuleSet.model_fields[name]
    if name == "preset":
        return [*((PRESET_NAMES[p], p.value) for p in Preset), (tr("Custom: the options below"), CUSTOM)]
    if name == "teams":
        return [(teams_names()[k], k) for k in TEAMS_CHOICES]
    if name == "capture_mode":
        return [(tr(CAPTURE_MODE_NAMES[m]), m.value) for m in CaptureMode]
    annotation = field.annotation
    if isinstance(annotation, type) and issubclass(annotation, StrEnum):
        return [(catalog_value(m.value), m.value) for m in annotation]  # a value's name in the person's language
    if get_origin(annotation) is Literal:
        return [(str(v), v) for v in get_args(annotation)]
    low = next(int(m.ge) for m in field.metadata if hasattr(m, "ge"))  # the field's own bounds
    high = next(int(m.le) for m in field.metadata if hasattr(m, "le"))
    return [(str(n), n) for n in range(low, high + 1)]


def option_text(name: str, description: str) -> str:
    """The line under an option: its description in the rules model (in Italian, the
    rulebook's), in plain words where the model's are terse."""
    if name == "teams":
        return tr("whether partners play together as a team, sitting opposite each other")
    return rulebook_it.OPTION_TEXT[name] if current_language() == "it" else description


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


class Tick(Checkbox):
    """A checkbox that shows ✓ when ticked and an empty box when not."""

    @property
    def _button(self) -> Content:
        button_style = self.get_visual_style("toggle--button")
        side_style = self.get_visual_style("toggle--button")
        return Content.assemble(("[", side_style), ("✓" if self.value else " ", button_style), ("]", side_style))


class CreateTableScreen(Once, ModalScreen[NewTable | None]):
    """Every table option, each with its line from the rules model saying what it does; a
    preset fills them all in."""

    DEFAULT_CSS = dialog_css("CreateTableScreen", "76") + """
    CreateTableScreen .dialog { height: 90%; }
    CreateTableScreen #form-fields { height: 1fr; scrollbar-size-vertical: 1; }
    CreateTableScreen #form-fields > * { padding-right: 1; }  /* a column between the text and the scroll bar */
    CreateTableScreen .explain { color: $text-muted; padding-left: 2; }
    CreateTableScreen Select { width: 1fr; }
    CreateTableScreen Select > SelectOverlay.-textual-compact { border: round $accent !important; background: $panel; }
    CreateTableScreen .row { height: auto; }
    CreateTableScreen .row Label { width: auto; min-width: 18; padding-right: 1; }  /* a longer label (Italian) whole, a space before its field */
    CreateTableScreen Button { margin-right: 2; }
    CreateTableScreen #form-error { color: $error; height: auto; }
    CreateTableScreen #form-buttons { margin-top: 1; }
    CreateTableScreen .more { text-style: bold; margin-top: 1; }
    CreateTableScreen .row:focus-within { background: $accent 30%; }
    CreateTableScreen .row:focus-within Label { color: $text; text-style: bold; }
    CreateTableScreen Tick:focus { background: $accent 30%; text-style: bold; }
    CreateTableScreen Button:focus { text-style: bold reverse; background: $accent; }
    """
    BINDINGS = [Binding("escape", "cancel", key_word("back")), Binding("ctrl+s", "create", key_word("create"))]

    def __init__(self, defaults: RuleSet, server_timer: float | None = None, last: NewTable | None = None,
                 problem: str = "", reading: float | None = None) -> None:
        """``server_timer``: the server's turn clock (the longest a table may have);
        ``last``: the table asked for last, shown again with the server's ``problem``
        with it (a refusal keeps every setting); ``reading``: the seconds more each
        player's first move of a round gets (the server's ``welcome``; None: not told)."""
        super().__init__()
        self.defaults = last.rules if last is not None else defaults
        self.base = self.defaults.preset  # the classic game the options start from (kept when they change it)
        self.server_timer, self.reading = server_timer, reading
        self.last = last
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(tr("Open a table"), classes="dialog-title")
            yield Static(Text(self.problem), id="form-error")
            with VerticalScroll(id="form-fields", can_focus=False):  # top to bottom as a person fills it in
                for name in FIRST_OPTIONS:  # the game, how many play, to how many points
                    yield from self._option(name)
                yield from self._table_settings()  # then the clock, the other seats, who may come
                yield Static(tr("More options of the game"), classes="more")
                for name in RuleSet.model_fields:
                    if name not in FIRST_OPTIONS:
                        yield from self._option(name)
            with Horizontal(classes="row", id="form-buttons"):  # last, and always in sight below the fields
                yield Button(tr("Create"), variant="primary", compact=True, id="create")
                yield Button(tr("Cancel"), compact=True, id="cancel")
            yield Static(tr("Tab: next field · Enter: open a list or press a button · Space: tick · "
                            "Ctrl+S: create · Esc: cancel"), classes="dialog-hint")

    def _option(self, name: str) -> ComposeResult:
        """One option of the game: its field, the line saying what it does, and for a
        list whose choices need it the line saying what the choice means."""
        d = self.defaults
        if is_flag(name):
            yield Tick(option_label(name), value=getattr(d, name), compact=True, id=name)
        else:
            yield from self._list(name, option_choices(name), form_value(d, name))
        yield Static(option_text(name, RuleSet.model_fields[name].description or ""), classes="explain",
                     id=f"{name}-about")
        if name == "preset":
            yield Static(self._preset_text(form_value(d, name)), classes="explain", id="preset-explain")
        elif name == "capture_mode":
            yield Static(_capture_text(d.capture_mode), classes="explain", id="capture-explain")
        elif name == "asso_piglia_tutto":
            yield Static(_asso_text(d.asso_piglia_tutto), classes="explain", id="asso-explain")

    def _list(self, field_id: str, choices: Sequence[tuple[str, object]], value: object,
              label: str | None = None) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Label(label or option_label(field_id))
            yield Select(choices, value=value, allow_blank=False, compact=True, id=field_id)

    def _table_settings(self) -> ComposeResult:
        """Settings of the table rather than of the game (those of the table asked for
        last, when the server refused it)."""
        last = self.last
        # people first: a table made from the lobby waits for people unless bots are chosen
        bots = (last.bots[0] if last.bots else "none") if last is not None else "none"
        timers = timer_choices(self.server_timer)
        timer: str | float = SERVER_TIMER
        if last is not None and last.no_turn_timer:
            timer = NO_TIMER
        elif last is not None and any(value == last.turn_timeout for _, value in timers):
            timer = last.turn_timeout or SERVER_TIMER
        yield from self._list("turn_timeout", list(timers), timer, tr("Turn timer"))
        yield Static(tr("time for each move ({time} more for each player's first move of a round); when it runs "
                        "out, the server plays a card for that player", time=seconds_text(round(self.reading))) if self.reading else
                     tr("time for each move; when it runs out, the server plays a card for that player"),
                     classes="explain")
        yield from self._list("bots", bot_choices(), bots, tr("Other seats"))
        yield Tick(tr("Private"), value=last is not None and last.private, compact=True, id="private")
        yield Static(tr("not listed in the lobby: you get an invite to pass on to the people you want "
                        "(they run scopa play --invite with it, or press i in the lobby and paste it)"),
                     classes="explain")
        yield from self._list("bot_takeover", [(tr("a bot plays on"), True), (tr("the game ends"), False)],
                              last.bot_takeover if last is not None else True, tr("If a player leaves"))
        yield Static(tr("when a player leaves the game, or loses the connection and is not back in time"),
                     classes="explain")

    @staticmethod
    def _preset_text(value: object) -> str:
        if value == CUSTOM:
            return tr("Your own game: set each option below.")
        return (rulebook_it.PRESET_TEXT if current_language() == "it" else PRESET_TEXT)[Preset(str(value))]

    def fill(self, rules: RuleSet) -> None:
        """Show ``rules`` in every field (a preset chosen): no field says it changed."""
        with self.prevent(Select.Changed, Checkbox.Changed):
            for name in RuleSet.model_fields:
                if name == "preset":
                    continue
                value = form_value(rules, name)
                if is_flag(name):
                    self.query_one(f"#{name}", Checkbox).value = bool(value)
                else:
                    self.query_one(f"#{name}", Select).value = value
                    self._explain(name, value)

    def _explain(self, name: str | None, value: object) -> None:
        """The line under a list that says what its choice means."""
        if not isinstance(value, str):
            return
        if name == "preset":
            self.query_one("#preset-explain", Static).update(self._preset_text(value))
        elif name == "capture_mode":
            self.query_one("#capture-explain", Static).update(_capture_text(CaptureMode(value)))
        elif name == "asso_piglia_tutto":
            self.query_one("#asso-explain", Static).update(_asso_text(AssoPigliaTutto(value)))

    def on_select_changed(self, event: Select.Changed) -> None:
        name, value = event.select.id, event.value
        self._explain(name, value)
        if name == "preset" and isinstance(value, str) and value != CUSTOM:
            self.base = Preset(value)
            if matching_preset(self._current_or_defaults()) is not Preset(value):
                self.fill(RuleSet.build(value))
        self.call_after_refresh(self._check)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.call_after_refresh(self._check)

    def _current_or_defaults(self) -> RuleSet:
        try:
            return self.rules()
        except RuleSetError:
            return self.defaults

    def _check(self) -> None:
        """Say at once when the options do not go together (and clear it when they do);
        name the game the options make (a classic one, or custom)."""
        try:
            rules = self.rules()
        except RuleSetError as exc:
            self._problem(exc)
            game: object = CUSTOM
        else:
            self.query_one("#form-error", Static).update(Text(self.problem))  # the server's reason, if it refused
            game = form_value(rules, "preset")
        preset = self.query_one("#preset", Select)
        if preset.value != game:
            with self.prevent(Select.Changed):
                preset.value = game
            self._explain("preset", game)

    def _problem(self, exc: RuleSetError) -> None:
        reason = rules_problem_text(str(exc))
        self.query_one("#form-error", Static).update(Text(tr("Those rules do not work: {reason}", reason=reason)))

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
        return RuleSet.build(self.base if preset == CUSTOM else preset, **self.options())

    def table(self) -> NewTable:
        """The form's table (RuleSetError if its rules make no sense; ValueError if its
        settings do not go together)."""
        rules = self.rules()
        bots = str(self.query_one("#bots", Select).value)
        private = self.query_one("#private", Checkbox).value
        timer = self.query_one("#turn_timeout", Select).value
        if timer == NO_TIMER and not private:
            raise ValueError(tr("only a private table may play without a turn timer"))
        return NewTable(rules, [] if bots == "none" else [bots] * (rules.players - 1), private=private,
                        turn_timeout=timer if isinstance(timer, float) else None, no_turn_timer=timer == NO_TIMER,
                        bot_takeover=bool(self.query_one("#bot_takeover", Select).value))

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        try:
            table = self.table()
        except RuleSetError as exc:
            self._problem(exc)
            return
        except ValueError as exc:
            self.query_one("#form-error", Static).update(Text(str(exc)))
            return
        self.close(table)

    @on(Button.Pressed, "#cancel")
    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """A field that takes the focus comes into sight with the lines explaining it under
        it (Tab alone scrolls only as far as the field itself)."""
        super().set_focus(widget, scroll_visible, from_app_focus)
        fields = self.query("#form-fields").first(VerticalScroll) if self.query("#form-fields") else None
        field = widget if isinstance(widget, Checkbox) else widget.parent if widget is not None else None
        if fields is None or not isinstance(field, Widget) or field.parent is not fields or not scroll_visible:
            return
        after = list(fields.children)[list(fields.children).index(field) + 1:]
        explains = list(takewhile(lambda w: w.has_class("explain"), after))
        if explains:
            self.call_after_refresh(self._show_explained, field, explains[-1])

    def _show_explained(self, field: Widget, explain: Widget) -> None:
        fields = self.query_one("#form-fields", VerticalScroll)
        fields.scroll_to_widget(explain, animate=False, immediate=True)
        fields.scroll_to_widget(field, animate=False, immediate=True)  # a field taller than the room: itself first

    def action_cancel(self) -> None:
        self.close(None)
