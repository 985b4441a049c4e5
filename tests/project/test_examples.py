"""examples/: the SDK bot and the socket-and-msgpack bot play against a real server."""

from __future__ import annotations

import ast
import asyncio
import subprocess
import sys

from scopa.client import ClientSession
from serverthread import ServerThread

from procs import ROOT, SAFETY, finish

EXAMPLES = ROOT / "examples"


def run_example(name: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(EXAMPLES / name), *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


async def wait_for_waiting_table(address: str) -> str:
    """Until a table waits for a player (the SDK bot has opened it): its id."""
    host, port = address.rsplit(":", 1)
    async with asyncio.timeout(SAFETY):
        async with await ClientSession.connect(host, int(port), "watcher") as s:
            waiting = [t for t in await s.watch_lobby() if t.state == "waiting"]
            while not waiting:  # the lobby tells its watchers of every new table
                update = await s.next_lobby_update()
                waiting = [update] if update is not None and update.state == "waiting" else []
            return waiting[0].id


def test_raw_bot_and_sdk_bot_play_each_other_to_the_end() -> None:
    with ServerThread() as server:
        sdk = run_example("sdk_bot.py", server.address, "1")
        table = asyncio.run(wait_for_waiting_table(server.address))
        raw = run_example("raw_bot.py", server.address)
        (rc_sdk, out_sdk), (rc_raw, out_raw) = finish(sdk, "example"), finish(raw, "example")
    assert rc_sdk == 0 and rc_raw == 0, out_sdk + out_raw
    assert f"sits at table {table}, seat 1" in out_raw and "game over (target)" in out_raw
    totals_raw = out_raw.rsplit("totals", 1)[1].strip()
    totals_sdk = out_sdk.rsplit("totals", 1)[1].strip()
    assert totals_raw == totals_sdk  # the same game, seen from both seats


def test_raw_bot_alone_plays_a_server_bot_and_sdk_bot_plays_several_games() -> None:
    with ServerThread() as server:
        rc, out = finish(run_example("raw_bot.py", server.address, "solo"))
        assert rc == 0 and "game over" in out, out
        rc, out = finish(run_example("sdk_bot.py", server.address, "2", "greedy"))
    assert rc == 0 and "game 1:" in out and "game 2:" in out, out


def test_examples_are_what_they_claim() -> None:
    sdk = (EXAMPLES / "sdk_bot.py").read_text()
    assert len(sdk.splitlines()) < 40
    raw_imports = set()
    for node in ast.walk(ast.parse((EXAMPLES / "raw_bot.py").read_text())):
        if isinstance(node, ast.Import):
            raw_imports |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            raw_imports.add((node.module or "").split(".")[0])
    assert raw_imports <= {"socket", "struct", "sys", "msgpack"}
