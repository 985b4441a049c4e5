"""Forty `scopa bot` processes from one address against one `scopa serve`: with the
default caps the bots wait out ``too_many_tables`` (16 waiting tables per address) and
every one finishes its games; with ``--trust-address 127.0.0.1`` the address may hold
more waiting tables than that (ten bots show it: the first one's table is the
seventeenth).

So that the cap is met whatever the timing, the run begins with the address holding 16
waiting tables of other rules (four connections of this test, four tables each): the
first bot is refused, or, trusted, creates a seventeenth.  Then those tables go and the
bots play on."""

from __future__ import annotations

import asyncio
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from scopa.protocol import commands as wire

from procs import ROOT, SCOPA, finish
from procs import scopa_bot as bot
from wire_client import WireClient
from ports import free_port

pytestmark = pytest.mark.process

BOTS = 40
TRUSTED_BOTS = 10
"""Bots of the trusted run: any number shows the seventeenth table, the first bot's."""
CREATED = re.compile(r"table (\d+) created by ")
STARTED = re.compile(r"table (\d+): game started ")
CLOSED = re.compile(r"table (\d+):? closed")


def _serve(log: Path, *options: str) -> tuple[subprocess.Popen[bytes], int]:
    """`scopa serve` on a free port, its log to ``log``, once it listens."""
    port = free_port()
    out = log.open("wb")
    server = subprocess.Popen([*SCOPA, "serve", "--port", str(port), *options], cwd=ROOT, stdout=out,
                              stderr=subprocess.STDOUT)
    out.close()
    deadline = time.monotonic() + 30
    while "Ctrl-C to stop" not in log.read_text(errors="replace"):
        assert server.poll() is None and time.monotonic() < deadline, log.read_text(errors="replace")
        time.sleep(0.05)
    return server, port


def _most_waiting(log: str) -> int:
    """The most tables waiting for players at once, read from the server's log (a table
    waits from its creation to its game's start, or to its closing)."""
    waiting: set[str] = set()
    most = 0
    for line in log.splitlines():
        if m := CREATED.search(line):
            waiting.add(m.group(1))
            most = max(most, len(waiting))
        elif (m := STARTED.search(line)) or (m := CLOSED.search(line)):
            waiting.discard(m.group(1))
    return most


class Holder:
    """Four connections holding four waiting tables each (target 21: no bot here joins
    them), answering the server's pings, until :meth:`release`."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.held = threading.Event()
        self._release = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._hold()), daemon=True)
        self.error: BaseException | None = None

    def __enter__(self) -> Holder:
        self._thread.start()
        assert self.held.wait(30) and self.error is None, self.error
        return self

    def release(self) -> None:
        self._release.set()
        self._thread.join(30)

    def __exit__(self, *_: object) -> None:
        self.release()

    async def _hold(self) -> None:
        try:
            clients = [await WireClient.connect(self.port, f"holder{n}") for n in range(4)]
            for c in clients:
                for _ in range(4):
                    c.send(wire.CreateTable(options={"target": 21}, sit=False))  # type: ignore[arg-type]
                    await c.recv_until("table_created")
        except BaseException as exc:  # noqa: BLE001 - reported to the test's thread
            self.error = exc
            raise
        finally:
            self.held.set()
        pongs = [asyncio.create_task(self._answer(c)) for c in clients]
        while not self._release.is_set():
            await asyncio.sleep(0.05)
        for task in pongs:
            task.cancel()
        for c in clients:
            await c.close()

    async def _answer(self, client: WireClient) -> None:
        while True:
            ping = await client.recv_until("ping")
            client.send(wire.Pong(nonce=ping.body.nonce), re=ping.seq)  # type: ignore[union-attr]


def _farm(tmp_path: Path, count: int, *options: str) -> tuple[list[tuple[int, str]], str]:
    """``count`` bots, two short games each, against a server given ``options`` and an address
    holding 16 waiting tables until the first bot says what it did: each bot's exit
    status and output, and the server's log."""
    log = tmp_path / "server.log"
    server, port = _serve(log, *options)
    try:
        with Holder(port) as holder:
            bots = [bot(f"127.0.0.1:{port}", "--strategy", "greedy" if n % 2 else "random", "--seed", str(n),
                        "--games", "2", "--target", "11", "--name", f"farm{n}") for n in range(count)]
            first: list[str] = []
            assert bots[0].stdout is not None
            for line in bots[0].stdout:
                first.append(line)
                if any(what in line for what in ("too_many_tables", "created table", "joined table")):
                    break
            holder.release()
            rc, rest = finish(bots[0])
            results = [(rc, "".join(first) + rest), *(finish(b) for b in bots[1:])]
    finally:
        server.terminate()
        server.wait(30)
    return results, log.read_text(errors="replace")


def test_forty_bots_from_one_address_all_finish_under_the_default_caps(tmp_path: Path) -> None:
    results, log = _farm(tmp_path, BOTS)
    for rc, out in results:
        assert rc == 0 and "game 2/2" in out and "Traceback" not in out, out
    assert _most_waiting(log) <= 16  # max_waiting_tables_per_address held
    assert "too_many_tables" in results[0][1]  # the first bot met the cap, and waited it out
    waited = [out for _, out in results if "too_many_tables" in out]
    assert all("trying again in" in out for out in waited)


def test_a_trusted_address_holds_more_waiting_tables_than_the_cap(tmp_path: Path) -> None:
    results, log = _farm(tmp_path, TRUSTED_BOTS, "--trust-address", "127.0.0.1")
    for rc, out in results:
        assert rc == 0 and "game 2/2" in out and "too_many_tables" not in out, out
    assert _most_waiting(log) > 16
