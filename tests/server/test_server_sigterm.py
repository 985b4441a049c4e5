"""SIGTERM (how a service manager stops a server) stops ``scopa serve`` as Ctrl-C does:
its clients are told ``bye``, it says so in its log, and it exits with status 0."""

from __future__ import annotations

import asyncio
import re
import signal
import sys

from scopa.protocol import commands as wire

from wire_client import WireClient

SAFETY = 30.0


async def test_sigterm_says_bye_logs_and_exits_cleanly(tmp_path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from scopa.cli import main; main()", "serve", "--port", "0",
        "--db", str(tmp_path / "j.db"), "--admin-token-file", str(tmp_path / "token"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    assert proc.stdout is not None
    async with asyncio.timeout(SAFETY):
        out = b""
        while (found := re.search(rb"listening on 127\.0\.0\.1:(\d+)", out)) is None:
            line = await proc.stdout.readline()
            assert line, out.decode()
            out += line
        client = await WireClient.connect(int(found.group(1)), "ada")
        proc.send_signal(signal.SIGTERM)
        while True:
            command = await client.recv()
            if isinstance(command.body, wire.Bye):
                break
        rest = await proc.stdout.read()
        assert await proc.wait() == 0
    text = (out + rest).decode()
    assert "SIGTERM: stopping the server" in text and "server stopped" in text and "Traceback" not in text


STOPPED_WHILE_STARTING = """
import asyncio, logging, os, signal, sys
from scopa.server import serve
logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(message)s")
asyncio.run(serve(port=0, db=sys.argv[1], announce=lambda engine: os.kill(os.getpid(), signal.SIGTERM)))
print("serve returned")
"""


async def test_sigterm_while_the_server_is_still_starting_stops_it_cleanly(tmp_path) -> None:
    """A stop that comes while the server opens its journal and ports (here: as it says it
    listens) is not lost and does not kill it half-started: it starts, then stops cleanly."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", STOPPED_WHILE_STARTING, str(tmp_path / "j.db"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    async with asyncio.timeout(SAFETY):
        out, _ = await proc.communicate()
    text = out.decode()
    assert proc.returncode == 0, text
    assert "SIGTERM: stopping the server" in text and "server stopped" in text and "serve returned" in text
    assert "Traceback" not in text
