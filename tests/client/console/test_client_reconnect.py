"""The client gets its seat back by itself: ClientSession.play_game after a
killed connection, `scopa bot` after its connection is killed and after the server
process is killed and restarted; `scopa watch` / ClientSession.watch."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

from scopa.bots import GreedyBot
from scopa.client.console import watch_table
from scopa.client.net import ClientSession
from serverthread import ServerThread
from scopa.engine import Deal, Declare, Play, Player, View, replay
from scopa.server import NetworkEngine

from procs import ROOT, SAFETY, SCOPA, stop
from procs import finish as _finish
from procs import scopa_bot as _bot
from ports import free_port


class Saboteur(Player):
    """Greedy, but on some turns has the server drop its connection before answering."""

    def __init__(self, engine: NetworkEngine, name: str, kill_on: set[int]) -> None:
        self.engine, self.me, self.kill_on = engine, name, kill_on
        self.bot = GreedyBot()
        self.turns = 0
        self.kills = 0

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.turns += 1
        if self.turns in self.kill_on:
            self.engine.names[self.me].abort()  # the connection dies under the client
            self.kills += 1
        return await self.bot.choose(view, legal)


async def test_play_game_gets_its_seat_back_after_killed_connections() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=808)
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            s = await ClientSession.connect("127.0.0.1", engine.port, "rita")
            s.first_backoff = 0.01
            await s.create_table(fill_with_bots=["greedy"])
            table = s.table_id
            player = Saboteur(engine, "rita", {2, 5, 8})
            result = await s.play_game(player)
            assert result.reason == "target" and player.kills == 3 and s.reconnects == 3
            t = engine.tables[table]  # type: ignore[index]
            assert t.master is not None
            again = replay(t.rules, t.master.first_dealer, t.master.actions)
            assert again.totals == t.master.state.totals and list(result.totals) == t.master.state.totals
            plays = [a for a in t.master.actions if not isinstance(a, Deal)]
            played = [e for e in result.events if type(e).__name__ == "Played"]
            assert len(plays) == len(played)  # each play once: nothing lost, nothing doubled
            await s.close()
    finally:
        await engine.stop()


async def test_watching_with_the_client_session() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=9)
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            p = await ClientSession.connect("127.0.0.1", engine.port, "pia")
            await p.create_table(fill_with_bots=["random"])
            w = await ClientSession.connect("127.0.0.1", engine.port, "wes")
            console = Console(record=True, width=200)
            watching = asyncio.create_task(watch_table(w, console, p.table_id))  # type: ignore[arg-type]
            await p.play_game(GreedyBot())
            assert await watching
            lines = console.export_text().splitlines()
            assert any(line.startswith("pia played") for line in lines) and any("Game over" in x for x in lines)
            assert "(the game is over)" in lines[-1]
            await p.close()
            await w.close()
    finally:
        await engine.stop()


def _on_server(server: ServerThread, coro) -> object:  # type: ignore[no-untyped-def]
    return asyncio.run_coroutine_threadsafe(coro, server._loop).result(SAFETY)  # type: ignore[arg-type]


def test_scopa_bot_reconnects_after_its_connection_is_killed() -> None:
    with ServerThread(seed=3) as server:
        proc = _bot(server.address, "--name", "kbot", "--fill-with-bots", "greedy", "--delay", "0.02")
        assert "created table 1" in proc.stdout.readline()  # type: ignore[union-attr]

        async def kill_after_some_plays() -> int:
            engine = server.engine
            while len(engine.tables["1"].master.actions) < 6:  # a condition, not a timing guess
                await asyncio.sleep(0.01)
            engine.names["kbot"].abort()
            return len(engine.tables["1"].master.actions)

        _on_server(server, kill_after_some_plays())
        rc, out = _finish(proc)
        t = server.engine.tables["1"]
    assert rc == 0, out
    assert "game 1/1 at table 1" in out and "(target)" in out and "Traceback" not in out
    again = replay(t.rules, t.master.first_dealer, t.master.actions)
    assert again.totals == t.master.state.totals


def _serve(port: int, db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([*SCOPA, "serve", "--port", str(port), "--db", str(db)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=dict(os.environ, NO_COLOR="1"))


def _wait_listening(port: int) -> None:
    for _ in range(400):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            import time

            time.sleep(0.05)  # waiting for a child process to listen: nothing else to wait on
    raise AssertionError("the server did not start")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_scopa_bot_reconnects_after_the_server_is_killed_and_restarted(tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "scopa.db"
    server = _serve(port, db)
    try:
        _wait_listening(port)
        proc = _bot(f"127.0.0.1:{port}", "--name", "phoenix", "--fill-with-bots", "greedy", "--delay", "0.05")
        assert "created table" in proc.stdout.readline()  # type: ignore[union-attr]
        server.send_signal(signal.SIGKILL)  # mid-game
        server.wait(SAFETY)
        server = _serve(port, db)  # the same file: the game is restored, the bot resumes
        rc, out = _finish(proc)
    finally:
        stop(server, 10, signal.SIGINT)
    assert rc == 0, out
    assert "game 1/1 at table" in out and "(target)" in out and "Traceback" not in out


async def test_the_lobby_reconnects_by_itself_after_a_dropped_connection() -> None:
    """`scopa play` gets back to the lobby (not only to a seat) on its own."""
    import io

    from rich.console import Console

    from scopa.client.console import Lobby

    engine = NetworkEngine("127.0.0.1", 0, seed=9)
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            s = await ClientSession.connect("127.0.0.1", engine.port, "lobbyist")
            s.first_backoff = 0.01
            answers = iter(["r", "q"])
            loop = asyncio.get_running_loop()

            async def kill() -> None:
                engine.names["lobbyist"].abort()
                await s._lost_event.wait()  # the client has seen its connection end

            def typed(prompt: object) -> str:
                answer = next(answers)
                if answer == "r":  # the connection dies while the person is typing
                    asyncio.run_coroutine_threadsafe(kill(), loop).result()
                return answer

            out = io.StringIO()
            lobby = Lobby(s, Console(file=out, width=120), GreedyBot, input_fn=typed)
            await lobby.run()
            text = out.getvalue()
            assert "retrying" in text and "Connected again." in text
            assert s.reconnects == 1 and not s.closed
            assert s.name is not None and s.name.startswith("lobbyist")
            assert await s.list_tables() == []  # the new connection works
            await s.close()
    finally:
        await engine.stop()
