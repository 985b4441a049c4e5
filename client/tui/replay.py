"""The replay viewer: a screen that steps through a game record (``ReplayScreen``, also
opened from a game's end), and the small Textual app of ``scopa replay`` (``ReplayApp``).

The game is over, so every hand is shown.  Keys: → / l / space next step, ← / h
previous step, n / p next and previous round, home / end the first and last step, g
jump to a round (type its number, Enter), ? these keys, q (or Esc) close.  The last step
says who won.  A record that stops making sense partway is shown up to that point, with
the first difference at the bottom.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import Footer, Input, Static

from scopa.engine import Phase, cards_in
from scopa.protocol.record import Record
from scopa.protocol.record import RecordMismatch, Step

from ..text import DeckStyle, cards_text, current_language, rules_line, tr
from .dialogs import HelpScreen
from .keys import TypedBox, catch_up
from .tablefacts import TableFacts
from .keywords import follow_language, key_word, shown_key
from ..text import position_text, result_text, scope_text, score_lines, shown_names, viewer_seat

REPLAY_KEYS = """\
## Keys of the replay

- `→`, `l` or the space bar: the next step. `←` or `h`: the step before.
- `n`: the next round. `p`: the round before. `g`, a round's number, Enter: that round's deal.
- Home: the first step. End: the game's end (who won).
- `?` or F1: this help. `q` or Esc: close the replay.
"""

REPLAY_KEYS_IT = """\
## Tasti della partita rivista

- `→`, `l` o la barra spaziatrice: il passo dopo. `←` o `h`: il passo prima.
- `n`: la smazzata dopo. `p`: la smazzata prima. `g`, il numero di una smazzata, Invio: la
  distribuzione di quella smazzata.
- Inizio (Home): il primo passo. Fine (End): la fine della partita (chi ha vinto).
- `?` o F1: questo aiuto. `q` o Esc: chiudi la partita rivista.
"""


class ReplayScreen(Screen[None]):
    """Step through ``steps`` (from :func:`~scopa.protocol.record.replay.replay_steps`);
    q closes it."""

    AUTO_FOCUS = ""  # none: the keys step through the game; the round box takes focus only when asked
    DEFAULT_CSS = """
    #title { text-style: bold; padding: 0 1; height: auto; }
    #position { color: $accent; padding: 0 1; }
    #board { padding: 1 1; height: auto; }
    #score { padding: 0 1; height: auto; }
    #problem { color: $error; padding: 0 1; height: auto; }
    #jump { dock: bottom; display: none; }
    #jump.shown { display: block; }
    ReplayScreen Footer.-compact FooterLabel { margin: 0 1 0 0; }  /* a group's word ("step") apart from the next key */
    """
    STEP = Binding.Group(key_word("step"), compact=True)  # one key of the key line for both ways: it fits 80 columns
    ROUND = Binding.Group(key_word("round"), compact=True)
    BINDINGS = [
        Binding("right,l,space", "step(1)", key_word("next"), group=STEP),
        Binding("left,h", "step(-1)", key_word("back"), group=STEP),
        Binding("n", "round(1)", key_word("next round"), group=ROUND),
        Binding("p", "round(-1)", key_word("previous round"), group=ROUND, key_display="/p"),  # "n/p"
        Binding("home", "go(0)", key_word("start"), show=False),
        Binding("end", "go(-1)", key_word("end"), show=False),
        Binding("g", "ask_round", key_word("jump to round")),
        Binding("question_mark,f1", "help", key_word("keys")),
        Binding("q", "close", key_word("quit")),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, record: Record, steps: list[Step], problem: RecordMismatch | None = None,
                 style: DeckStyle = DeckStyle.ITALIAN, viewer: str | None = None) -> None:
        """``viewer``: the name of the person watching (their seat is spoken to as "you")."""
        super().__init__()
        if not steps:
            raise ValueError("the record has no round to show")
        self.record = record
        self.steps = steps
        self.problem = problem
        self.style = style
        self.names = shown_names(record)
        self.me = viewer_seat(record, viewer)
        if self.me is not None and viewer_seat(record) != self.me:  # not named "You": said whose seat is spoken to
            self.names[self.me] += " " + tr("(you)")
        self._shown = False  # the widgets exist only once mounted

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._title(), id="title")
            yield Static(id="position")
            yield Static(id="board")
            yield Static(id="score")
            yield Static(tr("The record stops making sense here: {problem}", problem=self.problem)
                         if self.problem else "", id="problem")
        yield TypedBox(placeholder=tr("round 1-{n} then Enter (Esc: cancel)", n=self.rounds), id="jump")
        yield Footer(compact=True)  # every key in sight at 100 columns, Italian too

    def on_mount(self) -> None:
        self._shown = True
        self._show()

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#title", Static).update(self._title(event.size.width - 2))

    # ------------------------------------------------------------------ moving

    @property
    def rounds(self) -> int:
        return self.steps[-1].round_index + 1

    @property
    def places(self) -> int:
        """Where the viewer can stand: each step, then (a whole record) the game's end."""
        return len(self.steps) + (self.problem is None)

    @property
    def at_end(self) -> bool:
        """Whether the viewer stands at the game's end, after its last step (who won)."""
        return self.index >= len(self.steps)

    @property
    def step(self) -> Step:
        """The step shown (at the game's end: the last one)."""
        return self.steps[min(self.index, len(self.steps) - 1)]

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(self.places - 1, self.index + delta))

    def action_go(self, where: int) -> None:
        self.index = where % self.places

    def action_round(self, delta: int) -> None:
        number = self.step.round_index + 1 + delta
        if not self.jump_to_round(number) and number > self.rounds and not self.at_end:
            self.action_go(-1)  # past the last round: the game's end

    def action_help(self) -> None:
        """The viewer's keys (and the recorded game's rules), not a table's."""
        about = (tr("The game replayed"), tr("A game already played, shown step by step: the keys below move "
                                              "through it; nothing is played here."))
        facts = TableFacts(self.record.engine_rules, known_timer=False, seed=self.record.seed)
        self.app.push_screen(HelpScreen(facts,
                                        REPLAY_KEYS_IT if current_language() == "it" else REPLAY_KEYS, about))

    def jump_to_round(self, number: int) -> bool:
        """Show the deal of round ``number`` (1-based); False if there is no such round."""
        for i, step in enumerate(self.steps):
            if step.round_index == number - 1 and step.action_index is None:
                self.index = i
                return True
        return False

    def action_ask_round(self) -> None:
        box = self.query_one("#jump", Input)
        box.add_class("shown")
        box.value = ""
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text.isdigit() or not self.jump_to_round(int(text)):
            self.notify(tr("there is no round {text}: rounds 1-{n}", text=repr(text), n=self.rounds),
                        severity="warning")
            return
        self._close_jump()

    def action_close(self) -> None:
        """Back to what opened it; the app's own screen (``scopa replay``) quits."""
        if len(self.app.screen_stack) > 1:
            self.dismiss(None)
        else:
            self.app.exit()

    def on_key(self, event: events.Key) -> None:
        box = self.query_one("#jump", Input)
        if event.key == "escape" and box.has_class("shown"):
            self._close_jump()
        elif event.key == "escape":
            event.stop()
            self.action_close()
        elif box.has_class("shown") and not box.has_focus:  # typed before the box took the focus
            catch_up(box, event)
        elif event.key == "g" and not box.has_class("shown"):
            event.stop()  # at once: the round typed right after goes in the box
            self.action_ask_round()

    def _close_jump(self) -> None:
        box = self.query_one("#jump", Input)
        box.remove_class("shown")
        self.set_focus(None)

    def watch_index(self) -> None:
        if self._shown:
            self._show()

    # ------------------------------------------------------------------ drawing

    def _title(self, width: int = 0) -> str:
        """The title, the game's name and the rules, each whole (the seed is in the help's
        details): an item that does not fit on the row of ``width`` columns begins the next
        one (rules longer than a row go on over the rows below it)."""
        r = self.record
        items = [tr("Scopa replay"), *([tr("game {game}", game=r.game)] if r.game else []),
                 rules_line(r.engine_rules)]
        rows = [items[0]]
        for item in items[1:]:
            if width > 0 and cell_len(rows[-1] + " · " + item) > width:
                rows.append(item)
            else:
                rows[-1] += " · " + item
        return "\n".join(rows)

    def position_text(self) -> str:
        if self.at_end:  # after the last step: who won
            return tr("End of the game · step {i}/{steps} — {result}", i=self.index + 1, steps=self.places,
                      result=result_text(self.record, self.me))
        return position_text(self.steps, self.index, self.record, self.style, self.me, self.places)

    def board_text(self) -> Text:
        s = self.step.state
        out = Text()
        table, hand = tr("Table"), tr("hand")
        pad = max(len(table), len(hand) + 4) + 1
        out.append(table.ljust(pad))
        out.append_text(cards_text(s.table, self.style))
        out.append("    " + tr("stock {n}", n=len(s.stock)) + "\n\n")
        width = max(len(n) for n in self.names)
        for seat, name in enumerate(self.names):
            marker = "▶ " if s.phase is Phase.PLAY and s.to_move == seat else "  "
            dealer = f" · {tr('dealer')}" if s.dealer == seat else ""  # "Bot 2 (medio) · mazziere"
            out.append(f"{marker}{name:<{width}}{dealer}\n", style="bold" if marker.strip() else "")
            out.append(("    " + hand).ljust(pad))
            out.append_text(cards_text(cards_in(s.hands[seat]), self.style))
            out.append("\n")
        out.append("\n")
        for side, seats in enumerate(s.rules.seats_by_side()):
            who = " & ".join(self.names[i] for i in seats)
            cards, points = s.piles[side].bit_count(), s.totals[side]
            out.append(tr("{who}: {cards}, {scope}, {points}", who=who, scope=scope_text(s.scope[side]),
                          cards=tr("1 card taken") if cards == 1 else tr("{n} cards taken", n=cards),
                          points=tr("1 point") if points == 1 else tr("{n} points", n=points))
                       + "\n")
        return out

    def score_text(self) -> Text:
        """The round's score on the step that ended it (and at the game's end, with the
        result); the result on the last step of a record cut short."""
        step = self.step
        lines: list[Text] = []
        if step.score is not None:
            lines.append(Text(tr("Round score"), style="bold underline"))
            lines.extend(Text(line) for line in score_lines(step.score, self.record))
        if self.at_end or (self.problem is not None and self.index == len(self.steps) - 1):
            lines.append(Text(result_text(self.record, self.me), style="bold"))
        return Text("\n").join(lines)

    def _show(self) -> None:
        self.query_one("#position", Static).update(self.position_text())
        self.query_one("#board", Static).update(self.board_text())
        self.query_one("#score", Static).update(self.score_text())


class ReplayApp(App[None]):
    """``scopa replay``: the replay viewer as an app of its own (closing it quits)."""

    ENABLE_COMMAND_PALETTE = False  # as the game's app: the footer keeps room for the viewer's keys

    def __init__(self, record: Record, steps: list[Step], problem: RecordMismatch | None = None,
                 style: DeckStyle = DeckStyle.ITALIAN, viewer: str | None = None) -> None:
        follow_language()  # the key line in the language chosen by now (the keys were made at import)
        super().__init__()
        self.replay = ReplayScreen(record, steps, problem, style, viewer)
        self.title = tr("Scopa replay")

    def get_default_screen(self) -> Screen[None]:
        return self.replay

    def get_key_display(self, binding: Binding) -> str:
        return shown_key(super().get_key_display(binding))  # "F1 keys", as on the keyboard

    @property
    def index(self) -> int:
        return self.replay.index

    @index.setter
    def index(self, value: int) -> None:
        self.replay.index = value

    @property
    def steps(self) -> list[Step]:
        return self.replay.steps

    @property
    def step(self) -> Step:
        return self.replay.step

    def board_text(self) -> Text:
        return self.replay.board_text()
