"""Forty `scopa bot` processes from one address against one `scopa serve`: with the
default caps the bots wait out ``too_many_tables`` (16 waiting tables per address) and
every one finishes its games; with ``--trust-address 127.0.0.1`` the address may hold
more waiting tables than that."""

from __future__ import annotations

import re
import socket
import subprocess
import time
from pathlib import Path

import pytest

from procs import ROOT, SCOPA, finish
from procs import scopa_bot as bot

pytestmark = pytest.mark.process

BOTS = 40
CREATED = re.compile(r"table (\S+) created by ")
STARTED = re.compile(r"table (\S+): game started ")
CLOSED = re.compile(r"table (\S+)(?::)? closed")


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        port: int = s.getsockname()[1]
        return port


def _serve(log: Path, *options: str) -> tuple[subprocess.Popen[bytes], int]:
    """`scopa serve` on a free port, its log to ``log``, once it listens."""
    port = _free_port()
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


def _farm(tmp_path: Path, *options: str) -> tuple[list[tuple[int, str]], str]:
    """Forty bots, two short games each, against a server given ``options``: each bot's
    exit status and output, and the server's log."""
    log = tmp_path / "server.log"
    server, port = _serve(log, *options)
    try:
        bots = [bot(f"127.0.0.1:{port}", "--strategy", "greedy" if n % 2 else "random", "--seed", str(n),
                    "--games", "2", "--target", "11", "--name", f"farm{n}") for n in range(BOTS)]
        results = [finish(b) for b in bots]
    finally:
        server.terminate()
        server.wait(30)
    return results, log.read_text(errors="replace")


def test_forty_bots_from_one_address_all_finish_under_the_default_caps(tmp_path: Path) -> None:
    results, log = _farm(tmp_path)
    for rc, out in results:
        assert rc == 0 and "game 2/2" in out and "Traceback" not in out, out
    assert _most_waiting(log) <= 16  # max_waiting_tables_per_address held
    waited = [out for _, out in results if "too_many_tables" in out]
    assert waited, "no bot met the cap: the run does not test waiting it out"
    assert all("trying again in" in out for out in waited)


def test_a_trusted_address_holds_more_waiting_tables_than_the_cap(tmp_path: Path) -> None:
    results, log = _farm(tmp_path, "--trust-address", "127.0.0.1")
    for rc, out in results:
        assert rc == 0 and "game 2/2" in out and "too_many_tables" not in out, out
    assert _most_waiting(log) > 16
