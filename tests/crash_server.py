"""A journaled server in a child process that is killed (SIGKILL) at a chosen journal
position, for the crash test (tests/server/journal/test_crash.py).

    python crash_server.py DB SEED KILL_AT COUNT_FROM

It listens on 127.0.0.1 (port 0) and prints its port on the first line of stdout.  Its
journal is written by the usual writer process, run as tests/crash_writer.py, which
watches every statement it sends to SQLite.  Once the ``KILL_AT``-th insert of an
action with index >= 1 into a table numbered ``COUNT_FROM`` or more has been committed,
the writer sends SIGKILL to the server and to itself at the start of its next
statement: that action is journaled (perhaps not yet announced to anyone) and its table
is cut mid-game, whether the journal commits each action alone or several in one
transaction (or in one multi-row insert).
``KILL_AT`` 0: no kill; the process stops by itself once every game it holds has ended.

With a ``postgresql://`` DB the journal is the PostgreSQL backend on the server's event
loop, and the kill (of this whole process) comes right after the commit of the
batch that holds the chosen action, before the server hears that it is stored.

Its clock is a :class:`FakeClock` nobody advances: no turn timer, grace period, ping or
token refill depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any, Sequence

from scopa.server.core.clock import FakeClock
from scopa.server import Limits, NetworkEngine
from scopa.server.journal.commands import AppendAction, Journal, Request, is_postgres
from scopa.server.journal.postgres.storage import PostgresStorage
from scopa.server.journal.writer import StorageWriter
from scopa.server.journal.sqlite.process import StorageProcess

CRASH_WRITER = Path(__file__).with_name("crash_writer.py")


async def _serve(db: str, seed: int, kill_at: int, count_from: int) -> None:
    limits = Limits(commands_per_second=None, max_bot_tables_per_client=None, max_bot_tables=None)
    storage: Journal
    if is_postgres(db):
        storage = StorageWriter(KilledPostgres(db, kill_at, count_from))
    else:
        storage = StorageProcess(db, command=[sys.executable, str(CRASH_WRITER), str(kill_at), str(count_from)])
    engine = NetworkEngine("127.0.0.1", 0, seed=seed, storage=storage, grace=3600.0, turn_timeout=None,
                           clock=FakeClock(), limits=limits)
    await engine.start()
    print(engine.port, flush=True)
    if kill_at:
        await asyncio.Event().wait()  # until the journal position kills the process
    tasks = [t.task for t in engine.tables.values() if t.task is not None]
    await asyncio.gather(*tasks, return_exceptions=True)
    await engine.stop()


class KilledPostgres(PostgresStorage):
    """The PostgreSQL journal, killing this process (SIGKILL) once the ``kill_at``-th
    action of index >= 1 of a table numbered ``count_from`` or more is committed."""

    def __init__(self, url: str, kill_at: int, count_from: int) -> None:
        super().__init__(url)
        self.kill_at, self.count_from, self.counted = kill_at, count_from, 0

    async def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        results = await super().run_batch(requests)
        for request, result in zip(requests, results):
            if isinstance(request, AppendAction) and result is None and int(request.table_id) >= self.count_from \
                    and request.index >= 1:
                self.counted += 1
                if self.kill_at and self.counted >= self.kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)  # committed; nobody has been told yet
        return results


def main(argv: list[str]) -> None:
    db, seed, kill_at, count_from = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    asyncio.run(_serve(db, seed, kill_at, count_from))


if __name__ == "__main__":
    main(sys.argv[1:])
