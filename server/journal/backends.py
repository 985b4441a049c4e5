"""The journal a server runs on, chosen from ``scopa serve --db``: the SQLite file's process
(:mod:`.sqlite.process`) or PostgreSQL (:mod:`.postgres.storage`, imported only for a
PostgreSQL URL: psycopg only then).  No backend chooses or imports another; the choice is
made here."""

from __future__ import annotations

from .commands import AsyncJournalBackend, Journal, JournalBackend, is_postgres
from .sqlite.process import StorageProcess
from .writer import StorageWriter

__all__ = ["open_storage"]


def open_storage(db: str | None = None,
                 storage: Journal | JournalBackend | AsyncJournalBackend | None = None) -> Journal | None:
    """The server's journal: ``storage`` (a backend is put behind a :class:`~.writer.StorageWriter`),
    or ``db`` (``scopa serve --db``): a PostgreSQL URL (its backend on the event loop), else
    an SQLite file behind a :class:`StorageProcess`; None (no persistence) with neither."""
    if storage is None and db:
        if is_postgres(db):
            from .postgres.storage import PostgresStorage  # psycopg only for a PostgreSQL journal

            return StorageWriter(PostgresStorage(db))
        return StorageProcess(db)
    if isinstance(storage, (JournalBackend, AsyncJournalBackend)):
        return StorageWriter(storage)
    return storage
