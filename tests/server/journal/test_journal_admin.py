"""``scopa admin migrate --db``: a PostgreSQL database brought up to the shipped schema
once, a newer one refused in one line; an SQLite file migrated the same way."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import psycopg

from scopa.bots import GreedyBot, RandomBot
from scopa.client.net import ClientSession
from scopa.server import NetworkEngine
from scopa.server.journal.values import Account
from scopa.server.journal.commands import SaveAccount

from pg import pg_url  # noqa: F401 - the fixture


def _admin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from scopa.cli import main; raise SystemExit(main())", "admin", *args],
                          capture_output=True, text=True, timeout=60)


def test_admin_migrate_applies_the_shipped_files_once_and_refuses_a_newer_database(pg_url: str, tmp_path) -> None:
    first = _admin("migrate", "--db", pg_url)
    assert first.returncode == 0 and "001_journal.sql, 002_archive.sql" in first.stdout
    assert "003_refusals.sql, 004_fence.sql" in first.stdout
    again = _admin("migrate", "--db", pg_url)
    assert again.returncode == 0 and "up to date" in again.stdout
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    newer = _admin("migrate", "--db", pg_url)
    assert newer.returncode == 1 and "newer version of the server" in newer.stderr and "Traceback" not in newer.stderr
    path = str(tmp_path / "j.db")
    assert "format new" in _admin("migrate", "--db", path).stdout
    assert "up to date" in _admin("migrate", "--db", path).stdout


def _cli(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from scopa.cli import main; raise SystemExit(main())", *args],
                          input=stdin, capture_output=True, text=True, timeout=120)


async def test_export_and_import_round_trip_sqlite_postgres_sqlite(pg_url: str, tmp_path) -> None:
    """Finished games (records, docs/RECORDS.md), ratings and accounts: SQLite -> PostgreSQL
    -> SQLite with nothing lost (R7: each imported game replays from its record)."""
    first = str(tmp_path / "a.db")
    engine = NetworkEngine("127.0.0.1", 0, seed=3, db=first,
                           rate_shared_addresses=["127.0.0.1"])  # rated games between two people here
    await engine.start()
    try:
        for seed in (1, 2):
            async with await ClientSession.connect("127.0.0.1", engine.port, f"ada{seed}") as ada, \
                    await ClientSession.connect("127.0.0.1", engine.port, f"bob{seed}") as bob:
                table = (await ada.create_table(preset="scopa")).id
                await bob.join_table(table)
                await asyncio.gather(ada.play_game(RandomBot(seed=seed)), bob.play_game(GreedyBot()))
        await engine.ratings.close()  # the ratings of the last game are written
        await engine.storage.write(SaveAccount(Account("Ada1", b"salt", b"hash", 16384, 8, 1, 12.5)))
    finally:
        await engine.stop()
    exported = _cli(["admin", "export", "--db", first])
    assert exported.returncode == 0, exported.stderr
    lines = exported.stdout.splitlines()
    kinds = [json.loads(line)["kind"] for line in lines]
    assert kinds.count("game") == 2 and kinds.count("rating") >= 2 and kinds.count("account") == 1
    into_pg = _cli(["admin", "import", "--db", pg_url], exported.stdout)
    assert into_pg.returncode == 0 and "imported 2 games" in into_pg.stderr, into_pg.stderr
    from_pg = _cli(["admin", "export", "--db", pg_url])
    assert from_pg.stdout.splitlines() == lines
    last = str(tmp_path / "c.db")
    assert _cli(["admin", "import", "--db", last], from_pg.stdout).returncode == 0
    assert _cli(["admin", "export", "--db", last]).stdout.splitlines() == lines
    again = _cli(["admin", "import", "--db", last], from_pg.stdout)  # the same games again: each named, none twice
    assert again.returncode == 1 and again.stderr.count("already exists") == 2
