"""How long a table change on one member of a cluster takes to reach a lobby watcher on
another: two servers in this process sharing a Redis (``--redis``, default
redis://127.0.0.1:6379/0, under a key prefix of their own, deleted afterwards); a client
of the first creates waiting tables, a lobby watcher of the second times each one's
``table_update`` from the ``create_table`` sent.

    python benchmarks/cluster_lobby.py [--tables N] [--redis URL]

Prints the median, p90 and worst in milliseconds; the last line is a JSON object with
the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from wire_client import WireClient  # noqa: E402

from scopa.protocol import commands as wire  # noqa: E402
from scopa.server import Limits, NetworkEngine  # noqa: E402
from scopa.server.cluster import ClusterOptions  # noqa: E402


async def measure(tables: int, url: str) -> list[float]:
    prefix = f"scopa-bench-{uuid.uuid4().hex[:12]}"
    limits = Limits(max_waiting_tables_per_client=None, max_waiting_tables=None, max_waiting_tables_per_address=None,
                    commands_per_second=None)
    a, b = (NetworkEngine("127.0.0.1", 0, seed=i, limits=limits, cluster=ClusterOptions(url=url, prefix=prefix))
            for i in (1, 2))
    await a.start()
    await b.start()
    spent: list[float] = []
    try:
        maker = await WireClient.connect(a.port, "maker")
        watcher = await WireClient.connect(b.port, "watcher")
        watcher.send(wire.WatchLobby())
        await watcher.recv_until("tables")
        seen: set[str] = set()
        for _ in range(tables):
            start = time.perf_counter()
            maker.send(wire.CreateTable(sit=False))
            while (update := await watcher.recv_until("table_update")).body.table.id in seen:
                pass
            spent.append((time.perf_counter() - start) * 1000)
            seen.add(update.body.table.id)
            await maker.recv_until("table_created")
        await maker.close()
        await watcher.close()
    finally:
        await a.stop()
        await b.stop()
        from redis.asyncio import Redis

        client = Redis.from_url(url)
        keys = [key async for key in client.scan_iter(match=f"{prefix}:*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    spent = sorted(asyncio.run(measure(args.tables, args.redis)))
    figures = {"tables": len(spent), "median_ms": round(statistics.median(spent), 3),
               "p90_ms": round(spent[int(len(spent) * 0.9)], 3), "max_ms": round(spent[-1], 3)}
    print(f"create_table on member A -> table_update to a lobby watcher on member B, {len(spent)} tables: "
          f"median {figures['median_ms']} ms, p90 {figures['p90_ms']} ms, worst {figures['max_ms']} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
