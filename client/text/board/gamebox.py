"""A finished game in a table either terminal client can show (the full-screen client's
game-over box): each side's points by category over the game (carte, denari, settebello,
primiera, scope, then any other that scored), the points of rounds not seen here (a client
that came in late), and the final score."""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from scopa.engine import Category

from ..i18n import tr
from ..rulebook import category_names
from .state import BoardState

ALWAYS = (Category.CARTE, Category.DENARI, Category.SETTEBELLO, Category.PRIMIERA, Category.SCOPE)
"""The categories every game lists, scored or not (unless its primiera is counted in fractions)."""


def game_table(board: BoardState) -> Table | None:
    """Each side's game points by category and the final score (None: no game seen)."""
    if board.rules is None or not board.totals:
        return None
    points = board.game_points if len(board.game_points) == len(board.totals) else [{} for _ in board.totals]
    t = Table(box=box.SIMPLE_HEAD, expand=False, padding=(0, 1), show_edge=False)
    t.add_column(tr("Points by category"))
    for side in range(len(board.totals)):
        t.add_column(board.side_name(side), justify="right")
    always = () if board.rules.frac else ALWAYS
    for category, name in category_names().items():
        if category in always or any(p.get(category) for p in points):
            t.add_row(name, *[str(p.get(category, 0)) for p in points])
    seen = [sum(p.values()) for p in points]
    if seen != list(board.totals):  # the rounds played before this client was there
        t.add_row(tr("Rounds not seen here"), *[str(total - n) for total, n in zip(board.totals, seen)])
    t.rows[-1].end_section = True
    t.add_row(Text(tr("Final score"), style="bold green"),
              *[Text(str(total), style="bold green") for total in board.totals])
    return t
