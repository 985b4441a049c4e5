"""What Redis carries for a cluster: per move and per lobby change.

    python benchmarks/cluster_redis.py [--games 5] [--redis URL] [--db postgresql://...]

Two members in this process share a lobby (a key prefix of the run's own; with ``--db``
they share that journal too, and hold each table's lease).  Each game: a table made on
member A with a bot, and a person whose client is connected to member B (sent to A by a
``redirect``) playing it to the end.  Redis's MONITOR hears every command; those of
this run (naming its prefix) are counted while the games play: the commands and their
bytes (arguments) per move, and per lobby change (a ``table`` message on the lobby's
channel).  The members' own timers (liveness every 10/3 s, leases every second) are
counted too, apart.  Prints the figures (tests never assert them).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from collections import Counter

from redis.asyncio import Redis

from scopa.bots import make_bot
from scopa.client.net import ClientSession
from scopa.server import NetworkEngine
from scopa.server.cluster import ClusterOptions


async def run(redis_url: str, db: str | None, games: int) -> None:
    prefix = f"scopa-redis-{uuid.uuid4().hex[:10]}"
    options = ClusterOptions(url=redis_url, prefix=prefix, shared_journal=db is not None)
    a = NetworkEngine("127.0.0.1", 0, seed=1, db=db, cluster=options)
    b = NetworkEngine("127.0.0.1", 0, seed=2, db=db, cluster=options)
    await a.start()
    await b.start()
    monitor = Redis.from_url(redis_url)
    heard: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    stop = asyncio.Event()

    async def listen() -> None:
        async with monitor.monitor() as m:
            async for command in m.listen():
                text = command.get("command", "")
                if prefix not in text or command.get("client_type") == "lua":
                    continue  # another run's, or run by a script (counted as its EVAL)
                name = text.split(" ", 1)[0].upper()
                kind = "table news" if name == "PUBLISH" and '"table"' in text.replace('\\', '') else name
                heard[kind] += 1
                sizes[kind] += len(text.encode())
                if stop.is_set():
                    return

    listening = asyncio.create_task(listen())
    await asyncio.sleep(0.5)  # MONITOR is on
    moves = 0
    started = time.monotonic()
    try:
        for i in range(games):
            maker = await ClientSession.connect("127.0.0.1", a.port, f"maker{i}")
            table = await maker.create_table(fill_with_bots=["random"], sit=False)
            while b.tables.remote.get(table.id) is None:
                await asyncio.sleep(0.01)
            ann = await ClientSession.connect("127.0.0.1", b.port, f"ann{i}")
            await ann.join_table(table.id)
            result = await ann.play_game(make_bot("random", f"ann{i}", seed=i))
            moves += sum(1 for e in result.events if type(e).__name__ == "Played")
            await ann.close()
            await maker.close()
        elapsed = time.monotonic() - started
        await asyncio.sleep(0.5)
    finally:
        stop.set()
        listening.cancel()
        await asyncio.gather(listening, return_exceptions=True)
        await b.stop()
        await a.stop()
        keys = [key async for key in monitor.scan_iter(match=f"{prefix}:*")]  # the run's keys out of Redis
        if keys:
            await monitor.delete(*keys)
        await monitor.aclose()
    total, total_bytes = sum(heard.values()), sum(sizes.values())
    changes = heard["table news"]
    print(f"{games} games, {moves} moves in {elapsed:.1f} s, two members ({'a shared journal' if db else 'no journal'})")
    for kind, count in heard.most_common():
        print(f"  {kind:12} {count:6} commands, {sizes[kind]:8} bytes")
    print(f"every command of the run: {total / moves:.3f} per move, {total_bytes / moves:.1f} bytes per move "
          f"(none of them on a move's path: {changes} lobby changes, the members' timers)")
    per_change = (heard["HSET"] + heard["HDEL"] + changes) / changes if changes else 0
    print(f"per lobby change: {per_change:.2f} commands (the member's hash, then the channel's message), "
          f"{(sizes['HSET'] + sizes['HDEL'] + sizes['table news']) / max(changes, 1):.0f} bytes")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--db", default=None, help="a PostgreSQL journal the two members share (default: none)")
    args = ap.parse_args(argv)
    asyncio.run(run(args.redis, args.db, args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
