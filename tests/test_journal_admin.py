"""``scopa admin migrate --db``: a PostgreSQL database brought up to the shipped schema
once, a newer one refused in one line; an SQLite file migrated the same way."""

from __future__ import annotations

import subprocess
import sys

import psycopg

from pg import pg_url  # noqa: F401 - the fixture


def _admin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from scopa.client.cli import main; raise SystemExit(main())", "admin", *args],
                          capture_output=True, text=True, timeout=60)


def test_admin_migrate_applies_the_shipped_files_once_and_refuses_a_newer_database(pg_url: str, tmp_path) -> None:
    first = _admin("migrate", "--db", pg_url)
    assert first.returncode == 0 and "001_journal.sql, 002_archive.sql" in first.stdout
    again = _admin("migrate", "--db", pg_url)
    assert again.returncode == 0 and "up to date" in again.stdout
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    newer = _admin("migrate", "--db", pg_url)
    assert newer.returncode == 1 and "newer version of the server" in newer.stdout and "Traceback" not in newer.stderr
    path = str(tmp_path / "j.db")
    assert "format new" in _admin("migrate", "--db", path).stdout
    assert "up to date" in _admin("migrate", "--db", path).stdout
