"""The journal's own cost per move, without the network or a load generator beside it.

    python benchmarks/journal_cost.py [--db FILE|postgresql://...] [--tables N] [--moves M] [--repeat R]

``--tables`` tables (default 50) each append their actions one after another, as a
table's game master does (the next action only once the journal has stored the one
before), through the server's own journal (:func:`scopa.server.journal.sqlite.process.open_storage`:
an SQLite file in its writer process, or PostgreSQL on the event loop), and once with
no journal at all.  It prints the server process's CPU per move for each, its children's
(the SQLite journal's writer process; from /proc while it runs), and the moves per
batch.  ``server_load.py --db`` measures the same journal inside a loaded server,
where the extra process's wake-ups and the cores it shares with the server and the load
generator add to this.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from scopa.engine import Play, RuleSet
from scopa.server.journal.commands import CloseTable, CreateTable, StartTable, is_postgres
from scopa.server.table.journaling import TableJournal
from scopa.server.journal.backends import open_storage
from scopa.server.journal.sqlite.process import StorageProcess

from server_load import cpu_seconds  # this folder is on sys.path when a benchmark is run as a script


@dataclass(frozen=True)
class Cost:
    """One run's CPU per move (µs): this process's and its children's, and the moves per
    batch sent to the SQLite writer (None for another journal)."""

    server_us: float
    children_us: float
    moves_per_batch: float | None


async def play(journals: list[TableJournal], moves: int) -> None:
    """Each table appends ``moves // len(journals)`` actions, awaiting each one's write."""

    async def table(journal: TableJournal) -> None:
        for index in range(moves // len(journals)):
            await asyncio.sleep(0)  # the table's next answer comes in a later loop turn
            written = journal.append(index, Play(3, 0))
            if written is not None:
                await written

    await asyncio.gather(*(table(j) for j in journals))


async def run_once(db: str | None, tables: int, moves: int) -> Cost:
    storage = open_storage(db) if db else None
    ids = [f"cost-{uuid.uuid4().hex[:10]}" for _ in range(tables)]
    if storage is not None:
        for table_id in ids:
            storage.write(CreateTable(table_id, RuleSet(), 1))
            storage.write(StartTable(table_id))
        await storage.flush()
    writer = storage if isinstance(storage, StorageProcess) else None
    batches0 = writer.batches if writer is not None else 0
    cpu0, all0 = time.process_time(), cpu_seconds(os.getpid())
    await play([TableJournal(t, storage) for t in ids], moves)
    cpu, everyone = time.process_time() - cpu0, cpu_seconds(os.getpid()) - all0
    batches = writer.batches - batches0 if writer is not None else 0
    if storage is not None:
        for table_id in ids:
            storage.write(CloseTable(table_id, "benchmark"))  # nothing left running to restore
        await storage.close()
    done = moves // tables * tables
    return Cost(cpu / done * 1e6, max(everyone - cpu, 0.0) / done * 1e6, done / batches if batches else None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default=None, metavar="FILE|URL", help="the journal (default: a fresh SQLite file)")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--moves", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5, help="runs of each, alternately; medians printed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "journal.db")
        bare: list[Cost] = []
        journaled: list[Cost] = []
        for _ in range(args.repeat):
            bare.append(asyncio.run(run_once(None, args.tables, args.moves)))
            journaled.append(asyncio.run(run_once(db, args.tables, args.moves)))
    no_journal = statistics.median(c.server_us for c in bare)
    server = statistics.median(c.server_us for c in journaled)
    writer = statistics.median(c.children_us for c in journaled) if not is_postgres(db) else None
    batch = [c.moves_per_batch for c in journaled if c.moves_per_batch is not None]
    print(f"CPU per move, median of {args.repeat}: no journal {no_journal:.2f} us; journal ({args.db or 'SQLite'}):"
          f" server {server:.2f} us" + (f" + writer process {writer:.2f} us" if writer is not None else "")
          + (f", {statistics.median(batch):.1f} moves per batch" if batch else ""))
    print(json.dumps({"journal": args.db or "sqlite", "tables": args.tables, "moves": args.moves,
                      "no_journal_us_per_move": round(no_journal, 2), "server_us_per_move": round(server, 2),
                      "writer_us_per_move": round(writer, 2) if writer is not None else None,
                      "journal_us_per_move": round(server - no_journal + (writer or 0.0), 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
