"""A playing table under attack: its p99 latency and the server's memory while hostile
clients send malformed input and try to exhaust the server.

    python benchmarks/attack_load.py [--seconds S] [--warmup W] [--server-python PATH] [--db]
                                     [--only NAMES] [--wire-version V]

The server runs in a child process (this script with ``--serve``, default ``Limits``,
as ``scopa serve`` runs it), started with ``--server-python`` (default: this
interpreter), so the same attack can be run against another checkout's server.  Its
memory is read from ``/proc/<pid>/status``.

One *victim* client (a process of its own) plays 2-player games against a server bot,
answering every ``your_turn`` 30 ms after it arrives with its first legal move; its
latency is the time from writing a ``play`` to receiving the ``played`` for it (a play
still unanswered when the run ends counts with the time it has waited).  After
``--warmup`` seconds alone, these attacks run together for ``--seconds`` (every
attacker reconnects when dropped):

- malformed: 4 connections sending garbage frames, bad bodies, unknown commands,
  deeply nested and oversized values, over and over;
- bot games: 2 connections asking for 50 bot-only tables a second each;
- table spam: 10 connections each creating 20 waiting tables a second;
- listing: 4 connections each sending 50 ``list_tables`` a second;
- deaf: 4 connections sending 200 ``list_tables`` and never reading;
- hostile options: 2 connections sending ``create_table`` with ``{"cls": 1}`` and
  ``{"preset": ...}`` options.

Printed: the victim's p50/p99/max latency alone and under attack, its moves, the
longest time it went without completing a move during the attack, the
server's RSS idle, at its peak and at the end, and the tables it held; the last line is
a JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
from typing import Any

import msgpack

from scopa.protocol.framing import FrameBuffer, frame_payload
from server_load import rss_kb  # this folder is on sys.path when a benchmark is run as a script

CHILD_SERVE = "--serve"
THINK = 0.03  # seconds the victim waits before answering its your_turn
WIRE_VERSION = 2  # the envelope's v (--wire-version: 1 for a server of protocol version 1)


# ---------------------------------------------------------------------- the server child


async def _serve(db: str | None) -> None:
    from scopa.server import NetworkEngine

    engine = NetworkEngine("127.0.0.1", 0, 1, db=db)
    await engine.start()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    def stdin_ready() -> None:
        if not os.read(sys.stdin.fileno(), 4096):
            loop.remove_reader(sys.stdin.fileno())
            stop.set()

    loop.add_reader(sys.stdin.fileno(), stdin_ready)
    print(f"PORT {engine.port}", flush=True)

    async def report() -> None:
        while True:
            print(f"TABLES {len(engine.tables)}", flush=True)
            await asyncio.sleep(1)

    reporter = asyncio.create_task(report())
    try:
        await stop.wait()
    finally:
        reporter.cancel()
        await engine.stop()


# ---------------------------------------------------------------------- a lean wire client


def frame(obj: Any) -> bytes:
    return frame_payload(msgpack.packb(obj, use_bin_type=True))


class Lean:
    """Frames in and out with plain msgpack (no validation): cheap for the load side."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.seq = 0
        self.party = "guest"
        self.frames = FrameBuffer()

    @classmethod
    async def connect(cls, port: int, name: str) -> Lean:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        c = cls(reader, writer)
        c.send("hello", "lobby", {"name": name})
        while True:
            msg = await c.recv()
            if msg["name"] == "welcome":
                c.party = msg["body"]["you"]
                return c
            if msg["name"] == "error":
                raise ConnectionError(msg["body"]["message"])

    def send(self, name: str, recipient: str, body: dict[str, Any]) -> None:
        self.seq += 1
        self.writer.write(frame({"v": WIRE_VERSION, "seq": self.seq, "sender": self.party, "recipient": recipient,
                                 "re": None, "name": name, "body": body}))

    async def recv(self) -> dict[str, Any]:
        while (payload := self.frames.next_payload()) is None:
            data = await self.reader.read(65536)
            if not data:
                raise ConnectionError("closed")
            self.frames.feed(data)
        return msgpack.unpackb(payload, raw=False)

    async def drain_replies(self) -> None:
        """Read and drop whatever comes (keeps a reading attacker reading), unparsed."""
        while await self.reader.read(1 << 20):
            pass
        raise ConnectionError("closed")

    def close(self) -> None:
        self.writer.transport.abort()


# ---------------------------------------------------------------------- the victim


async def victim(port: int, seconds: float) -> list[tuple[float, float]]:
    """Play for ``seconds``: (wall time, latency) of every move of ours."""
    latencies: list[tuple[float, float]] = []
    c = await Lean.connect(port, "victim")
    sent_at: float | None = None
    end = time.time() + seconds
    while time.time() < end:
        c.send("create_table", "lobby", {"fill_with_bots": ["greedy"]})
        table = None
        seat = None
        while True:
            try:
                msg = await asyncio.wait_for(c.recv(), max(0.0, end - time.time()))
            except TimeoutError:  # the time is up with a move unanswered: it counts, as a lower bound
                if sent_at is not None:
                    latencies.append((time.time(), time.perf_counter() - sent_at))
                c.close()
                return latencies
            name, body = msg["name"], msg["body"]
            if name == "joined":
                table, seat = body["table"], body["seat"]
            elif name == "your_turn":
                await asyncio.sleep(THINK)  # a person's pace, well within the command rate
                move = body["legal"][0]
                sent_at = time.perf_counter()
                c.send("play", f"table:{table}", {"card": move["card"], "capture": move["capture"],
                                                   "turn": body["event"]})
            elif name == "played" and body["seat"] == seat and sent_at is not None:
                latencies.append((time.time(), time.perf_counter() - sent_at))
                sent_at = None
            elif name == "game_end":
                break
            elif name == "error":
                print(f"victim: error {body['code']}: {body['message']}", file=sys.stderr)
                if body.get("fatal"):
                    return latencies
    c.close()
    return latencies


# ---------------------------------------------------------------------- the attackers


async def attacker(port: int, name: str, stop: asyncio.Event, act: Any, read: bool = True) -> None:
    """Connect as ``name`` and run ``act(client)`` until stopped; reconnect when dropped."""
    n = 0
    while not stop.is_set():
        n += 1
        try:
            c = await Lean.connect(port, f"{name}{n}")
        except (ConnectionError, OSError):
            await asyncio.sleep(0.2)
            continue
        drain = asyncio.create_task(c.drain_replies()) if read else None
        try:
            await act(c, stop)
        except (ConnectionError, OSError):
            pass
        finally:
            if drain is not None:
                drain.cancel()
            c.close()


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


async def malformed(c: Lean, stop: asyncio.Event) -> None:
    while not stop.is_set():
        c.writer.write(struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1")
        c.writer.write(frame([1, 2, 3]))
        c.send("launch_missiles", "lobby", {})
        c.send("chat", "lobby", {"text": "x" * 60_000})
        c.send("chat", "lobby", {"text": _nested(60)})
        c.send("play", "table:999", {"card": "11x", "capture": []})
        c.send("ping", "lobby", {"nonce": "1"})
        await c.writer.drain()
        await asyncio.sleep(0.2)


async def bot_games(c: Lean, stop: asyncio.Event) -> None:
    while not stop.is_set():
        for _ in range(50):
            c.send("create_table", "lobby", {"fill_with_bots": ["greedy", "random"], "sit": False})
        await c.writer.drain()
        await asyncio.sleep(1.0)


async def table_spam(c: Lean, stop: asyncio.Event) -> None:
    while not stop.is_set():
        for _ in range(20):
            c.send("create_table", "lobby", {"options": {"players": 3}, "fill_with_bots": ["random"], "sit": False})
        await c.writer.drain()
        await asyncio.sleep(1.0)


async def listing(c: Lean, stop: asyncio.Event) -> None:
    while not stop.is_set():
        for _ in range(50):
            c.send("list_tables", "lobby", {})
        await c.writer.drain()
        await asyncio.sleep(1.0)


async def deaf(c: Lean, stop: asyncio.Event) -> None:
    while not stop.is_set():
        for _ in range(200):
            c.send("list_tables", "lobby", {})
        await asyncio.sleep(1.0)
        if c.writer.transport.is_closing():
            return
        try:  # the server may have dropped us: find out without reading our stream
            c.writer.write(b"")
            await asyncio.wait_for(c.writer.drain(), 0.5)
        except (TimeoutError, ConnectionError, OSError):
            return


async def hostile_options(c: Lean, stop: asyncio.Event) -> None:
    while not stop.is_set():
        c.send("create_table", "lobby", {"options": {"cls": 1}})
        c.send("create_table", "lobby", {"options": {"preset": "scopa"}})
        await c.writer.drain()
        await asyncio.sleep(0.2)


ATTACKS = [("mal", malformed, 4, True), ("bots", bot_games, 2, True), ("spam", table_spam, 10, True),
           ("list", listing, 4, True), ("deaf", deaf, 4, False), ("opts", hostile_options, 2, True)]


# ---------------------------------------------------------------------- the run


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50_ms": float("nan"), "p99_ms": float("nan"), "max_ms": float("nan"), "moves": 0}
    xs = sorted(values)
    pick = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))] * 1000  # noqa: E731
    return {"p50_ms": round(pick(0.50), 2), "p99_ms": round(pick(0.99), 2), "max_ms": round(xs[-1] * 1000, 2),
            "moves": len(xs)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    db = os.path.join(tempfile.mkdtemp(prefix="attack-"), "journal.db") if args.db else None
    cmd = [args.server_python, os.path.abspath(__file__), CHILD_SERVE] + (["--db-path", db] if db else [])
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line.startswith("PORT "):
        raise RuntimeError(f"the server did not start: {line!r}")
    port = int(line.split()[1])
    tables = [0]

    def read_tables() -> None:
        assert child.stdout is not None
        text = child.stdout.readline()
        if text.startswith("TABLES "):
            tables[0] = max(tables[0], int(text.split()[1]))

    loop = asyncio.get_running_loop()
    loop.add_reader(child.stdout.fileno(), read_tables)
    try:
        rss_idle = rss_kb(child.pid)
        # The victim runs in a process of its own: the attackers' CPU here does not delay it.
        v = await asyncio.create_subprocess_exec(
            sys.executable, os.path.abspath(__file__), "--victim", str(port), "--seconds",
            str(args.warmup + args.seconds + 0.5), "--wire-version", str(args.wire_version),
            stdout=asyncio.subprocess.PIPE)
        await asyncio.sleep(args.warmup)
        t_attack = time.time()
        rss_before = rss_kb(child.pid)
        stop_attacks = asyncio.Event()
        tasks = [asyncio.create_task(attacker(port, f"{name}{i}-", stop_attacks, act, read))
                 for name, act, count, read in ATTACKS for i in range(count)
                 if not args.only or name in args.only.split(",")]
        peak = rss_before
        end = time.perf_counter() + args.seconds
        while time.perf_counter() < end:
            await asyncio.sleep(0.25)
            peak = max(peak, rss_kb(child.pid))
        stop_attacks.set()
        rss_end = rss_kb(child.pid)
        t_end = time.time()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        out, _ = await v.communicate()
        latencies = [tuple(x) for x in json.loads(out.decode().strip().splitlines()[-1])]
        alone = [lat for when, lat in latencies if when < t_attack]
        attacked = [lat for when, lat in latencies if t_attack <= when <= t_end]
        # The longest the victim went without completing a move during the attack (a
        # server that never answers shows here, not in the latencies of the moves made).
        times = [t_attack] + [when for when, _ in latencies if t_attack <= when <= t_end] + [t_end]
        longest = max(b - a for a, b in zip(times, times[1:]))
        return {"alone": percentiles(alone), "under_attack": percentiles(attacked),
                "longest_stall_ms": round(longest * 1000, 1),
                "rss_idle_mb": round(rss_idle / 1024, 1), "rss_before_attack_mb": round(rss_before / 1024, 1),
                "rss_peak_mb": round(peak / 1024, 1), "rss_end_mb": round(rss_end / 1024, 1),
                "server_tables_max": tables[0], "attack_seconds": args.seconds, "db": bool(db)}
    finally:
        loop.remove_reader(child.stdout.fileno())
        if child.stdin is not None:
            child.stdin.close()
        try:
            child.wait(20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="how long the attacks run; default 20")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds the victim plays alone first; default 5")
    ap.add_argument("--server-python", default=sys.executable, metavar="PATH",
                    help="the interpreter that runs the server (another checkout's venv); default this one")
    ap.add_argument("--db", action="store_true", help="the server journals to a fresh SQLite file")
    ap.add_argument("--only", default="", metavar="NAMES",
                    help="only these attacks, e.g. deaf,list (names: " + ", ".join(a[0] for a in ATTACKS) + ")")
    ap.add_argument(CHILD_SERVE, action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--db-path", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--victim", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--wire-version", type=int, default=None, metavar="V",
                    help="the protocol version the clients speak; default this checkout's")
    args = ap.parse_args()
    global WIRE_VERSION
    if args.wire_version is None:
        from scopa.protocol import PROTOCOL_VERSION

        args.wire_version = PROTOCOL_VERSION
    WIRE_VERSION = args.wire_version
    if args.serve:
        asyncio.run(_serve(args.db_path))
        return
    if args.victim is not None:
        print(json.dumps(asyncio.run(victim(args.victim, args.seconds))))
        return
    figures = asyncio.run(run(args))
    a, u = figures["alone"], figures["under_attack"]
    print(f"victim alone:        p50 {a['p50_ms']} ms  p99 {a['p99_ms']} ms  max {a['max_ms']} ms  ({a['moves']} moves)")
    print(f"victim under attack: p50 {u['p50_ms']} ms  p99 {u['p99_ms']} ms  max {u['max_ms']} ms  ({u['moves']} moves; "
          f"longest time without a move {figures['longest_stall_ms']} ms)")
    print(f"server RSS: idle {figures['rss_idle_mb']} MB, before the attack {figures['rss_before_attack_mb']} MB, "
          f"peak {figures['rss_peak_mb']} MB, at the end {figures['rss_end_mb']} MB; "
          f"tables held at most {figures['server_tables_max']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
