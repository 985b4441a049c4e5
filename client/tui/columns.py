"""A list of rows (the lobby's tables) fitted to the window's width: every heading whole,
the widest text cut short with "…", and columns left out when even that is not enough;
the tables' order, one for everyone (the server's: the tables to join, then the games
going on, then the finished ones, each by table number) and where the list's cursor
rests (on a table whose game is not over, or on none: a finished table only when the
person put it there); and what a key that does nothing is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual import events
from textual.widgets import DataTable

from scopa.protocol import TableInfo, TableState

from ..text import tr

COLUMNS = ("table", "rules", "seats", "state", "watching")
"""The list's columns (their headings: the English, given to ``tr``)."""
FLEXIBLE, DROPPED_FIRST = (1, 2), (1, 4)  # the columns that give up room, and those left out when that is not enough


def fit_columns(natural: list[int], room: int, least: list[int] | None = None) -> list[int]:
    """Each column's width (0: left out) so that the list fits ``room`` cells with every
    heading whole: the rules and the seats give up room first, the wider first, down to
    their ``least`` (the widest of their shortest texts) and then down to 12 cells (their
    text then ends in "…"); when that is not enough, the rules and then the watchers are
    left out."""
    floors = [[min(n, max(12, low)) for n, low in zip(natural, least or natural)], [min(n, 12) for n in natural]]
    widths = list(natural)
    for dropped in range(len(DROPPED_FIRST) + 1):
        widths = [0 if i in DROPPED_FIRST[:dropped] else w for i, w in enumerate(natural)]
        over = sum(w + 2 for w in widths if w) - room  # each column has a cell of padding either side
        for floor in floors:
            for i in sorted((i for i in FLEXIBLE if widths[i]), key=lambda i: -widths[i]):
                give = max(0, min(over, widths[i] - floor[i]))
                widths[i] -= give
                over -= give
        if over <= 0:
            break
    return widths


Cell = Text | tuple[Text, ...]
"""A cell of the list: its text, or its texts from the whole one to the shortest."""


def fitted(cell: Cell, width: int) -> Text:
    """``cell`` within ``width`` cells: its first text that fits, or its shortest cut
    short, ending in "…"."""
    texts = cell if isinstance(cell, tuple) else (cell,)
    for text in texts:
        if text.cell_len <= width:
            return text
    cut = texts[-1].copy()
    cut.truncate(width, overflow="ellipsis")
    return cut


def _whole(cell: Cell) -> Text:
    return cell[0] if isinstance(cell, tuple) else cell


def _shortest(cell: Cell) -> Text:
    return cell[-1] if isinstance(cell, tuple) else cell


def fill_list(dt: DataTable[object], keys: Sequence[str], rows: Sequence[Sequence[Cell]], room: int) -> list[str]:
    """Put ``rows`` (one per key, a cell per :data:`COLUMNS`) in ``dt``, its columns made
    anew to fit ``room`` cells (a cell with shorter texts shows the longest that fits);
    the headings of the columns left out."""
    dt.clear(columns=True)
    headings = [Text(tr(h)) for h in COLUMNS]
    columns = list(zip(*rows)) or [()] * len(COLUMNS)
    least = [max((_shortest(cell).cell_len for cell in column), default=0) for column in columns]
    widths = fit_columns([max(_whole(cell).cell_len for cell in column) for column in zip(headings, *rows)], room, least)
    shown = [i for i, w in enumerate(widths) if w]
    for i in shown:
        dt.add_column(headings[i], width=widths[i], key=COLUMNS[i])
    for key, cells in zip(keys, rows):  # what does not fit ends in "…"
        dt.add_row(*[fitted(cells[i], widths[i]) for i in shown], key=key)
    return [tr(COLUMNS[i]) for i, w in enumerate(widths) if not w]


def unknown_key(event: events.Key, bindings: Mapping[str, object]) -> bool:
    """Whether ``event`` is a printable key that none of ``bindings`` (a screen's active ones) takes."""
    ch = event.character or ""
    return ch.isprintable() and not ch.isspace() and event.key not in bindings


_STATE_ORDER = {TableState.WAITING: 0, TableState.PLAYING: 1}


def table_order(info: TableInfo) -> tuple[int, int, str]:
    """Where a table goes in the list: by its state, then by its number (as the server
    lists them: an id that is not a number first)."""
    return _STATE_ORDER.get(info.state, 2), int(info.id) if info.id.isdigit() else -1, info.id


def ordered(tables: Mapping[str, TableInfo]) -> dict[str, TableInfo]:
    """``tables`` in the list's order."""
    return {info.id: info for info in sorted(tables.values(), key=table_order)}


def cursor_table(tables: Mapping[str, TableInfo], kept: str | None, was_live: set[str],
                 fresh: Sequence[str]) -> str | None:
    """The table the cursor rests on: the one it was on (``kept``) while its game is not
    over, or while it is a finished table the person moved onto (finished already when
    the list was drawn last, ``was_live`` not holding it) and no table is new; otherwise
    the first table to join, else the first game going on, else none."""
    live = [t for t, info in tables.items() if info.state is not TableState.FINISHED]
    if kept in tables and (kept in live or (kept not in was_live and not fresh)):
        return kept
    waiting = [t for t in live if tables[t].state is TableState.WAITING]
    return next(iter(waiting or live), None)


class TableList(DataTable[object]):
    """The tables, a row each; with no table chosen its cursor is hidden, until a cursor
    key shows it (on the first row)."""

    def _shown(self) -> bool:
        """Show a hidden cursor; whether it was shown already."""
        if self.show_cursor:
            return True
        self.show_cursor = True
        return False

    def action_cursor_down(self) -> None:
        if self._shown():
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        if self._shown():
            super().action_cursor_up()
