"""The path of one move through the server: every call of our code from the moment a
seated player's ``play`` reaches the server until each recipient has its ``played``.

    python benchmarks/move_trace.py [--list] [--seed N]

A server (``scopa.server.NetworkEngine``) runs on its own event loop in a thread whose
calls are recorded while the move is under way; three clients connect over loopback: two
seats of a ``scopa`` table and a spectator.  When a seat is asked to move, its first
legal move is sent and the recording starts; it stops when the two seats and the
spectator have each received the ``played`` event of that move.  The recording starts on
the server's loop, after what it had queued by then (such as the lobby's update for the
game's start, scheduled before the question was written), so that work is not counted as
the move's.

Printed: the calls of our code (``scopa.*``), the distinct functions and files they were
in (and how many of those files are the server's), and the back-and-forths: a call from
file A into file B while B already has a function running further up the stack (B called
A, and A now reaches back into B).  ``--list`` prints each call, indented by depth.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from scopa.client.session import ClientSession
from scopa.protocol import CardPlayed, YourTurn
from scopa.protocol.convert import action_to_wire, legal_from_wire
from scopa.server import NetworkEngine

PARTS = ("engine", "protocol", "server", "bots")


def _ours(filename: str) -> str | None:
    """``server/table/table.py`` for a file of ours, None for anything else."""
    parts = filename.replace(os.sep, "/").split("/")
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] in PARTS and (i == 0 or parts[i - 1] in ("scopa", os.path.basename(ROOT))):
            return "/".join(parts[i:])
    return None


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Recorder:
    """A profile function for the server's thread: records our calls while armed."""

    def __init__(self) -> None:
        self.armed = False
        self.calls: list[tuple[int, str, str]] = []  # (depth, file, function)
        self.back_and_forth: list[tuple[str, str, str]] = []  # (from file, into file, function)
        self._stack: list[str | None] = []

    def arm(self) -> None:
        self._stack.clear()
        self.armed = True

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.armed:
            return
        if event == "call":
            where = _ours(frame.f_code.co_filename)
            if where is not None:
                callers = [f for f in self._stack if f is not None]
                if callers and callers[-1] != where and where in callers[:-1]:
                    self.back_and_forth.append((callers[-1], where, frame.f_code.co_name))
                self.calls.append((len(callers), where, frame.f_code.co_name))
            self._stack.append(where)
        elif event == "return" and self._stack:
            self._stack.pop()


def serve(recorder: Recorder, started: threading.Event, box: dict[str, Any], seed: int) -> None:
    threading.setprofile(recorder)  # not this thread: set below for it
    sys.setprofile(recorder)

    async def main() -> None:
        engine = NetworkEngine("127.0.0.1", 0, seed=seed)
        await engine.start()
        box["port"], box["loop"], box["stop"] = engine.port, asyncio.get_running_loop(), asyncio.Event()
        started.set()
        await box["stop"].wait()
        await engine.stop()

    asyncio.run(main())
    sys.setprofile(None)


async def until(session: ClientSession, match: Callable[[Any], bool]) -> Any:
    while True:
        command = await session.next_command()
        if match(command.body):
            return command.body


async def arm_on(loop: asyncio.AbstractEventLoop, recorder: Recorder) -> None:
    """Arm ``recorder`` from ``loop`` (the server's), once the callbacks it has queued
    so far have run."""

    async def arm() -> None:
        recorder.arm()

    await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(arm(), loop))


async def trace(port: int, server_loop: asyncio.AbstractEventLoop, recorder: Recorder) -> None:
    ada = await ClientSession.connect("127.0.0.1", port, "ada")
    bea = await ClientSession.connect("127.0.0.1", port, "bea")
    eve = await ClientSession.connect("127.0.0.1", port, "eve")
    info = await ada.create_table(preset="scopa")
    await bea.join_table(info.id)
    await eve.watch_table(info.id)
    turns = {asyncio.ensure_future(until(s, lambda b: isinstance(b, YourTurn))): s for s in (ada, bea)}
    done, pending = await asyncio.wait(turns, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    first = next(iter(done))
    asked: YourTurn = first.result()
    mover = turns[first]
    await arm_on(server_loop, recorder)
    move = action_to_wire(legal_from_wire(asked)[0]).model_copy(update={"turn": asked.event})
    mover._send(move, f"table:{info.id}")  # noqa: SLF001 - a bare move, no Player
    for session in (ada, bea, eve):
        await until(session, lambda b: isinstance(b, CardPlayed))
    recorder.armed = False
    for session in (ada, bea, eve):
        await session.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print every call, indented by depth")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    recorder, started = Recorder(), threading.Event()
    box: dict[str, Any] = {}
    thread = threading.Thread(target=serve, args=(recorder, started, box, args.seed), daemon=True)
    thread.start()
    if not started.wait(10):
        print("the server did not start", file=sys.stderr)
        return 1
    try:
        asyncio.run(trace(box["port"], box["loop"], recorder))
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(10)
    calls = recorder.calls
    functions = {(f, name) for _, f, name in calls}
    files = sorted({f for _, f, _ in calls})
    server_files = [f for f in files if f.startswith("server/")]
    if args.list:
        for depth, f, name in calls:
            print(f"{'  ' * depth}{f}:{name}")
    print(f"one play, two seats and a spectator: {len(calls)} calls of {len(functions)} functions "
          f"in {len(files)} files ({len(server_files)} of the server), "
          f"{len(recorder.back_and_forth)} back-and-forths")
    print("files: " + ", ".join(files))
    for caller, callee, name in recorder.back_and_forth:
        print(f"back-and-forth: {caller} -> {callee}:{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
