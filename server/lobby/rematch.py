"""A rematch: a new table made for the players of a finished one (``create_table`` with
``rematch_of``), which its map names, and which those players may join without the invite;
those who watched the finished game's end are told of it too, and may watch it without the invite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scopa.protocol import commands as wire

from ..table import Table

if TYPE_CHECKING:
    from ..conn import ServerSession


def make_rematch(table: Table, old: Table | None, maker: ServerSession) -> list[ServerSession]:
    """Make ``table`` a rematch of ``old`` when ``old`` is a finished table of this server
    where ``maker`` held a seat: its map says so, ``old``'s people (not the server's
    bots) may join it without the invite and those who watched its end may watch it.
    Returns the connections of the other people of ``old`` and of its last spectators
    still here (not seated elsewhere), to be told of it (none: no rematch)."""
    if old is None or old.state is not wire.TableState.FINISHED or maker.name is None:
        return []
    people = [(i, s) for i, s in enumerate(old.seats) if s is not None and (s.bot is None or i in old.taken_over)]
    names = frozenset(s.name for _, s in people)
    if maker.name not in names:
        return []
    table.rematch_of, table.rematch_names = old.id, names
    told = [s.session for _, s in people
            if s.session is not None and s.session is not maker and not s.session.closed and s.name != maker.name]
    watchers = [w for w in old.broadcaster.saw_end
                if not w.closed and w.table_id is None and w.name is not None and w.name not in names and w not in told]
    table.rematch_watchers = frozenset(w.name for w in watchers if w.name is not None)
    return told + watchers
