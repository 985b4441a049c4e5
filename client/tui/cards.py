"""Cards drawn as cards: a row of small framed cards in suit colours, that wraps to the
width it has and says which card was clicked.  In a small window (``compact``) each card
is one line, ``[7 Den]`` (in the hand ``1 [7 Den]``: the key apart, the card framed as on
the table), so that the hand stays in sight."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.console import RenderableType
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from scopa.engine.cards import SETTEBELLO

from ..text import SUIT_COLOURS, DeckStyle, rank_label, suit_label

CARD_WIDTH = 7  # ┌─────┐
GAP = 1
CARD_HEIGHT = 3
COMPACT_WIDTH = 7  # [7 Den]
KEY_WIDTH = 2  # the hand's "1 " before a one-line card: 1 [7 Den]


def card_face(card: int, style: DeckStyle) -> str:
    """The five characters inside a card's frame: ``7 Den`` or `` 7 ♦ ``."""
    if style is DeckStyle.FRENCH:
        return f" {rank_label(card, style)} {suit_label(card, style)} "
    return f"{rank_label(card, style)} {suit_label(card, style)}"


class CardRow(Widget):
    """Cards side by side (wrapping), optionally numbered, some lit up, one selected."""

    DEFAULT_CSS = """
    CardRow { height: auto; min-height: 3; width: 1fr; }
    CardRow.compact { min-height: 1; }
    """

    cards: reactive[tuple[int, ...]] = reactive((), layout=True)
    lit: reactive[frozenset[int]] = reactive(frozenset())
    selected: reactive[int | None] = reactive(None)
    hidden: reactive[int] = reactive(0, layout=True)  # face-down cards to draw instead
    compact: reactive[bool] = reactive(False, layout=True)  # one line per card

    class Clicked(Message):
        """A card of this row was clicked (``index`` into ``cards``)."""

        def __init__(self, row: CardRow, index: int) -> None:
            super().__init__()
            self.row = row
            self.index = index

        @property
        def control(self) -> CardRow:
            return self.row

    def __init__(self, style: DeckStyle = DeckStyle.ITALIAN, numbered: bool = False,
                 empty: str = "(no cards)", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.deck = style
        self.numbered = numbered
        self.empty = empty

    def show(self, cards: Sequence[int], lit: Collection[int] = (), selected: int | None = None,
             hidden: int = 0) -> None:
        self.cards = tuple(cards)
        self.lit = frozenset(lit)
        self.selected = selected
        self.hidden = hidden

    def watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "compact")

    @property
    def _height(self) -> int:
        return 1 if self.compact else CARD_HEIGHT

    @property
    def _gap(self) -> int:
        return GAP + 1 if self.compact else GAP  # one-line cards stand further apart

    @property
    def _width(self) -> int:
        """The columns of one card (a one-line card of the hand: its key too)."""
        if not self.compact:
            return CARD_WIDTH
        return COMPACT_WIDTH + (KEY_WIDTH if self.numbered and self.cards else 0)

    def _per_line(self, width: int) -> int:
        step = self._width + self._gap
        return max(1, (width + self._gap) // step)

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        count = len(self.cards) or self.hidden
        if not count:
            return 1
        lines = -(-count // self._per_line(width))
        return lines * self._height

    def render(self) -> RenderableType:
        count = len(self.cards) or self.hidden
        if not count:
            return Text(self.empty, style="dim")
        per_line = self._per_line(self.size.width or 80)
        out = Text()
        for start in range(0, count, per_line):
            chunk = range(start, min(count, start + per_line))
            rows = [Text() for _ in range(self._height)]
            for i in chunk:
                for r, piece in enumerate(self._line(i) if self.compact else self._card(i)):
                    rows[r].append_text(piece)
                    rows[r].append(" " * self._gap)
            for row in rows:
                out.append_text(row)
                out.append("\n")
        out.rstrip()
        return out

    def _card(self, i: int) -> list[Text]:
        if not self.cards:  # face down
            style = "blue"
            return [Text("┌─────┐", style), Text("│░░░░░│", style), Text("└─────┘", style)]
        card = self.cards[i]
        colour = SUIT_COLOURS[card & 3]
        face_style = f"bold {colour}" if card == SETTEBELLO else colour
        frame = "dim"
        if i in self.lit:
            frame, face_style = "bold magenta", f"{face_style} reverse"
        if i == self.selected:
            frame, face_style = "bold white", f"{face_style} reverse"
        number = str(i + 1 if i < 9 else 0) if self.numbered and i < 10 else "─"
        top = Text("┌", frame) + Text(number, "bold" if self.numbered else frame) + Text("────┐", frame)
        mid = Text("│", frame) + Text(card_face(card, self.deck), face_style) + Text("│", frame)
        return [top, mid, Text("└─────┘", frame)]

    def _line(self, i: int) -> list[Text]:
        """Card ``i`` on one line: ``[7 Den]``, numbered ``1 [7 Den]``."""
        if not self.cards:  # face down
            return [Text("[░░░░░]", style="blue")]
        card = self.cards[i]
        colour = SUIT_COLOURS[card & 3]
        face_style = f"bold {colour}" if card == SETTEBELLO else colour
        if i in self.lit:
            face_style = f"{face_style} reverse"
        if i == self.selected:
            face_style = f"bold {face_style} reverse"
        framed = Text("[", style="dim") + Text(card_face(card, self.deck), face_style) + Text("]", style="dim")
        if self.numbered:
            return [Text(str(i + 1 if i < 9 else 0) + " " if i < 10 else "  ", style="bold") + framed]
        return [framed]

    def on_click(self, event: Click) -> None:
        if not self.cards:
            return
        per_line = self._per_line(self.size.width)
        width = self._width
        col, rem = divmod(event.x, width + self._gap)
        if rem >= width or col >= per_line:
            return
        index = (event.y // self._height) * per_line + col
        if 0 <= index < len(self.cards):
            self.post_message(self.Clicked(self, index))
