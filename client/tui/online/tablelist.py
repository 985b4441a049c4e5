"""The lobby's list of tables: one order for everyone, the server's (the tables to join,
then the games going on, then the finished ones, each by table number) and where its cursor rests (on a
table whose game is not over, or on none: a finished table only when the person put it
there)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual.widgets import DataTable

from scopa.protocol import TableInfo, TableState

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
