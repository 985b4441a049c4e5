"""The lobby: the server's tables (kept up to date), join (a private table with its
invite code), watch, chat; ``c`` opens the create-table form (createform.py); a quick
game waited for (``p``), and the way out of the wait (Esc, or ``p`` again)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, RichLog, Static
from textual.widgets._footer import FooterKey

from scopa.engine import Preset, RuleSet
from scopa.protocol import Joined, TableInfo, TableState
from scopa.protocol.convert import rules_from_wire

from ...net import ClientSession
from ...text import parse_invite, tr, word_text
from .createform import CreateTableScreen, NewTable
from ..board import BoardScreen
from ..dialogs import Once, dialog_css
from ..columns import Cell, TableList, cursor_table, fill_list, ordered, unknown_key
from ..keys import TypedBox, catch_up
from ..keywords import key_word
from ...text import rules_line, rules_name, seated_name
from ...game import seconds_text

__all__ = ["CreateTableScreen", "InviteScreen", "LobbyScreen", "NewTable", "seats_text"]


def keys_hint() -> str:
    """The lobby's keys, as its status line says them when there is nothing else to say."""
    return tr("p: play now · c: create a table · Enter or j: join the selected table · w: watch it · ?: rules")


def short_rules(info: TableInfo) -> tuple[Text, ...]:
    """The table's game as the list's narrow column says it: whole ("Scopa, 2 giocatori,
    a 11 · ⏱ 1:00"), then its name and target with the clock ("Scopa a 11 · ⏱ 1:00"),
    then its name and target alone."""
    rules = rules_from_wire(info.rules)
    clock = " · ⏱ " + seconds_text(round(info.turn_timeout)) if info.turn_timeout else ""  # the table's turn clock
    short = tr("{game} to {target}", game=rules_name(rules), target=rules.target)
    return Text(rules_line(rules) + clock), Text(short + clock), Text(short)


def short_seats(info: TableInfo) -> tuple[Text, ...]:
    """Who sits at the table, whole, then the seats taken by name and the free ones
    counted ("ada, cleo, 2 free")."""
    parts = _seat_parts(info)
    free = sum(name is None for name in info.seats)
    if free < 2:
        return (Text(", ").join(parts),)
    taken = [part for part, name in zip(parts, info.seats) if name is not None]
    return Text(", ").join(parts), Text(", ").join([*taken, Text(tr("{n} free", n=free), style="green")])


def seats_text(info: TableInfo) -> Text:
    """Who sits at the table: a free seat, a person away, a bot ("Bot 1 (medium)", or
    "nipote (bot)" for a person's seat a bot plays on)."""
    return Text(", ").join(_seat_parts(info))


def _seat_parts(info: TableInfo) -> list[Text]:
    parts = []
    for i, name in enumerate(info.seats):
        if name is None:
            parts.append(Text(tr("free"), style="green"))
        elif i in info.away:
            parts.append(Text(tr("{name} (away)", name=name), style="yellow"))
        else:
            parts.append(Text(seated_name(name, i in info.bots)))  # a server's bot as the browser names it
    return parts


def _told(said: str | Text, empty: str | None) -> str | Text | None:
    """The status line ``said`` without what it says of an empty (or finished) list
    (``empty``): what was told."""
    if not said or said == keys_hint() or said == empty:
        return None
    if empty is not None and str(said).endswith("\n" + empty):
        return said[:len(said) - len(empty) - 1] or None
    return said


class LobbyFooter(Footer):
    """The lobby's key line: in a narrow window on two rows (three or more when even
    that is too wide), so that every key (``? help`` and ``q leave`` too) stays in sight."""

    NARROW = 76  # below this width the whole key line does not fit on one row
    DEFAULT_CSS = """
    LobbyFooter.rows { layout: grid; grid-columns: auto; grid-rows: 1; grid-gutter: 0 1; }
    LobbyFooter.rows FooterKey { margin-right: 0; }
    """

    def compose(self) -> ComposeResult:
        keys = list(super().compose())
        width = self.app.size.width
        rows = 1
        if width < self.NARROW:
            shown = [cell_len(f"{key.key_display} {key.description}") if isinstance(key, FooterKey) else 0
                     for key in keys]
            rows = next((n for n in range(2, len(keys) + 1) if _grid_width(shown, n) <= width), max(1, len(keys)))
        self.set_class(rows > 1, "rows")
        self.styles.height = rows
        if rows > 1:
            self.styles.grid_size_columns = -(-len(keys) // rows)
        yield from keys


def _grid_width(widths: list[int], rows: int) -> int:
    """How wide ``widths`` (the keys, in order) are on ``rows`` rows, a column apart."""
    columns = -(-len(widths) // rows)
    return sum(max(widths[c::columns]) for c in range(columns)) + columns - 1


class LobbyScreen(Screen[None]):
    """Tables, chat and the lobby's keys; the app does the talking to the server."""

    DEFAULT_CSS = """
    LobbyScreen { layout: vertical; }
    #lobby-top { height: 1; background: $primary-background; padding: 0 1; }
    #lobby-narrow { height: auto; padding: 0 1; color: $text-muted; display: none; }
    #tables { height: 1fr; min-height: 5; scrollbar-size-vertical: 1; }
    #chat { height: 6; border-top: solid $primary; }
    #say { height: 3; }
    #lobby-status { height: auto; padding: 0 1; background: $boost; }
    """

    BINDINGS = [
        Binding("p", "play_now", key_word("play now")),
        Binding("c", "create", key_word("create")),
        Binding("j", "join", key_word("join")),
        Binding("i", "invited", key_word("invite")),  # every key's word fits on one line at 100 columns
        Binding("w", "watch", key_word("watch")),
        Binding("o", "play_now('tournaments')", key_word("tournaments")),
        Binding("r", "play_now('refresh')", key_word("refresh"), show=False),  # the list follows the server by itself
        Binding("t", "talk", key_word("chat"), show=False),  # the chat line says "t: …" itself
        Binding("escape", "play_now('stop_quick')", key_word("stop waiting"), show=False),  # a quick wait says it
    ]

    class Action(Message):
        """The person asked for something: quick (play now), create, join ID, watch ID, refresh,
        say TEXT, tournaments."""

        def __init__(self, kind: str, arg: str = "") -> None:
            super().__init__()
            self.kind, self.arg = kind, arg

    def __init__(self, who: str) -> None:
        super().__init__()
        self.who = who
        self.tables: dict[str, TableInfo] = {}
        self._question: asyncio.Future[bool] | None = None
        self._talking = False  # t was pressed: the chat box is taking the focus
        self._invite: InviteScreen | None = None  # i was pressed: the invite box, while it is open
        self._status: str | Text = ""  # what the status line shows
        self._empty: str | None = None  # what it said last of a list with no game on
        self._live: set[str] = set()  # the tables whose game was going on when the list was drawn last

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble((tr("Scopa lobby"), "bold"), f" · {self.who}"), id="lobby-top")
        yield Static("", id="lobby-narrow")
        yield TableList(id="tables", cursor_type="row", zebra_stripes=True)
        yield RichLog(id="chat", markup=False, wrap=True)
        yield TypedBox(placeholder=tr("t: say something to the lobby"), id="say")
        yield Static("", id="lobby-status")
        yield LobbyFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#tables", DataTable).focus()
        self.say(keys_hint())
        self._redraw()  # the headings (and what the list says while it is empty)

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#chat", RichLog).styles.height = 6 if event.size.height >= 24 else 3  # the list keeps rows
        self.query_one(LobbyFooter).refresh(recompose=True)  # its keys fit the new width
        self._redraw()  # the columns fit the new width

    def on_screen_suspend(self) -> None:
        """Off to a table: what was said of going there (the table opened, the seat taken)
        is no more true once back; the status line says only what it says of the list."""
        if any(isinstance(screen, BoardScreen) for screen in self.app.screen_stack):
            self.say(self._empty or keys_hint())

    def rename(self, who: str) -> None:
        """The heading names the person as the server does (a taken name was changed)."""
        self.who = who
        self.query_one("#lobby-top", Static).update(Text.assemble((tr("Scopa lobby"), "bold"), f" · {who}"))

    def ask(self, question: Text, answer: asyncio.Future[bool]) -> None:
        """A yes/no question on the status line; y or n answers it."""
        self._question = answer
        self.say(question)

    def on_key(self, event: events.Key) -> None:
        if self._invite is not None:  # typed while the invite box opens: the keys are the box's
            self._invite.early(event)
            return
        say = self.query_one("#say", Input)
        if self._talking and not say.has_focus:  # typed before the box took the focus: no keystroke is lost
            catch_up(say, event)
            return
        question = self._question
        if event.key in ("t", "i") and not say.has_focus and (question is None or question.done()):
            event.stop()  # at once: the keys typed right after go in the box
            self.action_talk() if event.key == "t" else self.action_invited()
            return
        if question is None or question.done():
            if unknown_key(event, self.active_bindings) and not say.has_focus:  # a key that does nothing here says so
                self.say(Text.assemble((tr("{key}: unknown key — ? for help", key=event.character), "yellow"), "\n",
                                       keys_hint()))
            return
        if event.key not in ("y", "s", "n"):
            return
        event.stop()
        self._question = None
        question.set_result(event.key in ("y", "s"))
        self.say("")

    def say(self, text: str | Text) -> None:
        self._status = text
        self.query_one("#lobby-status", Static).update(text)

    def chat(self, author: str, text: str) -> None:
        self.query_one("#chat", RichLog).write(Text.assemble((author, "bold"), ": ", text))

    def show_tables(self, tables: Sequence[TableInfo]) -> None:
        """The server's tables, the finished ones too (as the plain lobby lists them):
        last, marked finished; w or Enter on one says how its game ended."""
        self.tables = {t.id: t for t in tables if t.state is not TableState.CLOSED}
        self._redraw()

    def update_table(self, info: TableInfo) -> None:
        """One table changed (a pushed table_update)."""
        if info.state is TableState.CLOSED:
            self.tables.pop(info.id, None)
        else:
            self.tables[info.id] = info
        self._redraw()

    def live(self) -> list[str]:
        """The tables whose game is not over, in the list's order."""
        return [t for t, info in self.tables.items() if info.state is not TableState.FINISHED]

    def _redraw(self) -> None:
        if not self.query("#tables"):  # not on screen (the app is closing): drawn when it is mounted
            return
        dt = self.query_one("#tables", DataTable)
        keep = self.selected_id()
        self.tables = ordered(self.tables)  # the same order for everyone: the games going on first, by number
        live = self.live()
        rows: list[tuple[Cell, ...]] = []
        for info in self.tables.values():
            style = {TableState.WAITING: "green", TableState.PLAYING: "yellow"}.get(info.state, "dim")
            rows.append((Text(info.id), short_rules(info), short_seats(info),
                         Text(word_text(info.state.value), style=style), Text(str(info.spectators))))
        left_out = fill_list(dt, list(self.tables), rows, (self.size.width or self.app.size.width) - 1)  # a scroll bar
        narrow = self.query_one("#lobby-narrow", Static)
        narrow.display = bool(left_out)
        narrow.update(tr("Narrow window, columns left out: {columns} (? for the rules).", columns=", ".join(left_out))
                      if left_out else "")
        # what the status line says of the list is the list's own: said while it has no game on, gone once it has
        empty = tr("No tables yet: press c to create one.") if not self.tables else \
            tr("Every game here is over (w on one shows how it ended): press c to create a table.") if not live else None
        asking = self._question is not None and not self._question.done()  # a question stays until answered
        if empty is not None and empty != self._empty and not asking:  # said once: what was told since stays
            told = _told(self._status, self._empty)
            self.say(empty if told is None else Text.assemble(told, "\n", empty))  # what was just told stays above
            self._empty = empty
        elif empty is None:
            told = _told(self._status, self._empty)
            if self._empty is not None and self._status != told:  # what it said of the list is no more true
                self.say(told or keys_hint())
            self._empty = None
        fresh = [t for t in live if t not in self._live]  # tables new to the list (or whose game started again)
        keep = cursor_table(self.tables, keep, self._live, fresh)
        self._live = set(live)
        dt.show_cursor = keep is not None  # a finished game is not where the cursor rests unless put there
        if keep is not None:
            dt.move_cursor(row=list(self.tables).index(keep))

    def selected_id(self) -> str | None:
        dt = self.query_one("#tables", DataTable)
        if not self.tables or dt.row_count == 0 or not dt.show_cursor:
            return None
        try:
            key = dt.coordinate_to_cell_key(dt.cursor_coordinate).row_key
        except Exception:  # noqa: BLE001 - no row under the cursor
            return None
        return str(key.value) if key.value is not None else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        table_id = str(event.row_key.value)
        self.post_message(self.Action("watch" if table_id not in self.live() else "join", table_id))  # over: its result

    def action_play_now(self, kind: str = "quick") -> None:
        """p: a quick game (p again while waiting: stop waiting); Esc: stop waiting (``stop_quick``);
        r: the list again (``refresh``); o: the tournaments (``tournaments``)."""
        self.post_message(self.Action(kind))

    def action_create(self) -> None:
        self.post_message(self.Action("create"))

    def action_join(self) -> None:
        table_id = self.selected_id()
        if table_id is None:
            self.say(tr("No table selected: c creates one."))
            return
        self.post_message(self.Action("watch" if table_id not in self.live() else "join", table_id))

    def action_invited(self) -> None:
        def chosen(answer: str | None) -> None:
            self._invite = None
            if answer:
                self.post_message(self.Action("join", answer))

        self._invite = InviteScreen()
        self.app.push_screen(self._invite, chosen)

    def action_watch(self) -> None:
        table_id = self.selected_id()
        if table_id is None:
            self.say(tr("No table selected: c creates one."))
            return
        self.post_message(self.Action("watch", table_id))

    def action_talk(self) -> None:
        self._talking = True
        self.query_one("#say", Input).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._talking = False  # the box has the focus (or the person went elsewhere)

    @on(Input.Submitted, "#say")
    def _said(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        self.query_one("#tables", DataTable).focus()
        if text:
            self.post_message(self.Action("say", text))


class InviteScreen(Once, ModalScreen[str | None]):
    """A private table: the invite its host passed on (the table and its code)."""

    DEFAULT_CSS = dialog_css("InviteScreen", "60")
    BINDINGS = [Binding("escape", "cancel", key_word("back"))]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(tr("Join a private table"), classes="dialog-title")
            yield TypedBox(placeholder=tr("the invite you were given, e.g. 7.Xq3…"), id="invite")
            yield Static("", id="invite-error")
            yield Static(tr("Enter: join · Esc: back"), classes="dialog-hint")

    def __init__(self) -> None:
        super().__init__()
        self._early: list[events.Key] = []  # keys typed before the box was there

    def early(self, event: events.Key) -> None:
        """A key typed before this screen was shown: it goes in the box once there."""
        event.stop()
        self._early.append(events.Key(event.key, event.character))
        if self.is_mounted:
            self._catch_up()

    def on_mount(self) -> None:
        self._catch_up()

    def _box(self) -> Input | None:
        """The invite's box, once it is there (not while the screen is put together, nor
        on a screen that never got it: the program closing as it opened)."""
        boxes = self.query("#invite").results(Input)
        return next(boxes, None)

    def _catch_up(self) -> None:
        box = self._box()
        while box is not None and self._early:
            catch_up(box, self._early.pop(0))

    def on_key(self, event: events.Key) -> None:
        box = self._box()
        if box is not None and not box.has_focus:  # typed before the box took the focus: no keystroke is lost
            catch_up(box, event)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            table, code = parse_invite(event.value)
        except ValueError as exc:
            self.query_one("#invite-error", Static).update(Text(tr(str(exc)), style="yellow"))
            return
        self.close(f"{table} {code}")

    def action_cancel(self) -> None:
        self.close(None)


class QuickApp(Protocol):
    """What a quick wait needs of the network app."""

    defaults: RuleSet
    bot_takeover: bool | None

    def tell(self, text: str) -> None: ...


class QuickWait:
    """Whether this client waits for a quick game, and the waiting's start and end."""

    def __init__(self) -> None:
        self.waiting = False

    async def wait(self, app: QuickApp, session: ClientSession) -> Joined:
        """Wait for a quick game of the app's default game: the seat, once paired."""
        preset = app.defaults.preset or Preset.SCOPA
        app.bot_takeover = True  # the server's quick games let a bot take a seat left empty
        self.waiting = True
        try:
            return await session.quick_play(preset, waiting=lambda others: app.tell(
                tr("Waiting for a game of {preset}: {others} other(s) waiting… Esc (or p) stops waiting.",
                   preset=preset.value, others=others)))
        finally:
            self.waiting = False

    def stop(self, app: QuickApp, session: ClientSession | None) -> bool:
        """Stop waiting (the server told); False if nothing was waited for. The caller
        cancels the task that waits."""
        if not self.waiting:
            return False
        self.waiting = False
        if session is not None:
            session.quick_leave()
        app.tell(tr("You stopped waiting for a quick game."))
        return True
