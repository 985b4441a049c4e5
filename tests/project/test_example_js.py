"""examples/js: the JavaScript bot (Node and @msgpack/msgpack, written from
docs/PROTOCOL.md) plays a whole game against `scopa bot` on a real server, and keeps
playing when the server sends keys and commands it does not know.

Its npm packages are installed here (`npm ci`) when they are missing; without Node or
npm the tests fail, they are not skipped."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import socket
import struct
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_prefix  # noqa: F401 - the fixture
from serverthread import ServerThread
from scopa.protocol import PROTOCOL_VERSION

from procs import ROOT, SAFETY, finish, scopa_bot

JS = ROOT / "examples" / "js"
TIMEOUT = 30.0  # seconds: a safety net for each read of the scripted server


def node_ready() -> Path:
    """The path of `node`, after `npm ci` if the packages are missing; a failure if it cannot."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.fail("examples/js needs Node.js 20+ and npm on PATH (scripts/test says how to get them)")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    assert int(version.strip().lstrip("v").split(".")[0]) >= 20, f"Node.js 20 or newer is needed, not {version}"
    if not all((JS / "node_modules" / pkg / "package.json").exists() for pkg in ("@msgpack/msgpack", "ajv")):
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=JS, capture_output=True, text=True,
                              timeout=SAFETY)  # fmt: skip
        if done.returncode != 0:
            pytest.fail(f"npm ci in examples/js failed:\n{done.stdout}\n{done.stderr}")
    return Path(node)


def run_js(node: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([str(node), str(JS / "bot.js"), *args, "--protocol", str(PROTOCOL_VERSION)], cwd=JS,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip


def numbers(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


def js_totals(out: str) -> list[int]:
    """The totals of the game's end, as the JavaScript bot printed them."""
    return numbers(out.split("totals", 1)[1].split(";")[0])


def schema_summary(out: str) -> tuple[int, int]:
    """(commands checked against the clients' schema, violations), from the bot's last line."""
    checked = re.search(r"checked (\d+) commands against the schema, (\d+) schema violations", out)
    assert checked is not None, out
    return int(checked[1]), int(checked[2])


def test_package_lock_pins_the_msgpack_package() -> None:
    lock = json.loads((JS / "package-lock.json").read_text())
    package = json.loads((JS / "package.json").read_text())
    assert package["dependencies"] == {pkg: lock["packages"][f"node_modules/{pkg}"]["version"]
                                       for pkg in ("@msgpack/msgpack", "ajv")}  # fmt: skip
    for pkg in ("@msgpack/msgpack", "ajv"):
        assert lock["packages"][f"node_modules/{pkg}"]["integrity"].startswith("sha512-")


def test_js_bot_plays_a_whole_game_against_scopa_bot() -> None:
    node = node_ready()
    with ServerThread() as server:
        host = scopa_bot(server.address, "--games", "1", "--name", "pybot")
        assert host.stdout is not None
        first_line = host.stdout.readline()
        assert "created table 1" in first_line and "waiting" in first_line, first_line
        js = run_js(node, server.address, "--name", "jsbot")
        (rc_js, out_js), (rc_py, out_py) = finish(js, "the JavaScript bot"), finish(host)
    assert rc_js == 0 and rc_py == 0, out_js + out_py
    assert "player:jsbot sits at table 1, seat 1" in out_js
    assert "game over (target)" in out_js and "game 1/1 at table 1" in out_py
    totals_js = js_totals(out_js)
    totals_py = numbers(out_py.rsplit("totals", 1)[1])
    assert totals_js == totals_py and max(totals_js) >= 11  # the same game, seen from both seats (R22)
    # every command it received, checked against the clients' schema (docs/protocol.client.schema.json)
    checked, violations = schema_summary(out_js)
    assert checked > 50 and violations == 0, out_js


# ---------------------------------------------------------------- a scripted server


class ScriptedPeer:
    """One connection on 127.0.0.1:0 spoken to frame by frame, msgpack by hand."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(TIMEOUT)
        self.port = self.listener.getsockname()[1]
        self.conn: socket.socket | None = None
        self.seq = 0
        self.pings: list[dict[str, Any]] = []  # the client's own pings (§7 Liveness), whenever it sent them

    def accept(self) -> None:
        self.conn, _ = self.listener.accept()
        self.conn.settimeout(TIMEOUT)

    def send(self, name: str, body: dict[str, Any], sender: str, recipient: str, re: int | None = None,
             **extra: Any) -> int:  # fmt: skip
        assert self.conn is not None
        self.seq += 1
        command = {"v": PROTOCOL_VERSION, "seq": self.seq, "sender": sender, "recipient": recipient, "re": re,
                   "name": name, "body": body, **extra}  # fmt: skip
        payload = msgpack.packb(command, use_bin_type=True)
        self.conn.sendall(struct.pack(">I", len(payload)) + payload)
        return self.seq

    def _exactly(self, n: int) -> bytes:
        assert self.conn is not None
        data = b""
        while len(data) < n:
            chunk = self.conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError("the bot closed the connection")
            data += chunk
        return data

    def recv(self) -> dict[str, Any]:
        """The client's next command other than its own pings: a client pings a server quiet
        for a few seconds, which a slow machine can make of any pause, so its pings are kept
        aside in ``pings`` (whatever the peer sends next counts as heard, no pong needed)."""
        while True:
            (size,) = struct.unpack(">I", self._exactly(4))
            command = msgpack.unpackb(self._exactly(size), raw=False)
            assert isinstance(command, dict)
            assert set(command) == {"v", "seq", "sender", "recipient", "re", "name", "body"}, command
            assert command["v"] == PROTOCOL_VERSION
            if command["name"] != "ping":
                return command
            self.pings.append(command)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.listener.close()


def in_thread(script: Callable[[], None]) -> tuple[threading.Thread, list[BaseException]]:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            script()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, errors


def run_scripted(node: Path, peer: ScriptedPeer, script: Callable[[], None]) -> tuple[int, str]:
    """The bot against ``peer`` playing ``script``: the bot's exit status and output."""
    thread, errors = in_thread(script)
    try:
        rc, out = finish(run_js(node, f"127.0.0.1:{peer.port}", "--name", "jsbot"), "the JavaScript bot")
        thread.join(TIMEOUT)
    finally:
        peer.close()
    assert not errors, f"{errors[0]!r}\n{out}"
    return rc, out


RULES = {"preset": "scopa", "players": 2, "target": 11, "capture_mode": "traditional"}


def test_js_bot_ignores_unknown_keys_and_commands_and_answers_every_turn() -> None:
    node = node_ready()
    peer = ScriptedPeer()
    seen: list[dict[str, Any]] = []

    def script() -> None:
        peer.accept()
        hello = peer.recv()
        seen.append(hello)
        me = "player:jsbot"
        peer.send("welcome", {"you": me, "server": "scripted", "protocol": PROTOCOL_VERSION, "motd": "",
                              "features": ["later"]}, "lobby", me, re=hello["seq"], trace="a1")  # fmt: skip
        ask = peer.recv()
        seen.append(ask)
        table = {"id": "t9", "rules": {**RULES, "new_rule": True}, "description": "scopa", "seats": ["pybot", None],
                 "state": "waiting", "private": False, "spectators": 0, "away": [], "turn_timeout": None,
                 "stakes": "none"}  # fmt: skip
        peer.send("tables", {"tables": [table]}, "lobby", me, re=ask["seq"])
        join = peer.recv()
        seen.append(join)
        peer.send("joined", {"table": "t9", "seat": 1, "side": 1, "token": "x" * 24, "resumed": False,
                             "colour": "red"}, "table:t9", me, re=join["seq"])  # fmt: skip
        peer.send("seat_away", {"event": 3, "seat": 0, "name": "pybot", "grace_seconds": 120.0, "grace": 120.0},
                  "table:t9", "table:t9/all")  # fmt: skip
        peer.send("played", {"event": 4, "seat": 0, "card": "Rs", "captured": [], "scopa": False, "table": ["Rs"],
                             "forced": None, "thinking_ms": 800}, "table:t9", "table:t9/all")  # fmt: skip
        view = {"seat": 1, "side": 1, "hand": ["7d", "3c", "Rb"], "table": ["4s", "3b", "Rs"], "mood": "calm",
                "round": 1, "dealer": 0, "turn": 1, "stock": 30, "hand_sizes": [2, 3], "captured": [[], []],
                "scope": [0, 0], "scopa_cards": [[], []], "totals": [0, 0]}  # fmt: skip
        legal = [{"index": 0, "card": "3c", "capture": ["3b"], "hint": 0},
                 {"index": 1, "card": "7d", "capture": ["4s", "3b"], "hint": 1},
                 {"index": 2, "card": "Rb", "capture": ["Rs"], "hint": 2}]  # fmt: skip
        turn = peer.send("your_turn", {"event": 5, "legal": legal, "declarations": [], "view": view,
                                       "deadline": None}, "table:t9", me)  # fmt: skip
        seen.append(peer.recv())
        seen.append({"asked": turn})
        ping = peer.send("ping", {"nonce": 77, "why": "idle"}, "lobby", me)
        seen.append(peer.recv())
        seen.append({"asked": ping})
        peer.send("somebody_new_event", {"event": 6, "anything": [1, {"deep": None}]}, "table:t9", "table:t9/all")
        turn = peer.send("your_turn", {"event": 7, "legal": [{"index": 0, "card": "Rb", "capture": []}],
                                       "declarations": [], "view": view}, "table:t9", me)  # fmt: skip
        seen.append(peer.recv())
        seen.append({"asked": turn})
        peer.send("game_end", {"event": 9, "winner": 1, "totals": [3, 11], "reason": "target", "ratings": {}},
                  "table:t9", "table:t9/all")  # fmt: skip
        seen.append(peer.recv())

    rc, out = run_scripted(node, peer, script)
    assert rc == 0 and "game over (target): winner side 1, totals [3,11]" in out, out
    # unknown keys everywhere, an unknown command: no schema violation (the clients' schema is open)
    assert "checked 9 commands against the schema, 0 schema violations, 1 of unknown names skipped" in out, out
    hello, ask, join, play1, turn1, pong, ping, play2, turn2, bye = seen
    assert hello["name"] == "hello" and hello["sender"] == "guest" and hello["body"]["name"] == "jsbot"
    assert ask["name"] == "list_tables" and ask["sender"] == "player:jsbot"
    assert join["name"] == "join_table" and join["body"] == {"table": "t9"}
    # the legal move that takes the most cards (PROTOCOL.md §8 your_turn), answering that turn
    assert play1["name"] == "play" and play1["recipient"] == "table:t9" and play1["re"] == turn1["asked"]
    assert play1["body"] == {"card": "7d", "capture": ["4s", "3b"], "turn": 5}
    assert pong["name"] == "pong" and pong["body"] == {"nonce": 77} and pong["re"] == ping["asked"]
    assert play2["body"] == {"card": "Rb", "capture": [], "turn": 7} and play2["re"] == turn2["asked"]
    assert bye["name"] == "bye"
    # numbered 1, 2, 3... in the order sent, with any idle pings of its own in between
    sent = sorted(c["seq"] for c in (hello, ask, join, play1, pong, play2, bye, *peer.pings))
    assert sent == list(range(1, len(sent) + 1))
    assert [c["seq"] for c in (hello, ask, join, play1, pong, play2, bye)] == sorted(
        c["seq"] for c in (hello, ask, join, play1, pong, play2, bye))


def test_js_bot_reports_a_command_that_breaks_the_schema() -> None:
    node = node_ready()
    peer = ScriptedPeer()

    def script() -> None:
        peer.accept()
        hello = peer.recv()
        me = "player:jsbot"
        peer.send("welcome", {"you": me, "server": "scripted", "protocol": PROTOCOL_VERSION}, "lobby", me,
                  re=hello["seq"])  # fmt: skip
        peer.recv()  # list_tables
        peer.send("played", {"event": 4, "seat": 0, "card": "Zz", "captured": [], "scopa": False, "table": []},
                  "table:t9", "table:t9/all")  # fmt: skip
        peer.send("game_end", {"event": 9, "winner": 1, "totals": [3, 11], "reason": "target"}, "table:t9",
                  "table:t9/all")  # fmt: skip
        peer.recv()  # bye

    rc, out = run_scripted(node, peer, script)
    assert "schema violation in played (seq 2): /body/card must match pattern" in out, out
    assert "1 schema violations" in out and rc == 1, out


# ---------------------------------------------------------------- a lost connection


async def test_js_bot_resumes_its_seat_when_its_connection_is_lost_mid_game() -> None:
    """§7 Reconnecting: the proxy resets the bot's connection as it is about to carry the
    bot's fourth `your_turn` (and cuts it again at the ninth); the bot connects again,
    resumes with its token and the last event it got, and finishes the game, whose result
    is the one the server recorded."""
    from faultproxy import FaultProxy
    from scopa.server import NetworkEngine
    from scopa.server.journal.memory.storage import MemoryStorage

    node = node_ready()
    storage = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, storage=storage)
    await engine.start()
    try:
        async with FaultProxy(engine.port) as proxy, asyncio.timeout(SAFETY):
            proxy.reset_before("your_turn", skip=3)
            js = await asyncio.create_subprocess_exec(
                str(node), str(JS / "bot.js"), f"127.0.0.1:{proxy.port}", "--solo", "--name", "jsbot",
                "--protocol", str(PROTOCOL_VERSION), cwd=JS,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)  # fmt: skip
            await proxy.fired.wait()
            proxy.reset_before("your_turn", skip=4)
            out_bytes, _ = await js.communicate()
            rc = js.returncode
    finally:
        await engine.stop()
    out = out_bytes.decode()
    assert rc == 0, out
    assert proxy.stats.rule_resets == 2, out
    assert out.count("the connection was lost: resuming the seat at table 1") == 2, out
    assert out.count("player:jsbot is back at table 1, seat 0") == 2, out
    assert not re.search(r"^error:", out, re.MULTILINE), out  # nothing refused: no other table asked for
    [result] = storage.load_results()
    totals = js_totals(out)
    assert "game over (target)" in out and totals == list(result.totals) and max(totals) >= 11, out
    assert schema_summary(out)[1] == 0, out


async def test_js_bot_resumes_through_another_member_when_its_own_stops(redis_prefix: str, pg_url: str) -> None:
    """§7 "Finding another member": the bot, given member A's address alone, plays at a
    table of A against `scopa bot`; A stops mid-game (drained: its tables go to B through
    the shared journal).  The bot learned B's address from A's welcome, resumes there
    and finishes the game the journal records."""
    from redis_server import SERVER
    from test_cluster_failover import journaled_results, until
    from scopa.server import NetworkEngine
    from scopa.server.cluster import ClusterOptions

    node = node_ready()
    a, b = (NetworkEngine("127.0.0.1", 0, seed=seed, db=pg_url,
                          cluster=ClusterOptions(url=SERVER, prefix=redis_prefix, shared_journal=True))
            for seed in (1, 2))
    await a.start()
    await b.start()
    stopped = False
    try:
        assert a.cluster is not None
        await until(lambda: f"127.0.0.1:{b.port}" in a.cluster.addresses() if a.cluster else False,
                    "A's welcome names B")
        py = scopa_bot(f"127.0.0.1:{a.port}", "--name", "pybot", "--delay", "0.05")
        await until(lambda: len(a.tables) == 1, "pybot's table is made on A")
        js = run_js(node, f"127.0.0.1:{a.port}", "--name", "jsbot")
        [table] = a.tables.values()
        await until(lambda: table.events.last >= 10, "the game is under way")
        await a.stop()
        stopped = True
        (rc_js, out_js), (rc_py, out_py) = await asyncio.gather(
            asyncio.to_thread(finish, js, "the JavaScript bot"), asyncio.to_thread(finish, py))
    finally:
        await b.stop()
        if not stopped:
            await a.stop()
    assert rc_js == 0 and rc_py == 0, out_js + out_py
    assert f"resuming the seat at table {table.id} at 127.0.0.1:{b.port}" in out_js, out_js
    assert f"player:jsbot is back at table {table.id}" in out_js, out_js
    totals = js_totals(out_js)
    winner, journaled = (await journaled_results(pg_url))[table.id]
    assert "game over (target)" in out_js and tuple(totals) == journaled, (out_js, journaled)
    assert schema_summary(out_js)[1] == 0, out_js
