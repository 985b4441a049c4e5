"""The journal's writer process for tests/crash_server.py: the server's own
(``scopa.server.writer_process``), with every SQLite statement watched; at the chosen
journal position it kills the server and itself with SIGKILL.

    python crash_writer.py KILL_AT COUNT_FROM PATH SYNCHRONOUS
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import sys
from typing import Any

from scopa.server import writer_process

_INSERT = re.compile(r"\s*INSERT INTO actions\b", re.IGNORECASE)
_VALUES = re.compile(r"VALUES\s*\(\s*'(\d+)'\s*,\s*(\d+)\s*,", re.IGNORECASE)
_ROW = re.compile(r"(?:VALUES|,)\s*\(\s*'(\d+)'\s*,\s*(\d+)\s*,", re.IGNORECASE)  # each row of a multi-row insert


def _kill_all() -> None:
    os.kill(os.getppid(), signal.SIGKILL)  # the server
    os.kill(os.getpid(), signal.SIGKILL)


class JournalKiller:
    """Counts the journal's action inserts and kills the server and this process once
    the chosen one is committed."""

    def __init__(self, kill_at: int, count_from: int) -> None:
        self.kill_at = kill_at
        self.count_from = count_from
        self.counted = 0
        self.armed = False  # the chosen insert has run
        self.in_transaction = False  # an explicit transaction is open (not yet committed)

    def __call__(self, statement: str) -> None:
        # Called as each statement starts: a kill here comes before it runs.
        if self.armed and not self.in_transaction:
            _kill_all()
        words = statement.split(None, 1)
        first = words[0].upper() if words else ""
        if first == "BEGIN":
            self.in_transaction = True
        elif first in ("COMMIT", "END", "ROLLBACK"):
            self.in_transaction = False
        if not _INSERT.match(statement):
            return
        if _VALUES.search(statement) is None:  # a journal this helper cannot read: say so, do not guess
            os.write(2, f"crash_writer: unrecognised insert: {statement[:200]}\n".encode())
            os.kill(os.getppid(), signal.SIGABRT)  # not the SIGKILL the test waits for
            os._exit(3)
        for row in _ROW.finditer(statement):  # one action per row
            table, index = int(row[1]), int(row[2])
            if table >= self.count_from and index >= 1:
                self.counted += 1
                if self.counted == self.kill_at:
                    self.armed = True


def _watch_sqlite(killer: JournalKiller) -> None:
    """Every SQLite connection this process opens reports its statements to ``killer``."""
    connect = sqlite3.connect

    def watched(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = connect(*args, **kwargs)
        connection.set_trace_callback(killer)
        return connection

    sqlite3.connect = watched  # type: ignore[assignment]


def main(argv: list[str]) -> None:
    kill_at, count_from = int(argv[0]), int(argv[1])
    if kill_at:
        _watch_sqlite(JournalKiller(kill_at, count_from))
    writer_process.main(argv[2:])


if __name__ == "__main__":
    main(sys.argv[1:])
