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
