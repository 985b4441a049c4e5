"""The path of a move through the server, read from the calls it makes (DESIGN: "A refused
move is an effect the session sends, like an accepted one's broadcast: no part below the
session calls back up into it").  A move refused because it is out of turn, one refused by
the game master (a card the seat does not hold) and a legal one each run with a profile
function that notes every call from one server file into another that already has a
function running further up the stack (the session reading the move, and a table reaching
back into it to send the refusal, is one).  ``benchmarks/move_trace.py`` prints the same
path with its figures."""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock

from wire_client import WireClient, mover_and_other
from paths import ROOT

pytestmark = pytest.mark.integration

CHECKOUT = ROOT.name  # the source folder's name: this checkout's server files are under it


def server_file(filename: str) -> str | None:
    """``table/turns.py`` for a file of scopa.server (installed, or in this checkout)."""
    parts = filename.replace(os.sep, "/").split("/")
    for i in range(len(parts) - 2, 0, -1):
        if parts[i] == "server" and parts[i - 1] in ("scopa", CHECKOUT):
            return "/".join(parts[i + 1:])
    return None


class BackAndForths:
    """A profile function noting each call from one server file into another that is
    already running further up the stack."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.files: set[str] = set()
        self._stack: list[str | None] = []

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            where = server_file(frame.f_code.co_filename)
            if where is not None:
                self.files.add(where)
                callers = [f for f in self._stack if f is not None]
                if callers and callers[-1] != where and where in callers[:-1]:
                    self.found.append(f"{callers[-1]} -> {where}:{frame.f_code.co_name}")
            self._stack.append(where)
        elif event == "return" and self._stack:
            self._stack.pop()


@contextmanager
def profiled() -> Iterator[BackAndForths]:
    recorder = BackAndForths()
    sys.setprofile(recorder)
    try:
        yield recorder
    finally:
        sys.setprofile(None)


async def _traced(send: Callable[[], object], *heard: Awaitable[Any]) -> tuple[list[str], list[Any], set[str]]:
    """The back-and-forths while ``send`` sends a move, until each of ``heard`` came, and
    the server files the move ran through."""
    with profiled() as recorder:
        send()
        got = [await h for h in heard]
    assert any(f.endswith("session.py") for f in recorder.files), recorder.files  # the move was read
    return recorder.found, got, recorder.files


async def test_a_refused_move_is_sent_by_the_session_that_read_it_and_nothing_calls_back_into_it() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=11, clock=FakeClock())
    await engine.start()
    a = b = None
    try:
        a = await WireClient.connect(engine.port, "ada")
        b = await WireClient.connect(engine.port, "bea")
        mover, other, table = await mover_and_other(engine, a, b)
        asked = (await mover.recv_until("your_turn")).body
        recipient = f"table:{table}"
        legal = asked.legal[0]
        move = wire.PlayCard(card=legal.card, capture=legal.capture, turn=asked.event)

        # R: a play out of turn is refused (not_your_turn), the game goes on.
        found, (error,), _ = await _traced(lambda: other.send(move, recipient=recipient), other.recv_until("error"))
        assert error.body.code == "not_your_turn"
        assert found == []

        # R: a card the seat does not hold is refused by the game master: the error, then the same your_turn.
        held = set(asked.view.hand) | set(asked.view.table)
        unheld = next(f"{r}{s}" for s in "dcsb" for r in "A234567FCR" if f"{r}{s}" not in held)
        found, (error, again), _ = await _traced(
            lambda: mover.send(wire.PlayCard(card=unheld, turn=asked.event), recipient=recipient),
            mover.recv_until("error"), mover.recv_until("your_turn"))
        assert error.body.code == "card_not_in_hand"
        assert again.body.event == asked.event
        assert found == []

        # A legal move: played, heard by both seats.
        found, (played, heard), files = await _traced(lambda: mover.send(move, recipient=recipient),
                                               mover.recv_until("played"), other.recv_until("played"))
        assert played.body.card == legal.card == heard.body.card
        assert found == []
        # A short path: 8 server files at most (not counting this test's FakeClock, whose
        # reads are Python calls; the server's own clock reads time.monotonic).
        path = sorted(files - {"core/clock.py"})
        assert len(path) <= 8, path
    finally:
        for c in (a, b):
            if c is not None:
                c.abort()
        await engine.stop()
