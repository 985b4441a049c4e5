"""A list of rows (the lobby's tables) fitted to the window's width: every heading whole,
the widest text cut short with "…", and columns left out when even that is not enough;
and what a key that does nothing is."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual import events
from textual.widgets import DataTable

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
