"""A rematch: a new table made for the players of a finished one (``create_table`` with
``rematch_of``), which its map names, and which those players may join without the invite;
those who watched the finished game's end are told of it too, and may watch it without the invite,
as are those who watch the finished table after its end.  The new table's chat starts with
the finished one's last lines (the same people's talk goes on)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
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
    if old.broadcaster.said:  # the same people's chat goes on at the new table
        table.broadcaster.said = deque([*table.broadcaster.said, *old.broadcaster.said], maxlen=wire.CHAT_KEPT)
    told = [s.session for _, s in people
            if s.session is not None and s.session is not maker and not s.session.closed and s.name != maker.name]
    watchers = [w for w in old.broadcaster.saw_end
                if not w.closed and w.table_id is None and w.name is not None and w.name not in names and w not in told]
    table.rematch_watchers = frozenset(w.name for w in watchers if w.name is not None)
    return told + watchers


def rematch_of(old: Table, tables: Iterable[Table]) -> Table | None:
    """The rematch of finished ``old`` still waiting for its players, if one was made."""
    return next((t for t in tables if t.rematch_of == old.id and t.state is wire.TableState.WAITING), None)


def late_watcher(old: Table, tables: Iterable[Table], sess: ServerSession) -> None:
    """``sess`` watched finished ``old`` after its end (watching again, its connection lost
    when the game ended; or its rematch waits): told of the rematch (a ``table_update``
    from the lobby, as those who saw the end were), which it may watch without the invite;
    with none yet, it is told when one is made."""
    offer = rematch_of(old, tables)
    if offer is None:
        if sess not in old.broadcaster.saw_end:
            old.broadcaster.saw_end.append(sess)
        return
    if sess.name is not None and sess.name not in offer.rematch_names:
        offer.rematch_watchers = offer.rematch_watchers | {sess.name}
    sess.tell(wire.TableUpdate(table=offer.info()))
