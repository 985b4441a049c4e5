"""The path of a move through the server: every call of our code from the moment a
seated player's ``play`` reaches the server until each recipient has heard of it; for a
legal move and for two refused ones.

    python benchmarks/move_trace.py [--list] [--seed N]

A server (``scopa.server.NetworkEngine``) runs on its own event loop in a thread whose
calls are recorded while a move is under way; three clients connect over loopback: two
seats of a ``scopa`` table and a spectator.  When a seat is asked to move, three moves are
traced in turn, each recorded on its own:

- *out of turn*: the other seat plays (refused: ``not_your_turn``); recorded until that
  seat has the error;
- *illegal card*: the seat asked plays a card it does not hold (refused by the game
  master); recorded until that seat has the error and the same ``your_turn`` again;
- *legal*: the seat asked plays its first legal move; recorded until the two seats and the
  spectator have each received the ``played`` event of that move.

A recording starts on the server's loop, after what it had queued by then (such as the
lobby's update for the game's start, scheduled before the question was written), so that
work is not counted as the move's.

Printed for each: the calls of our code (``scopa.*``), the distinct functions and files
they were in (and how many of those files are the server's), and the back-and-forths: a
call from file A into file B while B already has a function running further up the stack
(B called A, and A now reaches back into B; a refusal sent into the session that is still
reading the move is one).  ``--list`` prints each call, indented by depth.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

from scopa.client.net import ClientSession
from scopa.protocol import CardPlayed, YourTurn
from scopa.protocol.commands import Error, PlayCard
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
        self.calls, self.back_and_forth = [], []
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


Recording = tuple[list[tuple[int, str, str]], list[tuple[str, str, str]]]
"""The calls of one traced move and its back-and-forths."""


async def traced(server_loop: asyncio.AbstractEventLoop, recorder: Recorder, send: Callable[[], None],
                 *heard: Awaitable[Any]) -> Recording:
    """Record the server while ``send`` sends a move, until every awaitable of ``heard`` is done."""
    await arm_on(server_loop, recorder)
    send()
    for waiting in heard:
        await waiting
    recorder.armed = False
    return recorder.calls, recorder.back_and_forth


async def trace(port: int, server_loop: asyncio.AbstractEventLoop, recorder: Recorder) -> dict[str, Recording]:
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
    other = bea if mover is ada else ada
    table = f"table:{info.id}"
    move = action_to_wire(legal_from_wire(asked)[0]).model_copy(update={"turn": asked.event})
    held = set(asked.view.hand) | set(asked.view.table)
    illegal = PlayCard(card=next(f"{r}{s}" for s in "dcsb" for r in "A234567FCR" if f"{r}{s}" not in held),
                       turn=asked.event)  # a card the seat does not hold
    out = {  # bare moves, no Player
        "out of turn": await traced(server_loop, recorder, lambda: other._send(move, table),  # noqa: SLF001
                                    until(other, lambda b: isinstance(b, Error))),
        "illegal card": await traced(server_loop, recorder, lambda: mover._send(illegal, table),  # noqa: SLF001
                                     until(mover, lambda b: isinstance(b, Error)),
                                     until(mover, lambda b: isinstance(b, YourTurn))),
        "legal": await traced(server_loop, recorder, lambda: mover._send(move, table),  # noqa: SLF001
                              *(until(s, lambda b: isinstance(b, CardPlayed)) for s in (ada, bea, eve))),
    }
    for session in (ada, bea, eve):
        await session.close()
    return out


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
        recordings = asyncio.run(trace(box["port"], box["loop"], recorder))
    finally:
        box["loop"].call_soon_threadsafe(box["stop"].set)
        thread.join(10)
    for what, (calls, back_and_forth) in recordings.items():
        functions = {(f, name) for _, f, name in calls}
        files = sorted({f for _, f, _ in calls})
        server_files = [f for f in files if f.startswith("server/")]
        if args.list:
            print(f"{what}:")
            for depth, f, name in calls:
                print(f"{'  ' * depth}{f}:{name}")
        print(f"{what}: {len(calls)} calls of {len(functions)} functions in {len(files)} files "
              f"({len(server_files)} of the server), {len(back_and_forth)} back-and-forths")
        print("  server files: " + ", ".join(server_files))
        for caller, callee, name in back_and_forth:
            print(f"  back-and-forth: {caller} -> {callee}:{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
