"""The board: always on screen — the table, your hand (also while others think), every
seat, each side's pile, the stock, the round's plays, scores and target — and the ways to
make a move (number key, typed card, mouse: :mod:`.moveinput`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static

from scopa.engine import Declare, Event, Forced, HandDealt, Play, Played, RoundStarted

from ..text import tr, DeckStyle, label
from ..game import TurnClock, seconds_text
from ..text import BoardState
from .boardtext import moves_text, plays_text, seats_panel, top_line
from .cards import CardRow
from .moveinput import MoveInput, move_span
from .text import card_span, event_text
from .keywords import key_word
from .keys import TypedBox

NARROW = 70  # below this width the plays panel goes under the hand, in the rows left over
SHORT, NARROW_SHORT = 24, 30  # below these heights (the second when narrow) cards are drawn on one line each
PILES_LEAST = 20  # a small window keeps the piles table when narrow (the plays panel gives way) and this high
BIG_HAND_ROOM = 6  # a hand of framed cards on two rows (scopone's nine) needs this many rows more to be drawn framed
BIG_HAND_PILES = 24  # a small window keeps the piles table beside a hand of two rows (and its hints) from this high


class BoardScreen(MoveInput):
    """Shows a :class:`BoardState`; :meth:`ask` waits for the shown seat's move."""

    DEFAULT_CSS = """
    BoardScreen { layout: vertical; }
    #top { height: auto; max-height: 2; background: $primary-background; color: $text; padding: 0 1; }
    #banner { height: auto; display: none; background: $warning; color: $background; padding: 0 1; }
    #banner.shown { display: block; }
    #main { height: 1fr; }
    #left { width: 1fr; padding: 0 1; }
    #plays-box { width: 28; border-left: solid $primary; padding: 0 1; scrollbar-size-vertical: 1; }
    #plays-box > Static { margin-right: 1; }  /* a column between the text and the scroll bar */
    BoardScreen.narrow #main { layout: vertical; }
    BoardScreen.narrow #left { height: auto; max-height: 100%; }
    BoardScreen.narrow #plays-box { width: 1fr; height: 1fr; border-left: none; border-top: solid $primary; }
    BoardScreen.compact #table-label, BoardScreen.compact #hand-label { margin-top: 0; }
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
        Binding("slash", "type_card", key_word("type a card")),
        Binding("enter", "play_selected", key_word("play"), show=False),
        Binding("escape", "deselect", key_word("back"), show=False),
        Binding("t", "talk", key_word("chat")),
    ]
    CHAT_LINES = 8  # the table's last chat lines in the side panel

    def __init__(self, board: BoardState, style: DeckStyle = DeckStyle.ITALIAN, title: str = "Scopa") -> None:
        super().__init__(board, style)
        self.title_text = title
        self.hide_hand = False
        self._status = Text("")
        self._ready = False
        self.chat_lines: list[Text] = []
        self.held = False  # events being caught up with after a time away: drawn once, at the end
        self._banner: str | None = None
        self.back_line: str | None = None  # said in place of the board until it is first drawn (a seat taken back)
        self.autoplayed = False  # the shown seat's last card is being played for it
        self._played_for: tuple[int, Text] | None = None  # (seat, what was played for it) until its next move
        self._last_card: Text | None = None  # the person's last card played for them: said until the next deal
        self._back: Text | None = None  # what happened while the person was away: said until their next move
        self.turn_clock: TurnClock | None = None  # the table's turn clock (a network game), counted down here
        self.now: Callable[[], float] = time.monotonic  # the clock the turn clock's deadlines are on

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        yield Static(id="banner")
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield Static(id="seats")
                yield Static(tr("Table"), classes="label", id="table-label")
                yield CardRow(self.deck, empty=tr("(the table is empty)"), id="table")
                yield Static(tr("Your hand"), classes="label", id="hand-label")
                yield CardRow(self.deck, numbered=True, empty=tr("(no cards in hand)"), id="hand")
                yield Static(id="moves")
            with VerticalScroll(id="plays-box"):
                yield Static(id="plays")
                yield Static(id="table-chat")
        yield Static(id="status")
        yield TypedBox(placeholder=tr("a card, e.g. 7 Den or 7d; Esc to cancel"), id="typed", select_on_focus=False)
        yield TypedBox(placeholder=tr("say something to the table; Enter sends, Esc closes"), id="chat-say",
                    max_length=500)
        yield Footer()

    def on_mount(self) -> None:
        self._ready = True
        self._fit(self.app.size.width, self.app.size.height)
        if self.back_line is not None and self.held:  # no empty table and hand before the game as it stands
            self.query_one("#main").display = False
            self.banner(self.back_line)
        self.refresh_board()
        self.set_interval(0.5, self._tick)

    def time_left(self) -> int | None:
        """Seconds left on the clock of the seat to move (None: no clock runs for it)."""
        if self.turn_clock is None or self.board.over:
            return None
        return self.turn_clock.left(self.now(), self.board.to_move)

    def _tick(self) -> None:
        """The countdown: the seats and the prompt again while a turn clock runs."""
        clock = self.turn_clock
        if clock is None or (clock.deadline is None and not clock.stopped) or self.held or not self.is_attached:
            return
        with contextlib.suppress(NoMatches):
            self.query_one("#seats", Static).update(seats_panel(self.board, self.deck, self.time_left(),
                                                                self.has_class("compact"),
                                                                not self.has_class("pileless")))
            self._draw_status()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)
        self.refresh_board()  # the top line fits the new width

    def _fit(self, width: int, height: int) -> None:
        """Narrow: the plays under the hand; compact (a small window): one-line cards, the
        seat's clock short, a one-row prompt, the piles table only when narrow and at least
        PILES_LEAST rows high (BIG_HAND_PILES beside a hand of two rows; the stock as its last
        row) and a tighter footer, so the hand and what each card would take stay in sight."""
        narrow = width < NARROW
        self.set_class(narrow, "narrow")
        framed = max(1, (width - (4 if narrow else 32) + 1) // 8)  # framed cards on a row of the hand's column
        big = len(self.board.hand) > framed  # its hints take a row per two cards too: the board shrinks instead
        small = height < (NARROW_SHORT if narrow else SHORT)
        compact = small or (big and height < SHORT + BIG_HAND_ROOM)
        self.set_class(compact, "compact")
        self.set_class(small and (not narrow or height < PILES_LEAST or (big and height < BIG_HAND_PILES)), "pileless")
        for row in self.query(CardRow):
            row.compact = compact
        for footer in self.query(Footer):
            footer.compact = narrow

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

    def chat_again(self, said: list[tuple[str, str]]) -> None:
        """The table's last lines (author, text) as the server kept them, for a seat back
        at its table: the panel holds them in place of what it had."""
        self.chat_lines = [Text.assemble((author[:12], "bold"), ": ", text) for author, text in said][-self.CHAT_LINES:]
        self._draw_chat()

    def _draw_chat(self) -> None:
        if not self._ready or not self.is_attached or not self.query("#table-chat"):
            return
        t = Text(tr("Chat"), style="bold")
        if self.chat_note is not None:
            t.append("\n" + self.chat_note, style="dim")
        for line in self.chat_lines:
            t.append("\n")
            t.append_text(line)
        panel = self.query_one("#table-chat", Static)
        panel.display = bool(self.chat_lines) or self.chat_note is not None  # no room taken before anybody speaks
        panel.update(t)
        self._show_latest()

    def _show_latest(self) -> None:
        """The round's latest plays (and chat) in sight, once the panel has its new size."""
        box = self.query_one("#plays-box", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False)

    # ------------------------------------------------------------------ drawing

    def tell_event(self, event: Event) -> None:
        """What ``event`` was, on the status line (a last card played for the person says so)."""
        line = event_text(event, self.board, self.deck)
        if isinstance(event, (RoundStarted, HandDealt)):
            self._last_card = self._played_for = None  # said until the next deal: the new cards matter now
        if isinstance(event, Played) and event.seat == self.board.viewer and event.forced_by is Forced.TIMEOUT:
            self.autoplayed = False
            if line is not None:
                self._played_for = (event.seat, line)  # stays until that seat's next move
            line = Text("")
        elif isinstance(event, Played) and event.seat == self.board.viewer and self.autoplayed:
            self.autoplayed = False
            self._last_card = (Text(tr("Your last card,") + " ", style="yellow") + card_span(event.card, self.deck)
                               + Text(tr(", was played for you."), style="yellow"))
            if line is not None:  # the status line says so too: it stays once the next deal ends the line above
                line = self._last_card if not (event.captured or event.scopa) else self._last_card + "\n" + line
        if line is not None:
            self.say(line)

    def say(self, text: Text | str) -> None:
        self.hint_shown = None
        self._status = text if isinstance(text, Text) else Text(text)
        self._draw_status()

    def banner(self, text: str | None) -> None:
        """A line across the top (e.g. reconnecting); ``None`` hides it."""
        if not self._ready:
            return
        text = text or self.back_line  # the board still on its way: said again once a link's line goes
        self._banner = text
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
        if self.back_line is not None:  # the game as it stands is here: the board in place of the line
            shown, self.back_line = self.back_line, None
            self.query_one("#main").display = True
            if self._banner == shown:
                self.banner(None)  # a line of the link's (lost meanwhile) stays
        self._fit(self.app.size.width, self.app.size.height)  # a hand of nine cards needs a tighter board
        self.query_one("#top", Static).update(top_line(b, self.title_text, self.app.size.width - 2))
        self.query_one("#seats", Static).update(seats_panel(b, self.deck, self.time_left(), self.has_class("compact"),
                                                                not self.has_class("pileless")))
        hand = () if self.hide_hand else b.hand
        options = self.question.plays_by_card()
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
            label = tr("Your hand") if b.you_label else tr("{who}'s hand", who=b.seat_name(b.viewer))
            self.query_one("#hand-label", Static).update(label)
        room = self.app.size.width - (0 if self.has_class("narrow") else 28) - 4  # padding and a scroll bar
        self.query_one("#moves", Static).update(moves_text(b, hand, options, self.question.legal, self.deck, room))
        self.query_one("#plays", Static).update(plays_text(b, self.deck))
        self._draw_chat()
        self._show_latest()
        self._draw_status()

    def _draw_status(self) -> None:
        if not self._ready or not self.is_attached or not self.query("#status"):
            return
        said = [self._status]
        if self._played_for is not None and self._played_for[0] == self.board.viewer:
            said.insert(0, self._played_for[1])  # stays until that seat's next move
        if self._last_card is not None and not self._status.plain.startswith(self._last_card.plain):
            said.insert(0, self._last_card)
        if self._back is not None:  # the table's news under it, once (one of its lines may be the last said)
            said = [t for t in said if not (t is self._status and t.plain in self._back.plain.split("\n"))]
            said.insert(0, self._back)
        if self.has_class("compact"):  # a small window: a row each, ending in "…", so the hand's hints keep theirs
            said = [self._one_row(t) for t in said]
        self.query_one("#status", Static).update(Text("\n").join(p for p in [*said, self._prompt()] if p))

    def _one_row(self, said: Text) -> Text:
        rows = said.split("\n")
        for row in rows:
            row.truncate(max(10, self.app.size.width - 2), overflow="ellipsis")  # the status line's padding
        return Text("\n").join(rows)

    def _prompt(self) -> Text | None:
        kept = self.question.kept
        if kept is not None:
            return Text(tr("Your move,") + " ", style="yellow") + move_span(kept, self.deck) + Text(
                tr(", is kept: it is played when the connection is back."), style="yellow")
        if not self.question.asking:
            return None
        n = len(self.board.hand) + sum(isinstance(a, Declare) for a in self.question.legal)
        keys = f"1–{n}" if n > 1 else "1"
        left = self.time_left() if self.board.to_move == self.board.viewer else None
        clock = "\n⏱ " + tr("{time} left, then the server plays for you.", time=seconds_text(left)) \
            if left is not None else ""  # a line of its own: the prompt fits 80 columns in both languages
        if self.turn_clock is not None and self.turn_clock.stopped and self.board.to_move == self.board.viewer:
            clock = "\n⏱ " + tr("The clock waits for the connection.")
        if self.has_class("compact"):  # a small window: one row, the hints keep theirs (the footer has / and ?)
            who = tr("Your turn") if self.board.you_label or self.board.viewer is None \
                else tr("{name}'s turn", name=self.board.seat_name(self.board.viewer))
            turn = tr("{who}: press {keys} or click a card", who=who, keys=keys)
        elif self.board.you_label or self.board.viewer is None:
            turn = tr("Your turn: press {keys}, click a card, or / to type one. ? help", keys=keys)
        else:  # hot seat: the person whose hand is shown is named
            turn = tr("{name}'s turn: press {keys}, click a card, or / to type one. ? help", keys=keys,
                      name=self.board.seat_name(self.board.viewer))
        return Text(turn + clock, style="bold green")

    async def ask(self, legal: Sequence[Play | Declare]) -> Play | Declare:
        if self._status.plain.startswith(tr("Your last card,")):  # a new hand to play from: said no more
            self._status = Text("")
        self._last_card = None  # (a local game tells no deal of it)
        return await super().ask(legal)

    def keep_saying(self, text: str | None) -> None:
        """What happened while the person was away, kept on the status line over what the
        table says next, until the person's next move (None: no longer)."""
        self._back = None if text is None else Text(text)
        self._draw_status()

    def answered(self) -> None:
        self._played_for = self._back = None
        self._draw_status()  # a move kept during a reconnect says so at once
