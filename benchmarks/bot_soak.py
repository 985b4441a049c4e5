"""Many `scopa bot`s from one host, through network faults, for a long time: does the
server's memory level off?

    python benchmarks/bot_soak.py [--minutes 30] [--bots 40] [--every 30] [--tracemalloc]
                                  [--seed 1] [--trust-address]

The server runs in a child process (this script with ``--serve``: ``scopa serve``'s
``serve()`` with the default ``Limits``, no journal).  The bots (``scopa bot``
processes, two strategies, three games to 11 each, then another bot takes the place of
the one that finished) reach it through a fault proxy (tests/faultproxy.py: 2-10 ms of
latency per chunk, and connections reset after a random 2-200 KB, so bots lose their
connection mid-game, resume their seat and play on).

Every ``--every`` seconds one line: minutes, the server's resident memory (MB, from
/proc), and what the server holds (connections, names, tables by state, finished
tables listed, seats remembered by the resume limit, Python objects tracked by the
collector), and the bots (running, finished with status 0, with another status) and
the proxy (connections, resets).  With ``--tracemalloc`` the server traces its
allocations (slower, more memory) and each line is followed by the five places whose
allocations grew most since the first line (file:line, KB).  At the end: the curve as
one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the fault proxy

from faultproxy import FaultProxy, Faults  # noqa: E402
from server_load import rss_kb  # noqa: E402  (this folder is on sys.path when run as a script)

CHILD_SERVE = "--serve"


# ---------------------------------------------------------------------- the server child

async def _serve(port: int, every: float, trace: bool, trusted: bool) -> None:
    import logging
    import tracemalloc

    from scopa.protocol import TableState
    from scopa.server import Limits, serve

    logging.basicConfig(level=logging.ERROR)  # the server's own log is not what is measured here
    if trace:
        tracemalloc.start(8)
    first: list[Any] = []

    async def report(engine: Any) -> None:
        print(json.dumps({"port": engine.port}), flush=True)
        while True:
            await asyncio.sleep(every)
            states: dict[str, int] = {}
            for _, table in engine.tables.items():
                key = "closed" if table.closed else str(table.state.value)
                states[key] = states.get(key, 0) + 1
            line: dict[str, Any] = {
                "rss_mb": round(rss_kb(os.getpid()) / 1024, 1), "connections": len(engine.sessions),
                "names": len(engine.names), "tables": states,
                "finished_listed": sum(1 for _, t in engine.tables.items() if t.state is TableState.FINISHED),
                "resume_seats": len(engine.router.greeting.resumes), "gc_objects": len(gc.get_objects()),
            }
            if trace:
                snap = tracemalloc.take_snapshot().filter_traces(
                    (tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen *>")))
                if not first:
                    first.append(snap)
                grown = snap.compare_to(first[0], "lineno")[:5]
                line["grown_kb"] = [f"{s.traceback[0].filename.rsplit('/', 2)[-1]}:{s.traceback[0].lineno} "
                                    f"{s.size_diff / 1024:+.0f} ({s.count_diff:+d})" for s in grown]
            print(json.dumps(line), flush=True)

    limits = Limits(trusted_addresses=("127.0.0.1",)) if trusted else Limits()
    await serve("127.0.0.1", port, limits=limits, beside=report)


# ---------------------------------------------------------------------- the bots

class Farm:
    """``bots`` `scopa bot` processes at all times, each playing a few games."""

    def __init__(self, address: str, bots: int, log_dir: Path) -> None:
        self.address = address
        self.bots = bots
        self.log_dir = log_dir
        self.running: dict[int, tuple[subprocess.Popen[bytes], Path]] = {}
        self.ok = 0
        self.failed: list[str] = []
        self._next = 0

    def _start(self) -> None:
        n = self._next
        self._next += 1
        out = self.log_dir / f"bot{n}.log"
        with out.open("wb") as f:
            proc = subprocess.Popen(
                [sys.executable, "-m", "scopa.cli", "bot", "--server", self.address, "--name", f"soak{n}",
                 "--strategy", "greedy" if n % 2 else "random", "--seed", str(n), "--games", "3",
                 "--target", "11"],
                stdout=f, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))
        self.running[n] = (proc, out)

    def tend(self) -> None:
        """Count the bots that ended and start others in their place."""
        for n, (proc, out) in list(self.running.items()):
            if proc.poll() is None:
                continue
            del self.running[n]
            if proc.returncode == 0:
                self.ok += 1
                out.unlink(missing_ok=True)
            else:
                last = (out.read_text(errors="replace").strip().splitlines() or [""])[-1]
                self.failed.append(f"bot{n} exit {proc.returncode}: {last}")
        while len(self.running) < self.bots:
            self._start()

    def stop(self) -> None:
        for proc, _ in self.running.values():
            proc.terminate()
        for proc, _ in self.running.values():
            proc.wait(10)


async def _soak(args: argparse.Namespace) -> None:
    child = [sys.executable, __file__, CHILD_SERVE, "--every", str(args.every)]
    if args.tracemalloc:
        child.append("--tracemalloc")
    if args.trust_address:
        child.append("--trust-address")
    server = await asyncio.create_subprocess_exec(*child, stdout=asyncio.subprocess.PIPE)
    assert server.stdout is not None
    port = json.loads(await server.stdout.readline())["port"]
    faults = Faults(latency=0.002, jitter=0.008, reset_budget=(2_000, 200_000), max_resets=10**9)
    log_dir = Path(args.log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    curve: list[tuple[float, float]] = []
    async with FaultProxy(port, faults, seed=args.seed) as proxy:
        farm = Farm(f"127.0.0.1:{proxy.port}", args.bots, log_dir)
        began = time.monotonic()
        print(f"server pid {server.pid}, port {port}; {args.bots} bots through the fault proxy at {proxy.port}; "
              f"{args.minutes} min", flush=True)
        print(f"{'min':>5} {'rss MB':>7}  server / bots / proxy", flush=True)
        farm.tend()
        ended = False
        try:
            while not ended:
                reading = asyncio.ensure_future(server.stdout.readline())
                while not reading.done():
                    farm.tend()
                    await asyncio.wait({reading}, timeout=1.0)
                raw = reading.result()
                if not raw:
                    raise RuntimeError("the server ended")
                line = json.loads(raw)
                minutes = (time.monotonic() - began) / 60
                curve.append((round(minutes, 1), line["rss_mb"]))
                grown = line.pop("grown_kb", None)
                rss = line.pop("rss_mb")
                print(f"{minutes:5.1f} {rss:7.1f}  {json.dumps(line)} / running {len(farm.running)}, ok {farm.ok}, "
                      f"failed {len(farm.failed)} / connections {proxy.stats.connections}, resets "
                      f"{proxy.stats.resets}", flush=True)
                for g in grown or ():
                    print(f"        {g}", flush=True)
                ended = minutes >= args.minutes
        finally:
            farm.stop()
            server.terminate()
            await server.wait()
    for failure in farm.failed[:10]:
        print("failed:", failure)
    print(json.dumps({"bots": args.bots, "minutes": args.minutes, "games_bots_ok": farm.ok,
                      "bots_failed": len(farm.failed), "resets": proxy.stats.resets, "rss_mb": curve}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--bots", type=int, default=40)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between two lines")
    parser.add_argument("--seed", type=int, default=1, help="the fault proxy's seed")
    parser.add_argument("--tracemalloc", action="store_true", help="the server traces its allocations")
    parser.add_argument("--trust-address", action="store_true", help="the server trusts 127.0.0.1 (no per-address caps)")
    parser.add_argument("--log-dir", default="/tmp/bot_soak", help="where the bots' output is kept (failed ones)")
    parser.add_argument(CHILD_SERVE, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(_serve(0, args.every, args.tracemalloc, args.trust_address))
    else:
        asyncio.run(_soak(args))


if __name__ == "__main__":
    main()
