"""Running the `scopa` command and the examples as child processes, for tests."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

from paths import ROOT

SCOPA = [sys.executable, "-m", "scopa.cli"]
SAFETY = 90  # seconds: a safety net only; every process normally ends long before


def scopa(*args: str) -> subprocess.Popen[str]:
    """`scopa ARGS...`, output captured as plain text."""
    return subprocess.Popen([*SCOPA, *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))


def scopa_bot(address: str, *extra: str) -> subprocess.Popen[str]:
    """`scopa bot --server ADDRESS ...`, output captured as plain text."""
    return scopa("bot", "--server", address, *extra)


def finish(proc: subprocess.Popen[str], what: str = "bot") -> tuple[int, str]:
    """Wait for a child process: its exit code and output (killed, and an error, if stuck)."""
    try:
        out, _ = proc.communicate(timeout=SAFETY)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        raise AssertionError(f"{what} did not finish:\n{out}") from None
    return proc.returncode, out


def cluster_member(port: int, redis: str, prefix: str, db: str, tmp: Path, *extra: str) -> subprocess.Popen[str]:
    """`scopa serve` on ``port`` as a member of the cluster at ``redis`` (key ``prefix``)
    sharing the journal ``db``, without caps on connections per address (every client
    of a test comes from 127.0.0.1); its output goes to ``tmp/member-PORT.log``, its
    operator token to ``tmp/token-PORT``."""
    with open(tmp / f"member-{port}.log", "w") as log:
        return subprocess.Popen(
            [*SCOPA, "serve", "--port", str(port), "--db", db, "--cluster", redis, "--cluster-prefix", prefix,
             "--no-announce", "--admin-token-file", str(tmp / f"token-{port}"),
             "--max-connections-per-address", "none", "--max-waiting-tables-per-client", "none", *extra],
            cwd=ROOT, text=True, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))


def stop(proc: subprocess.Popen[str] | subprocess.Popen[bytes], wait: float = SAFETY,
         sig: signal.Signals = signal.SIGTERM) -> None:
    """Send ``sig`` (SIGTERM unless told) to a child process still running, then SIGKILL it
    if it outlives ``wait`` s."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def end_child(child: pexpect.spawn) -> None:
    """Close a child the test runs at a terminal: killed first if it still runs, then waited
    for however busy the machine is (pexpect's own forced close allows a tenth of a second)."""
    if child.isalive():
        child.kill(signal.SIGKILL)
        with contextlib.suppress(pexpect.ExceptionPexpect):  # already reaped
            child.wait()
    child.close(force=True)
