"""The lobby's listing index and the expiry of waiting tables, for the table directory
(:mod:`.directory`).

The listing index is kept as tables come, change state and go: one sorted map (table
number -> table) per filter (``state`` x ``players``, each possibly "any"), so a page of
``list_tables`` costs a binary search plus the page itself, whatever the table count.
What it files is anything :class:`Listed`: this server's tables, and in a cluster the
other members' (:class:`~.remote.RemoteTable`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from sortedcontainers import SortedDict

from scopa.protocol import commands as wire

from ..core import Clock, Timer, start_timer, Limits

if TYPE_CHECKING:
    from ..table import Table

FilterKey = tuple[wire.TableState | None, int | None]


class Listed(Protocol):
    """A table as the listing files it: its id, and its map for the lobby."""

    @property
    def id(self) -> str: ...

    def info(self) -> wire.TableInfo: ...


@dataclass(frozen=True)
class Page:
    """One page of a listing: the tables, the cursor of the next page, the match count."""

    tables: list[Listed]
    next: str | None
    total: int


def table_number(table_id: str) -> int:
    """The sort key of a table id (ids are numbers; anything else sorts first)."""
    return int(table_id) if table_id.isdigit() else -1


class Listing:
    """The listed tables, filed by state and player count, paged in id order."""

    def __init__(self) -> None:
        self._index: dict[FilterKey, SortedDict[int, Listed]] = {}
        self._indexed: dict[str, tuple[wire.TableState, int]] = {}  # table id -> (state, players) filed under

    def file(self, table: Listed, state: wire.TableState, players: int) -> None:
        """File ``table`` under its state and player count now (again, if they changed)."""
        key = (state, players)
        if self._indexed.get(table.id) != key:
            self.unfile(table.id)
            self._indexed[table.id] = key
            number = table_number(table.id)
            for k in _keys(*key):
                self._index.setdefault(k, SortedDict())[number] = table

    def unfile(self, table_id: str) -> None:
        key = self._indexed.pop(table_id, None)
        if key is None:
            return
        number = table_number(table_id)
        for k in _keys(*key):
            bucket = self._index.get(k)
            if bucket is not None:
                bucket.pop(number, None)

    def page(self, state: wire.TableState | None = None, players: int | None = None,
             after: str | None = None, limit: int = wire.MAX_PAGE) -> Page:
        """Tables matching the filter, after the cursor ``after``: in id order for
        one state; with any state, the tables waiting for players first (PROTOCOL.md §15)."""
        limit = max(1, min(limit, wire.MAX_PAGE))
        if state is None:
            return self._open_first(players, after, limit)
        bucket = self._index.get((state, players))
        if not bucket:
            return Page([], None, 0)
        start = bucket.bisect_right(table_number(after)) if after is not None else 0
        keys = list(bucket.islice(start, start + limit))
        tables = [bucket[k] for k in keys]
        more = start + limit < len(bucket)
        return Page(tables, tables[-1].id if more and tables else None, len(bucket))

    def _open_first(self, players: int | None, after: str | None, limit: int) -> Page:
        """Every state: waiting tables, then playing, then finished, each in id order.
        The cursor names the group and the id (``w12``: after waiting table 12); a bare
        id is looked for in the group its table is in now."""
        buckets = [self._index.get((g, players)) for g in _LISTED]
        group, number = self._cursor(after)
        found: list[tuple[int, Listed]] = []
        for g in range(group, len(_LISTED)):
            bucket = buckets[g]
            if not bucket:
                continue
            start = bucket.bisect_right(number) if g == group and number is not None else 0
            found += [(g, bucket[k]) for k in bucket.islice(start, start + limit + 1 - len(found))]
            if len(found) > limit:
                break
        more = len(found) > limit
        page = found[:limit]
        cursor = f"{_LISTED[page[-1][0]].value[0]}{page[-1][1].id}" if more and page else None
        return Page([t for _, t in page], cursor, sum(len(b) for b in buckets if b))

    def _cursor(self, after: str | None) -> tuple[int, int | None]:
        if after is None:
            return 0, None
        marks = [g.value[0] for g in _LISTED]
        if after[:1] in marks and after[1:].isdigit():
            return marks.index(after[:1]), int(after[1:])
        key = self._indexed.get(after)
        group = _LISTED.index(key[0]) if key is not None and key[0] in _LISTED else 0
        return group, table_number(after)


class WaitingExpiry:
    """A timer per waiting table: it closes ``waiting_table_expiry`` seconds after the
    last person sat down at it (``on_expired`` is told the table id)."""

    def __init__(self, limits: Limits, clock: Clock, on_expired: Callable[[str], None]) -> None:
        self.limits, self.clock, self.on_expired = limits, clock, on_expired
        self._armed: dict[str, tuple[int, Timer]] = {}  # waiting table -> (people seated, its timer)

    def arm(self, table: Table) -> None:
        """A waiting table closes ``waiting_table_expiry`` seconds after the last person
        sat down at it (or after it was made)."""
        ttl = self.limits.waiting_table_expiry
        if ttl is None:
            return
        people = sum(1 for s in table.seats if s is not None and s.bot is None)
        armed = self._armed.get(table.id)
        if armed is not None and armed[0] >= people:
            return
        if armed is not None:
            armed[1].cancel()
        timer = start_timer(self.clock, ttl, lambda: self._expired(table.id), name=f"waiting-{table.id}")
        self._armed[table.id] = (people, timer)

    def stop(self) -> None:
        """Disarm every waiting table's expiry (the server stops)."""
        for _, timer in self._armed.values():
            timer.cancel()
        self._armed.clear()

    def disarm(self, table_id: str) -> None:
        armed = self._armed.pop(table_id, None)
        if armed is not None:
            armed[1].cancel()

    def _expired(self, table_id: str) -> None:
        self._armed.pop(table_id, None)
        self.on_expired(table_id)


_LISTED = (wire.TableState.WAITING, wire.TableState.PLAYING, wire.TableState.FINISHED)
"""The order of a listing of every state: open tables first (their initials make the cursor)."""


def _keys(state: wire.TableState, players: int) -> tuple[FilterKey, ...]:
    return ((None, None), (state, None), (None, players), (state, players))
