"""The key lines of the lobby and of the full-screen replay at 80 and 100 columns, in
English and in Italian (the language is read when the client starts, so each runs in a
child process under its locale): every key is in sight, with room to spare at the right."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from procs import ROOT

pytestmark = pytest.mark.process

SPARE = {100: 6, 80: 2}  # columns left free at the right

PROBE = r'''
import asyncio, json, sys
from textual.widgets._footer import FooterKey
from scopa.client.net import MemoryTokenStore
from scopa.client.tui import NetApp, ReplayApp
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import GameOverScreen
from scopa.client.tui.online import LobbyScreen
from scopa.client.tui.replay import ReplayScreen
from scopa.engine import RuleSet
from scopa.protocol.record import replay_steps
from scopa.server import NetworkEngine

from test_replay_app import game  # tests/client/tui, on the path given below


async def keys(app, ready):
    async with app.run_test(size=(int(sys.argv[1]), 32)) as pilot:
        for _ in range(500):
            if ready(app):
                break
            await pilot.pause(0.02)
        await pilot.pause()
        return [[f"{k.key_display} {k.description}", k.region.right] for k in app.screen.query(FooterKey)]


async def local_replay_keys(app):
    """The key line of scopa local's replay (r at the game's end): the app's ? is in it too."""
    async with app.run_test(size=(int(sys.argv[1]), 32)) as pilot:
        for _ in range(3000):
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.pause(0.02)
        await pilot.press("r")
        for _ in range(500):
            if isinstance(app.screen, ReplayScreen):
                break
            await pilot.pause(0.02)
        await pilot.pause()
        return [[f"{k.key_display} {k.description}", k.region.right] for k in app.screen.query(FooterKey)]


async def main():
    engine = NetworkEngine("127.0.0.1", 0)
    await engine.start()
    try:
        lobby = await keys(NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore()),
                           lambda app: isinstance(app.screen, LobbyScreen))
    finally:
        await engine.stop()
    record = await game(3)
    replay = await keys(ReplayApp(record, list(replay_steps(record))), lambda app: True)
    after_local = await local_replay_keys(LocalGameApp(RuleSet(), ["greedy", "random"], 3, pace=0, round_pause=0.01))
    print(json.dumps({"lobby": lobby, "replay": replay, "local replay": after_local}))


asyncio.run(main())
'''


@pytest.mark.parametrize("width", [100, 80])
@pytest.mark.parametrize("lang", ["en_GB.UTF-8", "it_IT.UTF-8"])
def test_every_key_fits(lang: str, width: int) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LANG=lang, PYTHONPATH=os.pathsep.join(filter(None, (str(Path(__file__).parent), env.get("PYTHONPATH")))))
    done = subprocess.run([sys.executable, "-c", PROBE, str(width)], cwd=str(ROOT), env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert any("q " in key for key, _ in shown["replay"]) and any("? " in key for key, _ in shown["lobby"])
    assert any("? " in key for key, _ in shown["local replay"])
    for screen, keys in shown.items():
        for key, right in keys:
            assert right <= width - SPARE[width], (screen, key, right, keys)
