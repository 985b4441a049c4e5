"""A table's inbox: what its loop is to carry out next, in order.

An :class:`asyncio.Queue` would do, at about 3 kB a table (three deques and an Event,
each with a block of its own) and a future per ``get``; a table needs none of its
bounds, joins or waiting putters.  This is a list and, only while the loop waits on an
empty inbox, one future."""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class Inbox(Generic[T]):
    """First in, first out; one reader (the table's loop), any number of writers."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def __len__(self) -> int:
        return len(self._items)

    def put_nowait(self, item: T) -> None:
        """Add ``item`` and wake the reader if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, once there is one."""
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)
