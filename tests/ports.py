"""Ports for servers the tests start as child processes and must find again (a restart on the
same port, a cluster's members listed up front).

Asking the kernel for port 0 and closing the socket hands back an *ephemeral* port, which the
kernel may give to any other socket (a client's outgoing connection, another worker's port-0
server) before the child binds it.  The ports here come from below the kernel's ephemeral range,
where only an explicit bind can land, and each is claimed with a file that one test process
creates exclusively, so that two pytest workers never pick the same one.
"""

from __future__ import annotations

import os
import socket
import tempfile
import time
from pathlib import Path

LOW, HIGH = 20000, 32000          # below Linux's default ephemeral range (32768-60999)
CLAIMS = Path(tempfile.gettempdir()) / "scopa-test-ports"
STALE = 3600.0                    # seconds: a claim older than this is from a finished run


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _claim(port: int) -> bool:
    path = CLAIMS / str(port)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        try:
            if time.time() - path.stat().st_mtime < STALE:
                return False
            path.unlink()
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except OSError:
            return False
    os.close(fd)
    return True


def free_port() -> int:
    """A loopback TCP port nobody listens on, claimed for this test run."""
    CLAIMS.mkdir(exist_ok=True)
    span = HIGH - LOW
    start = (os.getpid() * 7919 + time.monotonic_ns()) % span
    for step in range(span):
        port = LOW + (start + step) % span
        if _claim(port) and _bindable(port):
            return port
    raise AssertionError(f"no free port between {LOW} and {HIGH}")
