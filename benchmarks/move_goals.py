"""The server's move figures against their goals, in one command for a quiet machine.

    python benchmarks/move_goals.py [--loops asyncio,uvloop] [--repeat 5] [--think-ms 100] [--smoke]

It runs ``server_load.py`` (each in a process of its own, one after the other):

1. ``--vs-lean --tables 50 --games 2`` (two seats) and ``--vs-lean --tables 250 --preset
   scopone --games 1`` (four seats), each ``--repeat`` times alternated with the lean relay,
   on each loop of ``--loops``: the server's CPU per move over the relay's (medians), and the
   server's memory per four-seat table;
2. ``--tables 250 --preset scopone --think-ms T --seconds 15`` on each loop, an open loop
   (each seat answers about T ms after its your_turn, 2,500 moves a second at T = 100):
   the p99 of a move's time in the server, from the move taken to the next seat's
   your_turn written (``scopa_turn_seconds``), and from the play written to the next
   your_turn read.  The games under way at the window's end finish unmeasured (a
   scopone game is about 314 moves: 31 s at T = 100).

and prints each figure beside its goal: CPU ratio at most 2.5, memory per four-seat table
at most 30 kB, p99 in the server under 2 ms.  About 3.5 to 4 minutes per loop on an
idle 2-core machine (``--loops asyncio`` for one); ``--smoke`` runs 5 and 10 tables to
check the plumbing, not the figures; the last line is a JSON object with every figure.  Run it with nothing
else busy: CPU seconds spread by ±15% or more under load (``callgrind_moves.py`` counts
instructions instead, whatever the load).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
RATIO_GOAL = 2.5
KB_GOAL = 30.0
P99_GOAL_MS = 2.0


def last_json(args: list[str]) -> dict[str, Any]:
    """Run ``server_load.py`` with ``args`` (its lines shown as they come) and return its last line's JSON."""
    command = [sys.executable, os.path.join(HERE, "server_load.py"), *args]
    print("$ " + " ".join(["python", "benchmarks/server_load.py", *args]), flush=True)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    last = ""
    for line in proc.stdout:
        if line.startswith("{"):
            last = line
        else:
            print("  " + line.rstrip(), flush=True)
    if proc.wait() != 0 or not last:
        raise SystemExit(f"server_load.py {' '.join(args)} failed (exit {proc.returncode})")
    figures: dict[str, Any] = json.loads(last)
    return figures


def verdict(value: float | None, goal: float, below: bool = False) -> str:
    if value is None or value != value:  # None or NaN
        return "no figure"
    ok = value < goal if below else value <= goal
    return "meets the goal" if ok else "misses the goal"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--loops", default="asyncio,uvloop", help="the server's event loops, comma-separated")
    ap.add_argument("--repeat", type=int, default=5, help="alternated runs of each --vs-lean (default 5)")
    ap.add_argument("--think-ms", type=float, default=100.0, help="the open loop's think time (default 100)")
    ap.add_argument("--smoke", action="store_true", help="5 and 10 tables, a 5-second open loop: the plumbing only")
    args = ap.parse_args(argv)
    started = time.monotonic()
    out: dict[str, Any] = {"load_average_at_start": os.getloadavg()[0]}
    rows: list[tuple[str, str, str]] = []
    many, few, seconds = ("10", "5", "5") if args.smoke else ("250", "50", "15")
    for loop in args.loops.split(","):
        two = last_json(["--vs-lean", "--tables", few, "--games", "2", "--repeat", str(args.repeat), "--loop", loop])
        four = last_json(["--vs-lean", "--tables", many, "--preset", "scopone", "--games", "1",
                          "--repeat", str(args.repeat), "--loop", loop])
        open_loop = last_json(["--tables", many, "--preset", "scopone", "--think-ms", f"{args.think_ms:g}",
                               "--seconds", seconds, "--loop", loop])
        p99 = open_loop["server_turn_ms"]["p99"]
        out[loop] = {"two_seats_50_tables": two, "four_seats_250_tables": four, "open_loop_250_tables": open_loop}
        rows += [
            (f"{loop}: CPU per move / lean relay, 2 seats x {few} tables", f"{two['ratio']}", verdict(two["ratio"], RATIO_GOAL)),
            (f"{loop}: CPU per move / lean relay, 4 seats x {many} tables", f"{four['ratio']}",
             verdict(four["ratio"], RATIO_GOAL)),
            (f"{loop}: memory per 4-seat table", f"{four['server_kb_per_table']} kB",
             verdict(four["server_kb_per_table"], KB_GOAL)),
            (f"{loop}: p99 move taken -> next your_turn written, {many} tables, think {args.think_ms:g} ms",
             f"{p99} ms (read by the client: {open_loop['turn_latency_ms']['p99']} ms)", verdict(p99, P99_GOAL_MS, True)),
        ]
    print()
    for what, value, judged in rows:
        print(f"{what}: {value}  [{judged}]")
    out["minutes"] = round((time.monotonic() - started) / 60, 1)
    out["load_average_at_end"] = os.getloadavg()[0]
    print(f"{out['minutes']} minutes; load average {out['load_average_at_start']:.1f} at the start, "
          f"{out['load_average_at_end']:.1f} at the end")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
