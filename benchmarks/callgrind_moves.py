"""Instructions per move: the server and the lean relay under callgrind, for the same moves.

    python benchmarks/callgrind_moves.py [--preset scopa|scopone] [--tables N] [--games G]
                                         [--loop asyncio|uvloop] [--seed S] [--top K]
                                         [--only server|lean] [--keep DIR]
    python benchmarks/callgrind_moves.py --web [--only tcp|websocket] [--tables N] [--games G] [--loop L] ...

CPU seconds per move (``server_load.py --vs-lean``) spread by ±15% or more on a machine
others share; the instructions a move costs do not depend on the load.  This script runs
the server (``server_load.py --serve``) and then the lean relay (``benchmarks/lean_server.py``,
its games as long as the server's) each under ``valgrind --tool=callgrind``, and plays the
same load against each with ``server_load.py``'s load generator (random moves, seeded):

- the server starts with callgrind's instrumentation off (its start-up is not counted);
- every table plays a few moves and pauses, as for ``server_load.py``'s memory reading;
- then instrumentation goes on and the counters are zeroed (``callgrind_control -i on``,
  ``-z``), the tables play on to the end of their games, and the counters are dumped
  (``callgrind_control -d``): the window ``server_load.py`` measures CPU in;
- instructions per move = the dump's instructions / the plays sent in that window.

Printed: the instructions per move of each, their ratio (server / relay), and the ``--top``
functions of each by their own instructions per move (``callgrind_annotate``; Python
code shows as the interpreter's C functions, ``--profile`` of ``server_load.py`` names
the Python ones).  The last line is a JSON object with every figure.

``--web`` measures the server twice instead, its web front on (``scopa serve --web``): once
with every client over TCP, once over a WebSocket of ``/ws`` (as ``server_load.py --web``),
and prints the instructions per move of each and their ratio (WebSocket / TCP).

The loop turns a move takes vary a little from run to run (what arrives together is
handled together), so the figures spread by a per cent or two, not by the load.  The
defaults (10 two-seat tables, 2 games: about 3,000 moves; ``--preset scopone --tables 20
--games 1`` about 6,000) take about a minute per server; ``--keep DIR`` keeps the dumps
for ``callgrind_annotate`` or KCachegrind.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import server_load  # noqa: E402  (benchmarks/ is not a package)

HERE = os.path.dirname(os.path.abspath(__file__))
SAFETY_TIMEOUT = 1800.0  # seconds: a stuck run fails instead of hanging


class UnderCallgrind:
    """A server in a child process under callgrind, instrumentation off until :meth:`zero`."""

    def __init__(self, command: list[str], out_dir: str, kind: str) -> None:
        self.out = os.path.join(out_dir, f"{kind}.callgrind")
        valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={self.out}"]
        self.proc = subprocess.Popen([*valgrind, sys.executable, *command], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().split()
        self.web_port: int | None = None
        if line[:1] == ["PORT"]:  # server_load.py --serve: "PORT n ... [WEB w]"
            self.port = int(line[1])
            self.web_port = int(line[line.index("WEB") + 1]) if "WEB" in line else None
        elif len(line) == 2 and ":" in line[0]:  # lean_server.py: "HOST:PORT PID"
            self.port = int(line[0].rpartition(":")[2])
        else:
            self.proc.kill()
            raise RuntimeError(f"the {kind} server did not start: {line!r}")
        self.pid = self.proc.pid  # valgrind runs the program in its own process

    def control(self, *words: str) -> None:
        subprocess.run(["callgrind_control", *words, str(self.pid)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    def zero(self) -> None:
        self.control("-i", "on")
        self.control("-z")

    def dump(self) -> None:
        self.control("-d")

    def dumped(self) -> str:
        files = sorted(glob.glob(self.out + ".*"))
        if not files:
            raise RuntimeError(f"no callgrind dump at {self.out}.*")
        return files[0]

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # both servers stop when their stdin closes
        try:
            self.proc.wait(120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def instructions(dump: str) -> int:
    """The instructions (Ir) a callgrind dump counted."""
    with open(dump, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no summary in {dump}")


def top_functions(dump: str, count: int) -> list[tuple[int, str]]:
    """The ``count`` functions with the most instructions of their own: (Ir, name)."""
    text = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", dump],
                          check=True, capture_output=True, text=True).stdout
    rows: list[tuple[int, str]] = []
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+(?:\([\d.\s]+%\)\s+)?(\S.*?)(?:\s+\[.*\])?$", line)
        if m and ":" in m.group(2) and "PROGRAM TOTALS" not in line:
            where, _, function = m.group(2).rpartition(":")
            rows.append((int(m.group(1).replace(",", "")), f"{os.path.basename(where)}:{function}"))
    return sorted(rows, reverse=True)[:count]


def load_args(args: argparse.Namespace, server: UnderCallgrind) -> argparse.Namespace:
    """``server_load.py``'s settings for one run against ``server``."""
    return argparse.Namespace(
        preset=args.preset, options={}, tables=args.tables, games=args.games, seconds=None, think_ms=0.0,
        strategy="random", seed=args.seed, server=f"127.0.0.1:{server.port}", server_pid=server.pid,
        expert_tables=0, loop=args.loop, db=None, bot_workers=1, cluster=0, lean=False, memory_profile=None,
        metrics_ports=[], window_hooks=(server.zero, server.dump),
        web_clients=server.web_port is not None and getattr(args, "web_clients", False), web_port=server.web_port)


def measure(args: argparse.Namespace, kind: str, out_dir: str, lean_moves: int | None) -> dict[str, Any]:
    """``kind``: server, lean, or (``--web``) tcp or websocket: the server with its web front,
    its clients over TCP or over WebSocket."""
    if kind in ("server", "tcp", "websocket"):
        command = [os.path.join(HERE, "server_load.py"), "--serve", "--seed", str(args.seed), "--loop", args.loop]
        command += ["--web-front"] if kind != "server" else []
        args.web_clients = kind == "websocket"
    else:
        command = [os.path.join(HERE, "lean_server.py"), "--port", "0", "--loop", args.loop]
        command += ["--moves", str(lean_moves)] if lean_moves else []
    server = UnderCallgrind(command, out_dir, kind)
    try:
        result = asyncio.run(asyncio.wait_for(server_load.load(load_args(args, server), server.port, server.pid),
                                              SAFETY_TIMEOUT))
    finally:
        server.stop()
    if result["failed_tables"] or result["errors"]:
        raise RuntimeError(f"{kind}: {result['failed_tables']} tables failed, {result['errors']} errors")
    dump = server.dumped()
    moves = result["moves"]
    total = instructions(dump)
    return {"moves": moves, "games": result["games"], "instructions": total,
            "per_move": round(total / moves) if moves else None,
            "top": [(round(ir / moves), name) for ir, name in top_functions(dump, args.top)] if moves else [],
            "dump": dump}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="scopa", help="rules preset of every table (scopone: four seats)")
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--games", type=int, default=2, help="games per table (default 2)")
    ap.add_argument("--loop", choices=("asyncio", "uvloop"), default="asyncio", help="both servers' event loop")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--top", type=int, default=25, help="functions listed per server (default 25)")
    ap.add_argument("--only", choices=("server", "lean", "tcp", "websocket"), default=None,
                    help="measure one of the two (tcp or websocket with --web)")
    ap.add_argument("--lean-moves", type=int, default=None,
                    help="the relay's moves per game (default: the server's, or 36 with --only lean)")
    ap.add_argument("--web", action="store_true",
                    help="the server with TCP clients and then with WebSocket clients (no relay): their ratio")
    ap.add_argument("--keep", default=None, metavar="DIR", help="write the callgrind dumps to DIR and keep them")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        ap.error("valgrind is not installed")
    server_load._raise_fd_limit()  # noqa: SLF001
    out_dir = args.keep or tempfile.mkdtemp(prefix="callgrind-moves-")
    os.makedirs(out_dir, exist_ok=True)
    figures: dict[str, Any] = {"preset": args.preset, "tables": args.tables, "games": args.games, "loop": args.loop,
                               "seed": args.seed}
    lean_moves = args.lean_moves
    try:
        for kind in ("tcp", "websocket") if args.web else ("server", "lean"):
            if args.only not in (None, kind):
                continue
            got = measure(args, kind, out_dir, lean_moves)
            if kind == "server" and lean_moves is None and got["games"]:
                lean_moves = round(got["moves"] / got["games"])  # the relay's games as long as the server's
            figures[kind] = {k: v for k, v in got.items() if k != "dump"}
            print(f"{kind}: {got['moves']} moves, {got['instructions']:,} instructions, "
                  f"{got['per_move']:,} per move", flush=True)
            for ir, name in got["top"]:
                print(f"  {ir:>9,}  {name}")
    finally:
        if args.keep is None:
            shutil.rmtree(out_dir, ignore_errors=True)
    figures["lean_moves"] = lean_moves
    if "server" in figures and "lean" in figures:
        figures["ratio"] = round(figures["server"]["per_move"] / figures["lean"]["per_move"], 3)
        print(f"instructions per move ({args.preset}, {args.tables} tables, {args.loop}): server "
              f"{figures['server']['per_move']:,}, lean relay {figures['lean']['per_move']:,}: "
              f"ratio {figures['ratio']}")
    if "tcp" in figures and "websocket" in figures:
        figures["ratio"] = round(figures["websocket"]["per_move"] / figures["tcp"]["per_move"], 3)
        print(f"instructions per move ({args.preset}, {args.tables} tables, {args.loop}): TCP "
              f"{figures['tcp']['per_move']:,}, WebSocket {figures['websocket']['per_move']:,}: "
              f"ratio {figures['ratio']}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
