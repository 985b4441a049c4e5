"""The journal's writer process for tests/crash_server.py: the server's own
(``scopa.server.journal.sqlite.child``), with every move it journals and every SQLite
statement watched; once the chosen move is in the journal (its move file, written by
this process or by the server, which then tells it), it kills the server and itself
with SIGKILL as the next journal write or statement starts.

    python crash_writer.py KILL_AT COUNT_FROM PATH SYNCHRONOUS
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
from typing import Any, Sequence

from scopa.server.journal.sqlite import child as journal_child
from scopa.server.journal.sqlite.movefile import MoveLog


def _kill_all() -> None:
    os.kill(os.getppid(), signal.SIGKILL)  # the server
    os.kill(os.getpid(), signal.SIGKILL)


class JournalKiller:
    """Counts the actions the journal takes (of tables numbered ``count_from`` on, after
    their deal) and kills the server and this process once the chosen one is journaled."""

    def __init__(self, kill_at: int, count_from: int) -> None:
        self.kill_at = kill_at
        self.count_from = count_from
        self.counted = 0
        self.armed = False  # the chosen action is journaled
        self.in_transaction = False  # an explicit transaction is open (not yet committed)

    def statement(self, statement: str) -> None:
        # Called as each statement starts: a kill here comes before it runs.
        if self.armed and not self.in_transaction:
            _kill_all()
        words = statement.split(None, 1)
        first = words[0].upper() if words else ""
        if first == "BEGIN":
            self.in_transaction = True
        elif first in ("COMMIT", "END", "ROLLBACK"):
            self.in_transaction = False

    def watch(self, logged: Any) -> Any:
        """``MoveLog.logged``: the rows written to the move file (by the server, which then
        tells this process, or by this process), counted."""

        def watched(log: MoveLog, rows: Sequence[Any]) -> None:
            if self.armed:
                _kill_all()
            logged(log, rows)
            for table_id, index, _ in rows:
                if int(table_id) >= self.count_from and index >= 1:
                    self.counted += 1
                    if self.counted == self.kill_at:
                        self.armed = True

        return watched


def _watch(killer: JournalKiller) -> None:
    """Every move journaled and every statement of every SQLite connection of this
    process reported to ``killer``."""
    connect = sqlite3.connect

    def watched(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = connect(*args, **kwargs)
        connection.set_trace_callback(killer.statement)
        return connection

    sqlite3.connect = watched  # type: ignore[assignment]
    MoveLog.logged = killer.watch(MoveLog.logged)  # type: ignore[method-assign]


def main(argv: list[str]) -> None:
    kill_at, count_from = int(argv[0]), int(argv[1])
    if kill_at:
        _watch(JournalKiller(kill_at, count_from))
    journal_child.main(argv[2:])


if __name__ == "__main__":
    main(sys.argv[1:])
