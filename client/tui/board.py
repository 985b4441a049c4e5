"""The board: always on screen — the table, your hand (also while others think), every
seat, each side's pile, the stock, the round's plays, scores and target — and the ways to
make a move (number key, typed card, mouse)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from scopa.engine import Card, Declare, Event, Play, Played

from ..human import parse_choice
from ..notation import DeckStyle, FR_RANKS, IT_RANKS, label
from ..rulebook import DECLARATION_NAMES
from .boardstate import BoardState
from .cards import CardRow
from .dialogs import CaptureChoiceScreen
from .boardtext import moves_text, plays_text, seats_panel, top_line
from .text import card_span, cards_span, event_text

NARROW = 70  # below this width the plays panel goes under the hand, in the rows left over


class BoardScreen(Screen[None]):
    """Shows a :class:`BoardState`; :meth:`ask` waits for the shown seat's move."""

    DEFAULT_CSS = """
    BoardScreen { layout: vertical; }
    #top { height: auto; max-height: 2; background: $primary-background; color: $text; padding: 0 1; }
    #banner { height: auto; display: none; background: $warning; color: $background; padding: 0 1; }
    #banner.shown { display: block; }
    #main { height: 1fr; }
    #left { width: 1fr; padding: 0 1; }
    #plays-box { width: 28; border-left: solid $primary; padding: 0 1; }
    BoardScreen.narrow #main { layout: vertical; }
    BoardScreen.narrow #left { height: auto; max-height: 100%; }
    BoardScreen.narrow #plays-box { width: 1fr; height: 1fr; border-left: none; border-top: solid $primary; }
    #seats { height: auto; }
    .label { color: $text-muted; height: 1; }
    #moves { height: auto; }
    #status { height: auto; min-height: 1; padding: 0 1; background: $boost; }
    #typed { display: none; height: 3; }
    #typed.shown { display: block; }
    #table-chat { height: auto; margin-top: 1; }
    #chat-say { display: none; height: 3; }
    #chat-say.shown { display: block; }
    """

    BINDINGS = [
        Binding("slash", "type_card", "type a card"),
        Binding("enter", "play_selected", "play", show=False),
        Binding("escape", "deselect", "back", show=False),
        Binding("t", "talk", "chat"),
    ]
    CHAT_LINES = 8  # the table's last chat lines in the side panel

    def __init__(self, board: BoardState, style: DeckStyle = DeckStyle.ITALIAN, title: str = "Scopa") -> None:
        super().__init__()
        self.board = board
        self.deck = style
        self.title_text = title
        self.legal: list[Play | Declare] = []
        self.selected: int | None = None
        self.hide_hand = False
        self._answer: asyncio.Future[Play | Declare] | None = None
        self._status = Text("")
        self._ready = False
        self.lit_play: Play | None = None  # a capture being considered in the choice dialog
        self.hold_on_cancel = False
        self._held: asyncio.Future[Play | Declare] | None = None
        self.chat: Callable[[str], None] | None = None  # sends a line to the table (a network game)
        self.chat_lines: list[Text] = []
        self.held = False  # events being caught up with after a time away: drawn once, at the end
        self.autoplayed = False  # the shown seat's last card is being played for it
        self._played_for: tuple[int, Text] | None = None  # (seat, what was played for it) until its next move

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        yield Static(id="banner")
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="seats")
                yield Static("Table", classes="label", id="table-label")
                yield CardRow(self.deck, empty="(the table is empty)", id="table")
                yield Static("Your hand", classes="label", id="hand-label")
                yield CardRow(self.deck, numbered=True, empty="(no cards in hand)", id="hand")
                yield Static(id="moves")
            with VerticalScroll(id="plays-box"):
                yield Static(id="plays")
                yield Static(id="table-chat")
        yield Static(id="status")
        yield Input(placeholder="a card, e.g. 7 Den or 7d; Esc to cancel", id="typed", select_on_focus=False)
        yield Input(placeholder="say something to the table; Enter sends, Esc closes", id="chat-say",
                    max_length=500)
        yield Footer()

    def on_mount(self) -> None:
        self._ready = True
        self._fit(self.app.size.width)
        self.refresh_board()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        self.set_class(width < NARROW, "narrow")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "talk":
            return self.chat is not None
        if action in ("type_card", "play_selected"):
            return self.board.viewer is not None  # a spectator has no cards to play
        return True

    # ------------------------------------------------------------------ chat

    def chat_line(self, author: str, text: str) -> None:
        """A line someone said at the table: in the side panel (in the status line when narrow)."""
        line = Text.assemble((author[:12], "bold"), ": ", text)
        self.chat_lines = [*self.chat_lines, line][-self.CHAT_LINES:]
        if self.has_class("narrow"):
            self.say(line)
        self._draw_chat()

    def _draw_chat(self) -> None:
        if not self._ready or not self.is_attached or not self.query("#table-chat"):
            return
        t = Text("Chat", style="bold")
        for line in self.chat_lines:
            t.append("\n")
            t.append_text(line)
        panel = self.query_one("#table-chat", Static)
        panel.display = bool(self.chat_lines)  # no room taken before anybody speaks
        panel.update(t)
        self._show_latest()

    def _show_latest(self) -> None:
        """The round's latest plays (and chat) in sight, once the panel has its new size."""
        box = self.query_one("#plays-box", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False)

    def action_talk(self) -> None:
        if self.chat is None:
            return
        box = self.query_one("#chat-say", Input)
        box.add_class("shown")
        box.focus()

    # ------------------------------------------------------------------ drawing

    def tell_event(self, event: Event) -> None:
        """What ``event`` was, on the status line (a last card played for the person says so)."""
        line = event_text(event, self.board, self.deck)
        if isinstance(event, Played) and event.seat == self.board.viewer and self.autoplayed:
            self.autoplayed = False
            self._played_for = (event.seat, Text("Your last card, ", style="yellow") + card_span(event.card, self.deck)
                                + Text(", was played for you.", style="yellow"))
        if line is not None:
            self.say(line)

    def say(self, text: Text | str) -> None:
        self._status = text if isinstance(text, Text) else Text(text)
        self._draw_status()

    def banner(self, text: str | None) -> None:
        """A line across the top (e.g. reconnecting); ``None`` hides it."""
        if not self._ready:
            return
        b = self.query_one("#banner", Static)
        b.update(text or "")
        b.set_class(bool(text), "shown")

    def refresh_board(self) -> None:
        if not self._ready or not self.is_attached or self.held:
            return
        try:
            self._draw_board()
        except NoMatches:  # the app is closing and took the screen's widgets away first
            return

    def _draw_board(self) -> None:
        b = self.board
        self.query_one("#top", Static).update(top_line(b, self.title_text))
        self.query_one("#seats", Static).update(seats_panel(b, self.deck))
        hand = () if self.hide_hand else b.hand
        options = self._options_by_card()
        lit: set[int] = set()
        if self.lit_play is not None:
            lit.update(i for i, c in enumerate(b.table) if c in self.lit_play.captured)
        elif self.selected is not None and self.selected < len(hand):
            for play in options.get(hand[self.selected], []):
                lit.update(i for i, c in enumerate(b.table) if c in play.captured)
        self.query_one("#table", CardRow).show(b.table, lit)
        hand_row = self.query_one("#hand", CardRow)
        if b.viewer is None:
            hand_row.display = False
            self.query_one("#hand-label", Static).display = False
        else:
            hidden = len(b.hand) if self.hide_hand else 0
            hand_row.show(hand, selected=self.selected, hidden=hidden)
            label = "Your hand" if b.you_label else f"{b.seat_name(b.viewer)}'s hand"
            self.query_one("#hand-label", Static).update(label)
        self.query_one("#moves", Static).update(moves_text(b, hand, options, self.legal, self.deck))
        self.query_one("#plays", Static).update(plays_text(b, self.deck))
        self._draw_chat()
        self._show_latest()
        self._draw_status()

    def _draw_status(self) -> None:
        if not self._ready or not self.is_attached or not self.query("#status"):
            return
        parts = [self._status, self._prompt()]
        if self._played_for is not None and self._played_for[0] == self.board.viewer:
            parts.insert(0, self._played_for[1])  # stays until that seat's next move
        self.query_one("#status", Static).update(Text("\n").join(p for p in parts if p))

    def _options_by_card(self) -> dict[Card, list[Play]]:
        out: dict[Card, list[Play]] = {}
        for a in self.legal:
            if isinstance(a, Play):
                out.setdefault(Card(a.card), []).append(a)
        return out

    def _prompt(self) -> Text | None:
        if self._answer is None:
            return None
        if self._answer.done():
            return Text("Your move, ", style="yellow") + self._move_span(self._answer) + Text(
                ", is kept: it is played when the connection is back.", style="yellow")
        n = len(self.board.hand) + sum(isinstance(a, Declare) for a in self.legal)
        keys = f"1–{n}" if n > 1 else "1"
        return Text(f"Your turn: press {keys}, click a card, or / to type one. ? help", style="bold green")

    # ------------------------------------------------------------------ asking for a move

    async def ask(self, legal: Sequence[Play | Declare]) -> Play | Declare:
        """Wait for the person's move (one of ``legal``).

        If the wait is cancelled while ``hold_on_cancel`` is set (the connection dropped),
        the question stays open: a move chosen meanwhile is the answer to the same
        question asked again after the reconnect, so no keystroke is lost.  Asked
        something else, a kept move that is still allowed is played; one that is not is
        said to be refused, and the person chooses again."""
        legal = list(legal)
        held = self._held
        if held is not None and legal == self.legal:
            answer = held
        else:
            answer = asyncio.get_running_loop().create_future()
            self.legal = legal
            self.selected = None
            if held is not None and held.done() and not held.cancelled():
                if held.result() in legal:
                    answer.set_result(held.result())
                else:
                    self.say(Text("Your move, ", style="yellow") + self._move_span(held) + Text(
                        ", cannot be played now: the table changed while the connection was down. "
                        "Choose again.", style="yellow"))
        self._held = None
        self._answer = answer
        self.refresh_board()
        try:
            result = await asyncio.shield(answer)
        except asyncio.CancelledError:
            if self.hold_on_cancel and not answer.cancelled():
                self._held = answer
            else:
                self._clear_question()
            raise
        self._clear_question()
        return result

    def _clear_question(self) -> None:
        self._answer = None
        self.legal = []
        self.selected = None
        if self.is_attached:
            self.refresh_board()

    def cancel_ask(self) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.cancel()

    @property
    def asking(self) -> bool:
        return self._answer is not None and not self._answer.done()

    def _move_span(self, answer: asyncio.Future[Play | Declare]) -> Text:
        action = answer.result()
        if isinstance(action, Play):
            return card_span(action.card, self.deck)
        return Text(f"declare {DECLARATION_NAMES[action.kind]}", style="magenta")

    def _answer_with(self, action: Play | Declare) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(action)
            self._played_for = None
            self._draw_status()  # a move kept during a reconnect says so at once

    def choose_card(self, index: int) -> None:
        """Play the hand's card ``index``: at once, or after choosing what it takes."""
        hand = self.board.hand
        declares = [a for a in self.legal if isinstance(a, Declare)]
        if index >= len(hand):
            if 0 <= index - len(hand) < len(declares):
                self._answer_with(declares[index - len(hand)])
            return
        card = hand[index]
        plays = self._options_by_card().get(card, [])
        if not plays:
            self.say(Text(f"{label(card, self.deck)} cannot be played now.", style="yellow"))
            return
        if len(plays) == 1:
            self._answer_with(plays[0])
            return
        self.selected = index
        self.refresh_board()
        self.choose_capture(card, plays)

    def choose_capture(self, card: Card, plays: Sequence[Play]) -> None:
        def chosen(play: Play | None) -> None:
            self.lit_play = None
            self.refresh_board()
            if play is not None:
                self._answer_with(play)

        def light(play: Play | None) -> None:
            self.lit_play = play
            self.refresh_board()

        self.app.push_screen(CaptureChoiceScreen(card, plays, self.deck, light), chosen)

    def on_key(self, event: events.Key) -> None:
        box = self.query_one("#typed", Input)
        if box.has_focus or self.query_one("#chat-say", Input).has_focus:
            return
        if box.has_class("shown"):  # typed before the box took the focus: no keystroke is lost
            if event.character and event.character.isprintable():
                event.stop()
                box.insert_text_at_cursor(event.character)
            elif event.key == "enter":
                event.stop()
                self.run_worker(box.action_submit())
            return
        ch = event.character or ""
        if ch.isdigit() and self.asking:
            event.stop()
            index = 9 if ch == "0" else int(ch) - 1
            self.choose_card(index)
        elif ch and ch != "q" and ch.upper() in self._court_letters() and self.asking:  # q: leave; Q: queen
            event.stop()
            self.action_type_card(ch)

    def _court_letters(self) -> set[str]:
        ranks = FR_RANKS if self.deck is DeckStyle.FRENCH else IT_RANKS
        return {r for r in ranks if r.isalpha()}

    def action_type_card(self, start: str = "") -> None:
        if not self.asking:
            return
        box = self.query_one("#typed", Input)
        box.add_class("shown")
        box.value = start
        box.cursor_position = len(start)
        box.focus()

    def action_deselect(self) -> None:
        talk = self.query_one("#chat-say", Input)
        if talk.has_class("shown"):
            talk.value = ""
            talk.remove_class("shown")
            self.set_focus(None)
            return
        box = self.query_one("#typed", Input)
        if box.has_class("shown"):
            box.remove_class("shown")
            box.value = ""
        self.selected = None
        self.refresh_board()

    def action_play_selected(self) -> None:
        if self.selected is not None and self.asking:
            self.choose_card(self.selected)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        box = event.input
        if box.id == "chat-say":
            box.value = ""
            box.remove_class("shown")
            self.set_focus(None)
            if text and self.chat is not None:
                self.chat(text)
            return
        if not self.asking or not text:
            return
        if text.isdigit():
            box.value = ""
            box.remove_class("shown")
            self.choose_card(9 if text == "0" else int(text) - 1)
            return
        choice = parse_choice(text, self.legal, self.deck)
        if isinstance(choice, str):
            if "different sets" in choice:  # a card with several captures: choose among them
                card = _first_card(text, self.deck)
                if card is not None:
                    box.value = ""
                    box.remove_class("shown")
                    self.choose_capture(card, self._options_by_card().get(card, []))
                    return
            self.say(Text(choice, style="yellow"))
            return
        box.value = ""
        box.remove_class("shown")
        self._answer_with(choice)

    def on_card_row_clicked(self, event: CardRow.Clicked) -> None:
        hand = self.board.hand
        if event.row.id == "hand":
            if self.selected == event.index and self.asking:
                self.choose_card(event.index)
                return
            self.selected = event.index
            self.refresh_board()
            if self.asking and event.index < len(hand):
                card = hand[event.index]
                plays = self._options_by_card().get(card, [])
                if len(plays) == 1 and not plays[0].captured:
                    self.say(Text("Click it again or press Enter to lay ") + card_span(card, self.deck)
                             + Text(" down."))
                else:
                    self.say(Text("Click it again, press Enter, or click a lit table card."))
        elif event.row.id == "table" and self.selected is not None and self.asking:
            table_card = self.board.table[event.index]
            card = hand[self.selected]
            plays = [p for p in self._options_by_card().get(card, []) if table_card in p.captured]
            if len(plays) == 1:
                self._answer_with(plays[0])
            elif plays:
                self.choose_capture(card, plays)


def _first_card(text: str, style: DeckStyle) -> Card | None:
    from ..notation import parse_cards

    try:
        return parse_cards(text, style)[0]
    except ValueError:
        return None
