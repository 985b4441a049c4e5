"""What the operator does to a journal without a running server: ``scopa admin migrate
--db DB`` brings its schema up to this server's (a PostgreSQL database by the shipped
SQL files, an SQLite file by its migration steps) and says what was applied;
``export`` and ``import`` move its games, ratings and accounts (:mod:`.export`);
``damaged`` lists the tables it holds that cannot be restored."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .commands import JournalBackend, LoadDamaged, is_postgres
from .export import Imported, export_lines, import_lines
from .sqlite.storage import SQLiteStorage


def open_backend(db: str) -> JournalBackend:
    """The journal ``db``: a PostgreSQL URL or an SQLite file."""
    if is_postgres(db):
        from .postgres.storage import BlockingPostgres

        return BlockingPostgres(db)
    return SQLiteStorage(db)


def export(db: str) -> Iterator[str]:
    backend = open_backend(db)
    try:
        yield from export_lines(backend)
    finally:
        backend.close()


def import_into(db: str, lines: Iterable[str]) -> Imported:
    backend = open_backend(db)
    try:
        return import_lines(backend, lines)
    finally:
        backend.close()


def damaged(db: str) -> list[tuple[str, str]]:
    """The tables of the journal ``db`` that cannot be restored, and why (an SQLite file's
    move file is read first: what is damaged in it is recorded)."""
    backend = open_backend(db)
    try:
        [found] = backend.run_batch([LoadDamaged()])
    finally:
        backend.close()
    if isinstance(found, BaseException):
        raise found
    return list(found)


def migrate(db: str) -> list[str]:
    """Bring the journal ``db`` up to this server's schema; what was applied (none: it was
    up to date).  StorageError (JournalTooNew for a newer one) if it cannot be."""
    if is_postgres(db):
        import asyncio

        from .postgres.schema import migrate_url

        return asyncio.run(migrate_url(db))
    import os
    import sqlite3

    from .sqlite.storage import SCHEMA_VERSION

    before = None
    if os.path.exists(db):
        try:
            with sqlite3.connect(db) as con:
                row = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                before = row[0] if row else None
        except sqlite3.Error:
            before = None
    SQLiteStorage(db).close()  # opening it migrates it (or refuses it)
    return [] if before == str(SCHEMA_VERSION) else [f"format {before or 'new'} -> {SCHEMA_VERSION}"]
