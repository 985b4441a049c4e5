"""A server started on a journal it cannot use says what is wrong and exits with status
1 before it claims to serve: a file that is not a database, a truncated one, a missing
directory, a PostgreSQL server out of reach."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


def _serve(db: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from scopa.cli import main; raise SystemExit(main())",
                           "serve", "--port", "0", "--db", db, "--admin-token-file", str(cwd / "token")],
                          capture_output=True, text=True, timeout=60, cwd=cwd)


def _truncated(path: Path) -> None:
    con = sqlite3.connect(path.with_suffix(".whole"))
    con.execute("CREATE TABLE t (x)")
    con.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 100)
    con.commit()
    con.close()
    path.write_bytes(path.with_suffix(".whole").read_bytes()[:20_000])


@pytest.mark.parametrize("kind", ["not a database", "truncated", "missing directory", "postgres out of reach"])
def test_an_unusable_journal_is_named_before_the_server_claims_to_serve(kind: str, tmp_path: Path) -> None:
    db = str(tmp_path / "journal.db")
    if kind == "not a database":
        Path(db).write_bytes(b"this is a shopping list, not a journal\n" * 50)
    elif kind == "truncated":
        _truncated(Path(db))
    elif kind == "missing directory":
        db = str(tmp_path / "no-such-dir" / "journal.db")
    else:
        db = "postgresql://nobody@127.0.0.1:1/none"  # port 1: nothing listens there
    done = _serve(db, tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "cannot use the journal" in out and "Scopa server on" not in out and "Traceback" not in out
