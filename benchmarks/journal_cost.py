"""The journal's own cost per move, without the network or a load generator beside it.

    python benchmarks/journal_cost.py [--db FILE|postgresql://...] [--tables N] [--moves M] [--repeat R]

``--tables`` tables (default 50) each append their actions one after another, as a
table's game master does (the next action only once the journal has stored the one
before), through the server's own journal (:func:`scopa.server.writer_process.open_storage`:
an SQLite file in its writer process, or PostgreSQL on the event loop), and once with
no journal at all.  It prints the server process's CPU per move for each, the journal's
writer process's CPU per move (SQLite; read from /proc while it runs), and the writes
per batch.  ``server_load.py --db`` measures the same journal inside a loaded server,
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
from pathlib import Path

from scopa.engine import Play, RuleSet
from scopa.server.journal import CloseTable, CreateTable, StartTable
from scopa.server.tablejournal import TableJournal
from scopa.server.writer_process import StorageProcess, open_storage


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return sum(int(x) for x in fields[11:13]) / os.sysconf("SC_CLK_TCK")


async def play(journals: list[TableJournal], moves: int) -> None:
    """Each table appends ``moves // len(journals)`` actions, awaiting each one's write."""

    async def table(journal: TableJournal) -> None:
        for index in range(moves // len(journals)):
            await asyncio.sleep(0)  # the table's next answer comes in a later loop turn
            written = journal.append(index, Play(3, 0))
            if written is not None:
                await written

    await asyncio.gather(*(table(j) for j in journals))


async def run_once(db: str | None, tables: int, moves: int) -> dict[str, float | None]:
    storage = open_storage(db) if db else None
    ids = [f"cost-{uuid.uuid4().hex[:10]}" for _ in range(tables)]
    if storage is not None:
        for table_id in ids:
            storage.write(CreateTable(table_id, RuleSet(), 1))
            storage.write(StartTable(table_id))
        await storage.flush()
    child = storage._proc.pid if isinstance(storage, StorageProcess) else None
    frames0 = _frames(storage)
    child0 = process_cpu(child) if child else 0.0
    cpu0 = time.process_time()
    await play([TableJournal(t, storage) for t in ids], moves)
    cpu = time.process_time() - cpu0
    child_cpu = process_cpu(child) - child0 if child else None
    frames = _frames(storage) - frames0
    if storage is not None:
        for table_id in ids:
            storage.write(CloseTable(table_id, "benchmark"))  # nothing left running to restore
        await storage.close()
    done = moves // tables * tables
    return {"server_us_per_move": cpu / done * 1e6,
            "writer_us_per_move": child_cpu / done * 1e6 if child_cpu is not None else None,
            "moves_per_batch": done / frames if frames else None}


def _frames(storage: object) -> int:
    """Batches sent to the SQLite writer so far (0 for another journal)."""
    return int(getattr(storage, "batches", 0))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default=None, metavar="FILE|URL", help="the journal (default: a fresh SQLite file)")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--moves", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5, help="runs of each, alternately; medians printed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "journal.db")
        bare: list[float] = []
        journaled: list[dict[str, float | None]] = []
        for _ in range(args.repeat):
            bare.append(float(asyncio.run(run_once(None, args.tables, args.moves))["server_us_per_move"] or 0))
            journaled.append(asyncio.run(run_once(db, args.tables, args.moves)))
    server = statistics.median(float(r["server_us_per_move"] or 0) for r in journaled)
    writers = [r["writer_us_per_move"] for r in journaled if r["writer_us_per_move"] is not None]
    writer = statistics.median(writers) if writers else None
    batch = [r["moves_per_batch"] for r in journaled if r["moves_per_batch"] is not None]
    no_journal = statistics.median(bare)
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
