"""The connection the parts of the PostgreSQL journal (:mod:`.postgres`) run their
statements on: the one of the batch running, set by the storage for the batch's length."""

from __future__ import annotations

from typing import Any, Sequence

import psycopg

from .journal_values import StorageError

Conn = psycopg.AsyncConnection[tuple[Any, ...]]


class PgLink:
    """The batch's connection (``conn``), a cursor of it kept for the moves' INSERT, and
    the queries every part makes."""

    def __init__(self) -> None:
        self.conn: Conn | None = None
        self.inserts: psycopg.AsyncCursor[tuple[Any, ...]] | None = None

    def attach(self, conn: Conn | None) -> None:
        """The batches run on ``conn`` from now on (None: on no connection)."""
        self.conn = conn
        self.inserts = None if conn is None else conn.cursor()

    @property
    def db(self) -> Conn:
        assert self.conn is not None, "a request runs inside a batch"
        return self.conn

    async def one(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        return await (await self.db.execute(sql, args)).fetchone()

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return await (await self.db.execute(sql, args)).fetchall()

    async def change(self, table_id: str, sql: str, args: Sequence[Any]) -> None:
        """An UPDATE of ``table_id``'s row: StorageError if there is no such table."""
        if (await self.db.execute(sql, args)).rowcount == 0:
            raise StorageError(f"no table {table_id!r} in storage")
