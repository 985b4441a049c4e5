"""The PostgreSQL journal's schema: SQL migration files shipped in the package
(``sql/postgres/NNN_name.sql``), applied in the order of their numbers.

The database keeps the number of the last file applied (``meta.schema_version``).
:func:`migrate` applies every file after it, each in order, in one transaction that
holds an advisory lock (two servers starting at once migrate once); a database whose
version is above the last file this server ships was written by a newer server and is
refused (:class:`~scopa.server.journal.values.JournalTooNew`).  ``scopa admin migrate --db URL``
runs it by hand (:func:`migrate_url`); a server runs it when it opens the database.
Both are asynchronous, over psycopg's async connection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg

from ..values import JournalTooNew, StorageError, first_line

_LOCK_KEY = 0x5C0FA  # pg_advisory_xact_lock key while migrating
_FILE = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The shipped migration files, in order; their numbers run 1, 2, ... without a gap."""
    folder = resources.files("scopa.server") / "sql" / "postgres"
    found = []
    for entry in folder.iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text()))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise StorageError(f"the shipped migrations are not numbered 1..N: {[m.name for m in found]}")
    return found


def latest() -> int:
    return len(migrations())


async def version_of(conn: psycopg.AsyncConnection[tuple[object, ...]]) -> int:
    """The schema version of the database (0: never migrated)."""
    row = await (await conn.execute("SELECT to_regclass('meta') IS NOT NULL")).fetchone()
    if row is None or not row[0]:
        return 0
    found = await (await conn.execute("SELECT value FROM meta WHERE key='schema_version'")).fetchone()
    if found is None:
        return 0
    try:
        return int(str(found[0]))
    except ValueError:
        raise StorageError(f"its schema version {found[0]!r} is not one this server knows") from None


async def migrate(conn: psycopg.AsyncConnection[tuple[object, ...]], steps: list[Migration] | None = None) -> list[str]:
    """Bring the database up to the shipped schema (``steps``: these migrations instead);
    the names of the files applied.  Refuses a newer database (JournalTooNew)."""
    steps = migrations() if steps is None else steps
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        await conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        current = await version_of(conn)
        if current > len(steps):
            raise JournalTooNew(f"it was written by a newer version of the server (schema {current}; "
                                f"this server knows up to {len(steps)}): upgrade the server")
        applied = []
        for step in steps[current:]:
            await conn.execute(step.sql.encode())
            await conn.execute("INSERT INTO meta (key, value) VALUES ('schema_version', %s) "
                         "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", (str(step.version),))
            applied.append(step.name)
    return applied


async def migrate_url(url: str) -> list[str]:
    """:func:`migrate` on the database ``url`` (``scopa admin migrate``); StorageError if it
    cannot be reached or used."""
    try:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=10) as conn:
            return await migrate(conn)
    except psycopg.Error as exc:
        raise StorageError(f"cannot use the database: {first_line(exc)}") from exc
