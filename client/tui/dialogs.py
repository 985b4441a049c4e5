"""The screens that come over the board: capture choice, round end, game over, help,
hand-over (hot seat), the question before leaving and the name to play under."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence

from rich.console import Group
from rich.markdown import Markdown as RichMarkdown
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from scopa.engine import Play, winning_side
from scopa.protocol.parties import normal_name

from ..game import TurnClock, seconds_text

from ..text import BASICS, current_language, DeckStyle, name_problem, rulebook_it, table_rules, tr
from ..text import BoardState, RoundResult, game_table, round_parts
from .tablefacts import TableFacts, facts_lines
from .text import card_span, cards_span
from .keywords import key_word
from .keys import TypedBox, keys_help as keys_help, last_rows_first, scrolled  # keys_help: the lobby's too

def dialog_css(screen: str, width: str = "60", where: str = "middle") -> str:
    """A dialog box in the middle of ``screen`` (a class name: a screen's CSS is scoped to it)."""
    return f"""
    {screen} {{ align: center {where}; background: $background 60%; }}
    {screen} .dialog {{ width: {width}; max-width: 100%; height: auto; max-height: 100%;
                       border: thick $accent; background: $surface; padding: 0 1; }}
    {screen} .dialog-title {{ text-style: bold; margin-bottom: 1; }}
    {screen} .dialog-hint {{ color: $text-muted; margin-top: 1; }}
    """


class Once:
    """A screen that closes once, however many keys arrive before it is gone."""

    _once_done = False

    def close(self, result: object = None) -> None:
        if not self._once_done:
            self._once_done = True
            self.dismiss(result)  # type: ignore[attr-defined]


class CaptureChoiceScreen(Once, ModalScreen[Play | None]):
    """Several captures for one card: pick one (number key, arrows + Enter, or a click)."""

    DEFAULT_CSS = dialog_css("CaptureChoiceScreen", "50", "bottom") + "CaptureChoiceScreen OptionList { height: auto; max-height: 12; }"
    BINDINGS = [Binding("escape", "cancel", key_word("back"))]

    def __init__(self, card: int, options: Sequence[Play], style: DeckStyle,
                 light: Callable[[Play | None], None] | None = None) -> None:
        super().__init__()
        self.card, self.options, self.deck = card, list(options), style
        self.light = light  # lights up an option's cards on the board behind

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.light is not None:
            self.light(self.options[event.option_index])

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            before, after = tr("With {card}, which cards do you take?", card="\0").split("\0")
            yield Static(Text(before) + card_span(self.card, self.deck) + Text(after), classes="dialog-title")
            prompts = [Text(f"{i}  ") + cards_span(p.captured, self.deck, " + ") for i, p in enumerate(self.options, 1)]
            yield OptionList(*[Option(p, id=str(i)) for i, p in enumerate(prompts)], id="choices")
            yield Static(tr("number, or ↑↓ and Enter, or click") + "\n" + tr("Esc: another card"), classes="dialog-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.close(self.options[event.option_index])

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            n = int(event.character)
            if 1 <= n <= len(self.options):
                event.stop()
                self.close(self.options[n - 1])

    def action_cancel(self) -> None:
        self.close(None)


def next_turn_words(board: BoardState, clock: TurnClock | None, now: float, round_no: int) -> str:
    """Once the next round has begun behind the round's box and a turn clock runs: whose
    turn it is and the seconds left, so the box is not read while the time runs out."""
    if clock is None or clock.deadline is None:
        return ""
    left = max(0, math.ceil(clock.deadline - now))
    words = [tr("Round {n} has begun.", n=round_no)]
    if clock.seat is not None and clock.seat == board.viewer:
        words += [tr("Your turn: you have {time} left for your next move.", time=seconds_text(left)),
                  tr("If the time runs out, the server plays a card for you and the game goes on.")]
    elif clock.seat is not None:
        words.append(tr("{name} to play: {time} left for the move.", name=board.seat_name(clock.seat),
                        time=seconds_text(left)))
    else:
        words.append(tr("{time} left for the move.", time=seconds_text(left)))
    return " ".join(words)


class RoundEndScreen(Once, ModalScreen[int | None]):
    """The round's breakdown; any key (or, in a game of bots only, a short pause) goes on.
    With a ``turn_clock``, it also says whose turn the next round's first is and counts
    its seconds down; while it says the turn is the person's, a card's number closes it
    too and is its answer (the hand's index: the card to play once asked).  Up while the
    next round is dealt behind it (a network game), it shows that round's table and the
    person's new hand: the box never hides the cards while their clock runs."""

    DEFAULT_CSS = dialog_css("RoundEndScreen", "64") + \
        "RoundEndScreen #round-clock { color: $warning; margin-top: 1; } RoundEndScreen #round-next { margin-top: 1; }" \
        "RoundEndScreen #round-scroll { height: auto; }"

    def __init__(self, result: RoundResult, board: BoardState, style: DeckStyle, pause: float | None = None,
                 turn_clock: TurnClock | None = None, now: Callable[[], float] | None = None) -> None:
        super().__init__()
        self.result, self.board, self.deck, self.pause = result, board, style, pause
        self.turn_clock, self.now = turn_clock, now

    def last_round(self) -> bool:
        """Whether the game is over with this round."""
        rules = self.board.rules
        return rules is not None and winning_side(rules, self.result.event.totals) is not None

    def dealt(self) -> bool:
        """Whether the next round's cards are on the board behind (the person's among them)."""
        return self.board.viewer is not None and self.board.round_no > self.result.event.round_no \
            and bool(self.board.hand)

    def next_deal(self) -> Text:
        """The next round's table and the person's new hand, numbered as on the board ("" before the deal)."""
        if not self.dealt():
            return Text("")
        hand = Text("  ").join(Text(f"{i} ", style="bold") + card_span(c, self.deck)
                               for i, c in enumerate(self.board.hand, 1))
        return Text(tr("Table") + ": ", style="bold") + cards_span(self.board.table, self.deck) + "\n" + \
            Text(tr("Your hand") + ": ", style="bold") + hand

    def compose(self) -> ComposeResult:
        parts = round_parts(self.result, self.board, self.deck)
        if self.board.viewer is None and self.last_round():  # a spectator's: the game's result comes next
            hint = tr("The game is over: this was its last round. Enter (or any letter) shows the result.")
        elif self.pause is None:
            hint = tr("Enter (or any key but a number) to go on")
        elif self.last_round():
            hint = tr("The game is over: this was its last round. Enter (or any letter) closes this.")
        else:
            hint = tr("The next round starts by itself when the players go on; Enter (or any letter) closes this.")
        self.body, self.hint = Group(*parts), hint
        with Vertical(classes="dialog"):
            with VerticalScroll(id="round-scroll"):  # a small window scrolls the score; the rest stays in sight
                yield Static(self.body, id="round-table")
            yield Static(self.clock_words(), id="round-clock")
            yield Static(self.next_deal(), id="round-next")  # the cards to play from while the clock runs
            yield Static(hint, classes="dialog-hint", id="round-hint")

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """The score in the rows the frame, the clock, the next deal and the hint leave (it
        scrolls in fewer): the new hand and the way on are always in sight."""
        with contextlib.suppress(NoMatches):
            parts = [self.query_one(f"#{part}", Static) for part in ("round-clock", "round-next", "round-hint")]
            below = sum(p.outer_size.height + p.styles.margin.top + p.styles.margin.bottom for p in parts if p.display)
            room = self.size.height - 2 - below - 1  # the frame, what is below the score, a spare row
            self.query_one("#round-scroll", VerticalScroll).styles.max_height = max(3, room)
            self.call_after_refresh(last_rows_first, self, self.hint)

    def clock_words(self) -> str:
        """Whose turn it is next and its seconds left ("" while no turn clock runs)."""
        if self.now is None:
            return ""
        return next_turn_words(self.board, self.turn_clock, self.now(), self.result.event.round_no + 1)

    def on_mount(self) -> None:
        if self.pause is not None:
            self.set_timer(self.pause, lambda: self.close(None))
        self.call_after_refresh(self._fit)
        self._tick()
        if self.turn_clock is not None:  # the countdown, and the next deal as it comes in behind
            self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        with contextlib.suppress(NoMatches):
            clock, words = self.query_one("#round-clock", Static), self.clock_words()
            clock.update(words)
            clock.display = bool(words)
            deal = self.query_one("#round-next", Static)
            shown = (deal.display, clock.display)
            deal.update(self.next_deal())
            deal.display = self.dealt()
            if (deal.display, clock.display) != shown:  # the score's room changed
                self.call_after_refresh(self._fit)

    def my_turn(self) -> bool:
        """Whether the box says the next round's first move is the person's."""
        clock = self.turn_clock
        return clock is not None and clock.deadline is not None and clock.seat is not None \
            and clock.seat == self.board.viewer or self.dealt() and self.board.to_move == self.board.viewer

    def on_key(self, event: events.Key) -> None:
        """Any key but a digit goes on: a card's number typed as the round's last card went
        down (played for its player) must not skip the round's score unread. Once the box
        says it is the person's turn, a card's number goes on and plays that card."""
        if event.key in ("question_mark", "f1", "ctrl+c"):
            return
        event.stop()
        if scrolled(self, event.key):
            return
        digit = event.character if event.character is not None and event.character.isdigit() else None
        if digit is None:
            self.close(None)
        elif self.my_turn():
            self.close(9 if digit == "0" else int(digit) - 1)

    def on_click(self) -> None:
        self.close(None)


REPLAY, AGAIN = "replay", "again"
"""What the game-over box answers: watch the game again, or another game (a rematch)."""


class GameOverScreen(Once, ModalScreen[str | None]):
    """The game's result, with each side's points by category when the ``board`` saw the
    game; with ``replay``, ``r`` answers :data:`REPLAY` (watch the game again); with
    ``again`` (what ``n`` does, said on the box; :meth:`offer_again` may give it later),
    ``n`` answers :data:`AGAIN`.  Enter (Esc, space, q) leaves it (None)."""

    DEFAULT_CSS = dialog_css("GameOverScreen", "64") + "GameOverScreen #game-points { margin-top: 1; }" \
        "GameOverScreen #game-scroll { height: auto; }"

    def __init__(self, line: str, then: str = "", replay: bool = False, board: BoardState | None = None,
                 again: str | None = None) -> None:
        super().__init__()
        self.line, self.then, self.replay = line, then or tr("Enter to leave"), replay
        self.board, self.again = board, again

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(tr("Game over"), classes="dialog-title")
            yield Static(Text(self.line, style="bold green"), id="result")
            points = game_table(self.board) if self.board is not None else None
            if points is not None:
                with VerticalScroll(id="game-scroll"):  # a small window scrolls the points; the keys stay in sight
                    yield Static(points, id="game-points")
            if self.replay:
                yield Static(Text.assemble(("r", "bold"), " " + tr("watch the game again, step by step")),
                             id="replay-hint")
            again = Static(self._again_text(), id="again-hint")
            again.display = self.again is not None
            yield again
            yield Static(self.then, classes="dialog-hint")

    def _again_text(self) -> Text:
        return Text.assemble(("n", "bold"), " " + (self.again or ""))

    def on_mount(self) -> None:
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """The points in the rows the frame and the other lines leave (they scroll in fewer)."""
        with contextlib.suppress(NoMatches):
            scroll = self.query_one("#game-scroll", VerticalScroll)
            others = [w for w in self.query_one(".dialog").children if w is not scroll and w.display]
            below = sum(w.outer_size.height + w.styles.margin.top + w.styles.margin.bottom for w in others)
            scroll.styles.max_height = max(3, self.size.height - 2 - below)

    def offer_again(self, again: str | None) -> None:
        """What ``n`` does now (None: nothing), said on the box."""
        self.again = again
        with contextlib.suppress(NoMatches):
            hint = self.query_one("#again-hint", Static)
            hint.update(self._again_text())
            hint.display = again is not None
        self.call_after_refresh(self._fit)

    def on_key(self, event: events.Key) -> None:
        """Enter, Esc, space or q leave (r: the replay, n: another game).  Any other key is
        kept from closing it: a card's number typed as the last card went down must not
        skip the result."""
        if event.key in ("question_mark", "f1", "ctrl+c"):
            return
        event.stop()
        if scrolled(self, event.key):
            return
        if self.replay and event.key == "r":
            self.close(REPLAY)
        elif self.again is not None and event.key == "n":
            self.close(AGAIN)
        elif event.key in ("enter", "escape", "space", "q"):
            self.close(None)

    def on_click(self) -> None:
        self.close(None)


class HelpScreen(Once, ModalScreen[None]):
    """The current table's rules (or the lobby's chosen table) and the keys of the screen it came over."""

    DEFAULT_CSS = dialog_css("HelpScreen", "90%") + "HelpScreen .dialog { height: 90%; }"
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", key_word("close"))]

    def __init__(self, facts: TableFacts | None, keys: str | None = None, about: tuple[str, str] | None = None) -> None:
        """``about``: the heading of the facts and a line under it, when they are not of
        the table being played (a recorded game's)."""
        super().__init__()
        self.facts = facts
        self.keys_text = keys_help() if keys is None else keys
        self.about = about

    def compose(self) -> ComposeResult:
        head = ""
        if self.facts is not None:
            details = table_rules(self.facts.rules) if current_language() == "en" else rulebook_it.table_rules(self.facts.rules)
            heading, intro = self.about or (tr("This table"), "")
            head = ("## " + heading + "\n\n" + (intro + "\n\n" if intro else "")
                    + "\n".join(facts_lines(self.facts, bool(details))) + "\n" + details)
        self.source = head + "\n" + self.keys_text + "\n" + (rulebook_it.BASICS if current_language() == "it" else BASICS)
        with Vertical(classes="dialog"):
            yield Button(tr("Back"), compact=True, id="back")  # always in sight: a touch screen has no Esc
            with VerticalScroll(id="help-text"):
                # Rich draws the Markdown at once (a widget per paragraph would take seconds).
                yield Static(RichMarkdown(self.source, code_theme="ansi_dark"), id="help-body")
                yield Static(tr("↑↓ PgUp PgDn: scroll · Esc, ? or q: back"), classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-text", VerticalScroll).focus()  # the arrows and PgDn scroll at once

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.close(None)

    def action_close(self) -> None:
        self.close(None)


class HandOverScreen(Once, Screen[None]):
    """Hot seat: the board is hidden until the next person is at the keyboard."""

    DEFAULT_CSS = """
    HandOverScreen { align: center middle; }
    HandOverScreen Static { width: auto; text-align: center; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.person = name

    def compose(self) -> ComposeResult:
        passing = Text(tr("Pass the keyboard to {who}", who=self.person))  # "ad Ada" in Italian
        passing.stylize("bold", len(passing) - len(self.person))
        yield Static(Text.assemble(passing, (".\n\n" + tr("The other hands are hidden.") + "\n", ""),
                                   (tr("{who}: press Enter when ready.", who=self.person), "bold green")),
                     id="handover")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("enter", "space"):
            event.stop()
            self.close(None)

    def on_click(self) -> None:
        self.close(None)


class ConfirmScreen(Once, ModalScreen[bool]):
    """A yes/no question: y (s in Italian), n or Esc, or a button."""

    DEFAULT_CSS = dialog_css("ConfirmScreen", "50") + """
    ConfirmScreen .answers { height: auto; }
    ConfirmScreen Button { margin-right: 2; }
    """
    BINDINGS = [Binding("y,s", "answer(True)", key_word("yes")), Binding("n,escape", "answer(False)", key_word("no"))]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-title")
            with Horizontal(classes="answers"):  # to tap, on a touch screen
                yield Button(tr("Yes"), compact=True, id="yes")
                yield Button(tr("No"), variant="primary", compact=True, id="no")
            yield Static(tr("y: yes · n: no"), classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # Enter or Space on a stray key must not say yes

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.close(event.button.id == "yes")

    def on_key(self, event: events.Key) -> None:
        """y (s), n or Esc answer as they reach the box; the keys typed with the answer
        ("si" typed fast) reach no screen behind it: the i opens no box in the lobby."""
        answer = {"y": True, "s": True, "n": False, "escape": False}.get(event.key)
        if answer is not None or self._once_done:
            event.stop()
            event.prevent_default()
            self.action_answer(bool(answer))

    def action_answer(self, yes: bool) -> None:
        self.close(yes)


class NameScreen(Once, Screen[str]):
    """The name to play under (``scopa play`` without ``--name``): the box starts empty,
    the login name shown in it as what Enter on nothing takes; a name that is not one is
    asked again, with the forms of it that are.  To watch (``scopa watch``), the box says
    why too: Enter watches under the login name.  Esc leaves the app."""

    DEFAULT_CSS = dialog_css("NameScreen", "60")
    BINDINGS = [Binding("escape", "cancel", key_word("leave"))]

    def __init__(self, login: str, watching: bool = False) -> None:
        super().__init__()
        self.login, self.watching = login, watching  # watching: Enter goes on to watch a table, not to play

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(tr("Your name at the tables"), classes="dialog-title")
            if self.watching:  # no name offered: nobody at the table sees it (a login name typed in would seem to be)
                yield TypedBox(placeholder=tr("Enter: watch as {name}", name=self.login), max_length=40, id="name")
                yield Static(tr("The players see how many watch their table, not who: your name is only for the "
                                "server. Left empty, you watch as {name}.", name=self.login), id="name-why")
            else:
                yield TypedBox(placeholder=tr("Enter: play as {name}", name=self.login), max_length=40, id="name")
            yield Static("", id="name-problem")
            yield Static(tr("Letters (accented ones too), digits, . _ -, at most 24, no spaces. "
                            "Enter: watch · Esc: leave") if self.watching else
                         tr("Letters (accented ones too), digits, . _ -, at most 24, no spaces. "
                            "Enter: play · Esc: leave"), classes="dialog-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        typed = event.value.strip() or self.login
        problem = name_problem(typed, option="")
        if problem is None:
            self.close(normal_name(typed))
        else:
            self.query_one("#name-problem", Static).update(Text(problem, style="yellow"))

    def action_cancel(self) -> None:
        self.app.exit(0)
