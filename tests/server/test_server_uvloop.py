"""The server runs on uvloop (the `fast` extra) as on asyncio's own loop: a whole game
between a client and a server bot, the ping answered, the connection closed cleanly."""

from __future__ import annotations

import asyncio

import uvloop

from scopa.bots import RandomBot
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine

from wire_client import WireClient


async def _a_game_on_this_loop() -> tuple[str, str, bool]:
    server = NetworkEngine("127.0.0.1", 0, seed=11, limits=Limits(commands_per_second=None))
    await server.start()
    try:
        c = await WireClient.connect(server.port, "uvi")
        seq = c.send(wire.Ping(nonce=7))
        pong = await c.recv_until("pong")
        assert pong.re == seq and pong.body.nonce == 7
        await c.create(bots=["greedy"])
        events = await c.play_game(RandomBot(seed=3))
        await c.close()
        return type(asyncio.get_running_loop()).__module__, events[-1].body.reason, bool(server.sessions)
    finally:
        await server.stop()


def test_a_whole_game_is_played_on_a_server_running_on_uvloop() -> None:
    loop_module, reason, _ = uvloop.run(_a_game_on_this_loop())
    assert loop_module.startswith("uvloop")
    assert reason in ("target", "trentino", "all_denari")  # R22: the game ended by its rules
