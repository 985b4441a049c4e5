"""Taking a move from the person at the board: the open question (:class:`Question`) and
the ways to answer it, a number key, a typed card or the mouse (:class:`MoveInput`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widgets import Input

from scopa.engine import Card, Declare, Play

from ..text import parse_choice, FR_RANKS, IT_RANKS, DeckStyle, label, parse_cards, tr, declaration_names
from ..text import BoardState
from .cards import CardRow
from .dialogs import CaptureChoiceScreen
from .keys import catch_up
from .text import card_span


class Question:
    """The move the board waits for: the legal moves and the answer when it comes.

    If the wait is cancelled while :attr:`hold_on_cancel` is set (the connection dropped),
    the question stays open: a move chosen meanwhile is the answer to the same question
    asked again after the reconnect, so no keystroke is lost.  Asked something else, a kept
    move that is still allowed is played; one that is not is refused (``refused`` hears of
    it) and the person chooses again."""

    def __init__(self, changed: Callable[[bool], None]) -> None:
        self.changed = changed  # told after each change; True: a new question (nothing selected)
        self.legal: list[Play | Declare] = []
        self.hold_on_cancel = False
        self._answer: asyncio.Future[Play | Declare] | None = None
        self._held: asyncio.Future[Play | Declare] | None = None

    @property
    def asking(self) -> bool:
        """Whether a move is awaited and not chosen yet."""
        return self._answer is not None and not self._answer.done()

    @property
    def kept(self) -> Play | Declare | None:
        """A move chosen but not taken yet (the connection is down): it is played when it is back."""
        answer = self._answer
        if answer is None or not answer.done() or answer.cancelled():
            return None
        return answer.result()

    async def ask(self, legal: Sequence[Play | Declare], refused: Callable[[Play | Declare], None]) -> Play | Declare:
        legal = list(legal)
        held = self._held
        fresh = not (held is not None and legal == self.legal)
        if not fresh:
            assert held is not None
            answer = held
        else:
            answer = asyncio.get_running_loop().create_future()
            self.legal = legal
            if held is not None and held.done() and not held.cancelled():
                if held.result() in legal:
                    answer.set_result(held.result())
                else:
                    refused(held.result())
        self._held = None
        self._answer = answer
        self.changed(fresh)
        try:
            result = await asyncio.shield(answer)
        except asyncio.CancelledError:
            if self.hold_on_cancel and not answer.cancelled():
                self._held = answer
            else:
                self.close()
            raise
        self.close()
        return result

    def close(self) -> None:
        self._answer = None
        self.legal = []
        self.changed(True)

    def cancel(self) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.cancel()

    def drop(self) -> None:
        """The question is over without an answer (the table played for the seat): it
        closes, and nothing chosen for it is kept."""
        for waiting in (self._held, self._answer):
            if waiting is not None and not waiting.done():
                waiting.cancel()
        self._held = None
        self.close()

    def answer(self, action: Play | Declare) -> bool:
        """Answer with ``action``; whether a question was waiting for it."""
        if self._answer is None or self._answer.done():
            return False
        self._answer.set_result(action)
        return True

    def plays_by_card(self) -> dict[Card, list[Play]]:
        out: dict[Card, list[Play]] = {}
        for a in self.legal:
            if isinstance(a, Play):
                out.setdefault(Card(a.card), []).append(a)
        return out


def move_span(action: Play | Declare, deck: DeckStyle) -> Text:
    if isinstance(action, Play):
        return card_span(action.card, deck)
    return Text(tr("declare {what}", what=declaration_names()[action.kind]), style="magenta")


class MoveInput(Screen[None]):
    """A screen showing a :class:`BoardState` that takes the shown seat's move: :meth:`ask`."""

    def __init__(self, board: BoardState, style: DeckStyle) -> None:
        super().__init__()
        self.board = board
        self.deck = style
        self.question = Question(self._question_changed)
        self.selected: int | None = None  # the hand's card picked (lit), not played yet
        self.lit_play: Play | None = None  # a capture being considered in the choice dialog
        self.chat: Callable[[str], None] | None = None  # sends a line to the table (a network game)
        self.chat_note: str | None = None  # a line always under the chat's heading (a spectator's: read only)
        self.hint_shown: Text | None = None  # the status line answers what the person just did (see hint)
        self.card_ahead: int | None = None  # a card's number typed before the turn was asked (see play_when_asked)

    def say(self, text: Text | str) -> None:
        """A line on the status line (whatever it held before, a hint too, is gone)."""
        raise NotImplementedError

    def hint(self, text: Text) -> None:
        """A line answering what the person just did (a card typed that is none, a key
        out of turn): it stays only while that input stands, and goes when the move is
        made, the typed text changes or is put away, or the question is over."""
        self.say(text)
        self.hint_shown = text

    def drop_hint(self) -> None:
        """The input a hint answered is gone: so is the hint, unless something else was said since."""
        if self.hint_shown is not None:
            self.hint_shown = None
            self.say("")

    def refresh_board(self) -> None:
        raise NotImplementedError

    def answered(self) -> None:
        """The question has its answer."""

    def _question_changed(self, fresh: bool) -> None:
        if fresh:
            self.selected = None
            self.drop_hint()  # a new question, or none: what was typed for the last one is over
        if self.is_attached:
            self.refresh_board()
        if fresh and self.question.asking and self.card_ahead is not None:
            index, self.card_ahead = self.card_ahead, None
            self.choose_card(index)

    def play_when_asked(self, index: int) -> None:
        """The hand's card ``index``, typed on the round's box once it said the turn was
        ours: played now if the move is asked, else as soon as it is."""
        if self.question.asking:
            self.choose_card(index)
        else:
            self.card_ahead = index

    async def ask(self, legal: Sequence[Play | Declare]) -> Play | Declare:
        """Wait for the person's move (one of ``legal``); see :class:`Question`."""
        def refused(action: Play | Declare) -> None:
            self.say(Text(tr("Your move,") + " ", style="yellow") + move_span(action, self.deck) + Text(
                tr(", cannot be played now: the table changed while the connection was down. Choose again."),
                style="yellow"))

        return await self.question.ask(legal, refused)

    @property
    def asking(self) -> bool:
        return self.question.asking

    @property
    def hold_on_cancel(self) -> bool:
        """A cancelled :meth:`ask` keeps its question open (see :class:`Question`)."""
        return self.question.hold_on_cancel

    @hold_on_cancel.setter
    def hold_on_cancel(self, hold: bool) -> None:
        self.question.hold_on_cancel = hold

    def turn_taken(self) -> None:
        """The table played for the shown seat while it was asked (its clock ran out):
        the question and any capture choice close at once."""
        self.question.drop()
        self.card_ahead = None  # a card typed for that turn is no move for the next one
        if isinstance(self.app.screen, CaptureChoiceScreen):
            self.app.pop_screen()
        self._put_away_typed()  # a card typed for that turn is no move for the next one
        self.selected = self.lit_play = None
        self.refresh_board()

    def _put_away_typed(self) -> None:
        """The card box closes, its text gone, and so does what was said about that text."""
        for box in self.query("#typed").results(Input):
            if not (box.has_class("shown") or box.value):
                continue
            box.remove_class("shown")
            box.value = ""
            if box.has_focus:
                self.set_focus(None)
        self.drop_hint()

    def _answer_with(self, action: Play | Declare) -> None:
        if self.question.answer(action):
            self.drop_hint()
            self.answered()

    def choose_card(self, index: int) -> None:
        """Play the hand's card ``index``: at once, or after choosing what it takes."""
        hand = self.board.hand
        declares = [a for a in self.question.legal if isinstance(a, Declare)]
        if index >= len(hand):
            if 0 <= index - len(hand) < len(declares):
                self._answer_with(declares[index - len(hand)])
            elif hand:
                self.hint(Text(only_cards(len(hand)), style="yellow"))
            return
        card = hand[index]
        plays = self.question.plays_by_card().get(card, [])
        if not plays:
            self.hint(Text(tr("{card} cannot be played now.", card=label(card, self.deck)), style="yellow"))
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
        box, talk = self.query_one("#typed", Input), self.query_one("#chat-say", Input)
        if box.has_focus or talk.has_focus:
            return
        for opening in (talk, box):
            if opening.has_class("shown"):  # typed before the box took the focus: no keystroke is lost
                catch_up(opening, event)
                return
        ch = event.character or ""
        if event.key == "t" and self.chat is not None:  # at once, as the slash
            event.stop()
            self.action_talk()
        elif event.key == "t" and self.chat_note is not None:  # a spectator's t: why there is no box to write in
            self.hint(Text(self.chat_note, style="yellow"))
        elif event.key == "slash" and self.question.asking:  # at once: the keys typed right after go in the box
            event.stop()
            self.action_type_card()
        elif ch.isdigit() and self.question.asking:
            event.stop()
            index = 9 if ch == "0" else int(ch) - 1
            self.choose_card(index)
        elif ch.isdigit() and self.board.hand and not self.board.over:  # a card's number out of turn: said, not kept
            if (9 if ch == "0" else int(ch) - 1) >= len(self.board.hand):  # past the hand: whose turn matters less
                self.hint(Text(only_cards(len(self.board.hand)), style="yellow"))
                return
            who = self.board.to_move
            self.hint(Text(tr("Not your turn: {name} is playing.", name=self.board.seat_name(who))
                          if who is not None and who != self.board.viewer else tr("Not your turn yet."), style="yellow"))
        elif ch and ch != "q" and ch.upper() in _court_letters(self.deck) and self.question.asking:  # q: leave; Q: queen
            event.stop()
            self.action_type_card(ch)
        elif ch.isprintable() and not ch.isspace() and not ch.isdigit() and ch.upper() not in _court_letters(self.deck) \
                and event.key not in self.active_bindings:  # a key that does nothing here says so
            self.hint(Text(tr("{key}: unknown key — ? for help", key=ch), style="yellow"))

    def action_type_card(self, start: str = "") -> None:
        if not self.question.asking:
            return
        box = self.query_one("#typed", Input)
        box.add_class("shown")
        box.value = start
        box.cursor_position = len(start)
        box.focus()

    def action_talk(self) -> None:
        """Open the chat box (a network game), to say something to the table."""
        if self.chat is None:
            return
        box = self.query_one("#chat-say", Input)
        box.add_class("shown")
        box.focus()

    def action_deselect(self) -> None:
        talk = self.query_one("#chat-say", Input)
        if talk.has_class("shown"):
            talk.value = ""
            talk.remove_class("shown")
            self.set_focus(None)
            return
        self._put_away_typed()
        self.selected = None
        self.refresh_board()

    def action_play_selected(self) -> None:
        if self.selected is not None and self.question.asking:
            self.choose_card(self.selected)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "typed" and event.input.has_class("shown") and event.value:
            self.drop_hint()  # it answered the text as it was (emptied for the next try, it still stands)

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
        if not self.question.asking or not text:
            return
        choice = parse_choice(text, self.question.legal, self.deck) if not text.isdigit() else None
        if text.isdigit():
            box.value = ""
            box.remove_class("shown")
            self.choose_card(9 if text == "0" else int(text) - 1)
            return
        if choice is None:
            return
        if isinstance(choice, str):
            card = _only_card(text, self.deck)
            several = self.question.plays_by_card().get(card, []) if card is not None else []
            if card is not None and len(several) > 1:  # a card with several captures: choose among them
                box.value = ""
                box.remove_class("shown")
                self.choose_capture(card, several)
                return
            box.value = ""  # said why below, the box open and empty for the next try
            self.hint(Text(choice, style="yellow"))
            return
        box.value = ""
        box.remove_class("shown")
        self._answer_with(choice)

    def on_card_row_clicked(self, event: CardRow.Clicked) -> None:
        hand = self.board.hand
        if event.row.id == "hand":
            if self.selected == event.index and self.question.asking:
                self.choose_card(event.index)
                return
            self.selected = event.index
            self.refresh_board()
            if self.question.asking and event.index < len(hand):
                card = hand[event.index]
                plays = self.question.plays_by_card().get(card, [])
                if len(plays) == 1 and not plays[0].captured:
                    self.say(Text(tr("Click it again or press Enter to lay it down:") + " ")
                             + card_span(card, self.deck))
                else:
                    self.say(Text(tr("Click it again, press Enter, or click a lit table card.")))
        elif event.row.id == "table" and self.selected is not None and self.question.asking:
            table_card = self.board.table[event.index]
            card = hand[self.selected]
            plays = [p for p in self.question.plays_by_card().get(card, []) if table_card in p.captured]
            if len(plays) == 1:
                self._answer_with(plays[0])
            elif plays:
                self.choose_capture(card, plays)


def only_cards(n: int) -> str:
    """What a card's number past the ``n`` a person may choose says ("You have only 2 cards in hand.")."""
    return tr("You have only 1 card in hand.") if n == 1 else tr("You have only {n} cards in hand.", n=n)


def _court_letters(deck: DeckStyle) -> set[str]:
    ranks = FR_RANKS if deck is DeckStyle.FRENCH else IT_RANKS
    return {r for r in ranks if r.isalpha()}


def _only_card(text: str, style: DeckStyle) -> Card | None:
    """The card ``text`` names when it names one card alone (no cards to take)."""
    try:
        cards = parse_cards(text, style)
    except ValueError:
        return None
    return cards[0] if len(cards) == 1 else None
