"""The connection the parts of the PostgreSQL journal (:mod:`.storage`) run their
statements on: the one of the batch running, set by the storage for the batch's length."""

from __future__ import annotations

import asyncio
from typing import Any, Sequence

import psycopg
from psycopg import pq


Conn = psycopg.AsyncConnection[tuple[Any, ...]]


class PgLink:
    """The batch's connection (``conn``) and the queries every part makes."""

    def __init__(self) -> None:
        self.conn: Conn | None = None

    @property
    def db(self) -> Conn:
        assert self.conn is not None, "a request runs inside a batch"
        return self.conn

    async def one(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        return await (await self.db.execute(sql, args)).fetchone()

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return await (await self.db.execute(sql, args)).fetchall()

    async def run_plain(self, sql: bytes, param: bytes) -> list[str]:
        """One statement of one text parameter, sent through libpq as it is (no cursor,
        adapters or timer of psycopg's: the moves of a batch, the journal's most frequent
        statement): the first column of the rows it returns, as text.  Its failure is
        raised as psycopg's error; a lost connection as :class:`psycopg.OperationalError`."""
        conn = self.db
        pgconn = conn.pgconn
        loop = asyncio.get_running_loop()
        pgconn.send_query_params(sql, [param])
        while pgconn.flush():
            await _ready(loop, pgconn.socket, write=True)
        pgconn.consume_input()
        while pgconn.is_busy():
            await _ready(loop, pgconn.socket, write=False)
            pgconn.consume_input()
        failed: psycopg.Error | None = None
        rows: list[str] = []
        while (result := pgconn.get_result()) is not None:
            if result.status == pq.ExecStatus.FATAL_ERROR and failed is None:
                failed = psycopg.errors.error_from_result(result, encoding=conn.info.encoding)
            elif result.status == pq.ExecStatus.TUPLES_OK:
                rows += [bytes(result.get_value(i, 0) or b"").decode() for i in range(result.ntuples)]
        if failed is not None:
            raise failed
        return rows


async def _ready(loop: asyncio.AbstractEventLoop, fd: int, write: bool) -> None:
    """Until ``fd`` can be written (``write``) or read."""
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    if write:
        loop.add_writer(fd, wake)
    else:
        loop.add_reader(fd, wake)
    try:
        await ready
    finally:
        if write:
            loop.remove_writer(fd)
        else:
            loop.remove_reader(fd)
