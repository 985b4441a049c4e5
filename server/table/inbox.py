"""A table's inbox: what the turns hand to the table's loop to carry out next."""

from __future__ import annotations

import asyncio
from typing import Callable, Generic, TypeVar

__all__ = ["Inbox"]

T = TypeVar("T")


class Inbox(Generic[T]):
    """A table's inbox: what its loop is to carry out next, in order.  First in, first
    out; one reader (the table's loop), any number of writers (the turns).

    An :class:`asyncio.Queue` would do, at about 3 kB a table (three deques and an Event,
    each with a block of its own) and a future per ``get``; a table needs none of its
    bounds, joins or waiting putters.  This is a list and, only while the loop waits on an
    empty inbox, one future.

    ``carry`` (when set) carries out an item at once, with no task: what arrives while
    the reader waits is handed to it in one plain callback of the event loop (the next
    loop turn, so the writer, a session still reading, is never called back), and the
    reader wakes only for what ``carry`` gives back (what has to wait, such as a journal
    write or a bot's move), which goes first."""

    __slots__ = ("_items", "_waiter", "_draining", "carry")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None
        self._draining = False  # a callback to carry out what came is scheduled
        self.carry: Callable[[T], T | None] | None = None
        """Carry out an item at once; what is left of it (to wake the reader with), or None."""

    def __len__(self) -> int:
        return len(self._items)

    def put_nowait(self, item: T) -> None:
        """Add ``item`` and wake the reader if it waits (or carry it out, with ``carry``)."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            if self.carry is None:
                waiter.set_result(None)
            elif not self._draining:
                self._draining = True
                waiter.get_loop().call_soon(self._drain)

    def _drain(self) -> None:
        """Carry out what came while the reader waits; wake it with what has to wait."""
        self._draining = False
        waiter, carry = self._waiter, self.carry
        items = self._items
        while items and carry is not None and waiter is not None and not waiter.done():
            rest = carry(items.pop(0))
            if rest is not None:
                items.insert(0, rest)
                waiter.set_result(None)
                return

    async def get(self) -> T:
        """The oldest item, once there is one."""
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)
