"""A journaled server in a child process that kills itself (SIGKILL) at a chosen
journal position, for the crash test (tests/test_crash.py).

    python crash_server.py DB SEED KILL_AT COUNT_FROM

It listens on 127.0.0.1 (port 0) and prints its port on the first line of stdout.
Every statement the process sends to SQLite is watched.  Once the ``KILL_AT``-th insert
of an action with index >= 1 into a table numbered ``COUNT_FROM`` or more has been
committed, the process sends itself SIGKILL at the start of its next statement: that
action is journaled (perhaps not yet announced to anyone) and its table is cut mid-game,
whether the journal commits each action alone or several in one transaction (or in one
multi-row insert).
``KILL_AT`` 0: no kill; the process stops by itself once every game it holds has ended.

Its clock is a :class:`FakeClock` nobody advances: no turn timer, grace period, ping or
token refill depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import sys
from typing import Any

from scopa.protocol.clock import FakeClock
from scopa.server import Limits, NetworkEngine

_INSERT = re.compile(r"\s*INSERT INTO actions\b", re.IGNORECASE)
_VALUES = re.compile(r"VALUES\s*\(\s*'(\d+)'\s*,\s*(\d+)\s*,", re.IGNORECASE)
_ROW = re.compile(r"(?:VALUES|,)\s*\(\s*'(\d+)'\s*,\s*(\d+)\s*,", re.IGNORECASE)  # each row of a multi-row insert


class JournalKiller:
    """Counts the journal's action inserts and kills the process once the chosen one
    is committed."""

    def __init__(self, kill_at: int, count_from: int) -> None:
        self.kill_at = kill_at
        self.count_from = count_from
        self.counted = 0
        self.armed = False  # the chosen insert has run
        self.in_transaction = False  # an explicit transaction is open (not yet committed)

    def __call__(self, statement: str) -> None:
        # Called as each statement starts: a kill here comes before it runs.
        if self.armed and not self.in_transaction:
            os.kill(os.getpid(), signal.SIGKILL)
        words = statement.split(None, 1)
        first = words[0].upper() if words else ""
        if first == "BEGIN":
            self.in_transaction = True
        elif first in ("COMMIT", "END", "ROLLBACK"):
            self.in_transaction = False
        if not _INSERT.match(statement):
            return
        if _VALUES.search(statement) is None:  # a journal this helper cannot read: say so, do not guess
            os.write(2, f"crash_server: unrecognised insert: {statement[:200]}\n".encode())
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


async def _serve(db: str, seed: int, kill_at: int) -> None:
    limits = Limits(commands_per_second=None, max_bot_tables_per_client=None, max_bot_tables=None)
    engine = NetworkEngine("127.0.0.1", 0, seed=seed, db=db, grace=3600.0, turn_timeout=None,
                           clock=FakeClock(), limits=limits)
    await engine.start()
    print(engine.port, flush=True)
    if kill_at:
        await asyncio.Event().wait()  # until the journal position kills the process
    tasks = [t.task for t in engine.tables.values() if t.task is not None]
    await asyncio.gather(*tasks, return_exceptions=True)
    await engine.stop()


def main(argv: list[str]) -> None:
    db, seed, kill_at, count_from = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    if kill_at:
        _watch_sqlite(JournalKiller(kill_at, count_from))
    asyncio.run(_serve(db, seed, kill_at))


if __name__ == "__main__":
    main(sys.argv[1:])
