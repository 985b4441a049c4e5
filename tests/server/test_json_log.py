"""``scopa serve --log-format json``: every line of the log is one JSON object with the
time, the level, the event, the message and, for an event of a table, the table (for a
cluster member, its address as the member); the text format stays the default."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from procs import ROOT, SCOPA
from redis_server import SERVER, redis_client, redis_prefix  # noqa: F401 - the fixture
from scopa.bots import RandomBot
from ports import free_port
from test_cluster_failover import welcomed
from wire_client import WireClient

pytestmark = pytest.mark.process

DEADLINE = 30.0  # a safety net: every wait normally ends long before


def serve(port: int, tmp: Path, *extra: str, lang: str | None = None) -> subprocess.Popen[str]:
    env = dict(os.environ, NO_COLOR="1")
    if lang is not None:
        env = {k: v for k, v in env.items() if k not in ("LC_ALL", "LC_MESSAGES")} | {"LANG": lang}
    return subprocess.Popen([*SCOPA, "serve", "--port", str(port), "--no-announce",
                             "--admin-token-file", str(tmp / f"token-{port}"), *extra],
                            cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


async def listening(port: int, tmp: Path) -> WireClient:
    """A connection to the server started by :func:`serve` in ``tmp``, once it listens: its
    operator token file is there (written as it starts to listen), so the port answered is
    that server's and not another test's that happened to pick the same free port."""
    async with asyncio.timeout(DEADLINE):
        while not (tmp / f"token-{port}").exists():
            await asyncio.sleep(0.05)
        while True:
            try:
                return await WireClient.connect(port)
            except OSError:
                await asyncio.sleep(0.05)


def stopped(proc: subprocess.Popen[str]) -> list[dict[str, Any]]:
    """SIGTERM, then every line it wrote, each parsed as JSON (failing on one that is not)."""
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 0, err
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert lines
    entries = []
    for line in lines:
        entry = json.loads(line)
        assert isinstance(entry, dict), line
        assert {"time", "level", "event", "message"} <= entry.keys(), line
        datetime.fromisoformat(entry["time"].replace("Z", "+00:00"))
        assert entry["level"] in ("debug", "info", "warning", "error", "critical"), line
        entries.append(entry)
    return entries


async def test_a_game_logged_as_json_lines_with_its_table(tmp_path: Path) -> None:
    port = free_port()
    proc = serve(port, tmp_path, "--log-format", "json")
    try:
        await (await listening(port, tmp_path)).close()
        ada = await WireClient.connect(port, "ada")
        table = await ada.create(bots=["random"])
        events = await ada.play_game(RandomBot(seed=3))
        assert events[-1].name == "game_end"
        await ada.close()
        entries = stopped(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    events_of_table = {e["event"] for e in entries if e.get("table") == table}
    assert {"table.game_started", "table.game_finished"} <= events_of_table, entries
    started = next(e for e in entries if e["event"] == "table.game_started")
    assert started["level"] == "info" and f"table {table}: game started" in started["message"]
    assert "member" not in started  # a server of its own is no member
    assert any(e["event"] == "listening_on" and e["message"] == f"listening on 127.0.0.1:{port}" for e in entries)
    assert [e["event"] for e in entries if e["event"] in ("server.serving", "server.stopped")] == [
        "server.serving", "server.stopped"]  # what the console says, in the log's format too


async def test_json_lines_stay_in_english_under_an_italian_locale(tmp_path: Path) -> None:
    """A log is read by programs: its messages do not follow the terminal's language
    (the console lines of ``scopa serve`` do)."""
    port = free_port()
    proc = serve(port, tmp_path, "--log-format", "json", lang="it_IT.UTF-8")
    try:
        await (await listening(port, tmp_path)).close()
        entries = stopped(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    said = {e["event"]: e["message"] for e in entries}
    assert said["server.serving"].startswith(f"Scopa server on 127.0.0.1:{port}"), said
    assert said["server.stopped"] == "server stopped", said


async def test_text_lines_stay_the_default(tmp_path: Path) -> None:
    port = free_port()
    proc = serve(port, tmp_path)
    try:
        await (await listening(port, tmp_path)).close()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=DEADLINE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert f"listening on 127.0.0.1:{port}" in err and not err.lstrip().startswith("{")


async def test_a_cluster_members_lines_carry_its_address(tmp_path: Path, redis_prefix: str) -> None:
    port = free_port()
    proc = serve(port, tmp_path, "--log-format", "json", "--cluster", SERVER, "--cluster-prefix", redis_prefix)
    redis = await redis_client()
    try:
        await (await listening(port, tmp_path)).close()
        client = await welcomed(port, "ada")  # unavailable until it has joined the cluster
        await client.close()
        entries = stopped(proc)
    finally:
        await redis.aclose()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    address = f"127.0.0.1:{port}"
    joined = [e for e in entries if e["event"] == "cluster.member_joined_the_lobby_at"]
    assert joined and all(e["member"] == address for e in joined), entries
    after = entries[entries.index(joined[0]) + 1:]
    assert after and all(e.get("member") == address for e in after), after
