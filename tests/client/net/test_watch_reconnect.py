"""A spectator whose connection drops comes back by itself (PROTOCOL.md §7, Watching):
ClientSession.watch and `scopa watch` reconnect, watch the table again from the last
event seen and show every public event once: no gap, nothing twice."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Sequence

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession
from serverthread import ServerThread
from scopa.engine import Declare, Play, Player, View
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine

from procs import ROOT, SAFETY, SCOPA, finish, scopa_bot


class DropsTheWatcher(Player):
    """Greedy; on some of its turns the server drops the spectator's connection."""

    def __init__(self, engine: NetworkEngine, watcher: str, on: set[int]) -> None:
        self.engine, self.watcher, self.on = engine, watcher, on
        self.bot, self.turns = GreedyBot(), 0

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.turns += 1
        if self.turns in self.on:
            self.engine.names[self.watcher].abort()
        return await self.bot.choose(view, legal)


def public_events(engine: NetworkEngine, table_id: str, after: int) -> list[int]:
    return [e.event for e in engine.tables[table_id].events.kept if e.seat is None and e.event > after]


async def test_watch_comes_back_by_itself_and_shows_every_event_once() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=31)
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            p = await ClientSession.connect("127.0.0.1", engine.port, "pat")
            await p.create_table(fill_with_bots=["greedy"])
            table = p.table_id
            assert table is not None
            w = await ClientSession.connect("127.0.0.1", engine.port, "wes")
            w.first_backoff = 0.01
            snap = await w.watch_table(table)
            shown: list[Command] = []
            watching = asyncio.create_task(w.watch(table, shown.append))
            await p.play_game(DropsTheWatcher(engine, "wes", {2, 5}))
            left = await watching
            assert left.reason == "game_over" and w.reconnects == 2
            numbers = [n for c in shown if isinstance(c.body, wire.TableEvent) and (n := c.body.event)]
            assert numbers == public_events(engine, table, snap.event)  # every one, in order, once
            assert [c.name for c in shown].count("game_end") == 1
            await p.close()
            await w.close()
    finally:
        await engine.stop()


def test_scopa_watch_survives_a_dropped_connection() -> None:
    with ServerThread(seed=5) as server:
        host = scopa_bot(server.address, "--name", "host", "--delay", "0.05")
        deadline = time.monotonic() + SAFETY
        while "1" not in server.engine.tables and time.monotonic() < deadline:
            time.sleep(0.02)
        watch = subprocess.Popen([*SCOPA, "watch", "--plain", "--server", server.address, "--table", "1",
                                  "--name", "viv"], cwd=ROOT, text=True, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT)  # fmt: skip
        table = server.engine.tables["1"]
        while not table.broadcaster.spectators and time.monotonic() < deadline:  # watching before the game starts
            time.sleep(0.02)
        guest = scopa_bot(server.address, "--name", "guest", "--table", "1", "--delay", "0.05")
        assert watch.stdout is not None
        lines = []
        for line in watch.stdout:  # after a few plays, the server drops the spectator
            lines.append(line)
            if sum(" played " in x for x in lines) == 3:
                break
        asyncio.run_coroutine_threadsafe(drop(server.engine, "viv"), server._loop).result(SAFETY)  # type: ignore[arg-type]
        rc, rest = finish(watch, "scopa watch")
        finish(host)
        finish(guest)
        out = "".join(lines) + rest
        assert rc == 0, out
        played = [e for e in table.events.kept if e.name == "played"]
        shown = [x for x in out.splitlines() if " played " in x]
        assert len(shown) == len(played) > 3, out  # every play once: none lost, none twice
        assert out.count("Game over") == 1, out
        assert "Connection to the server lost" in out and "Connected again" in out, out  # the person is told


async def drop(engine: NetworkEngine, name: str) -> None:
    engine.names[name].abort()
