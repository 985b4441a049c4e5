"""The terminal client away longer than the grace period: a bot played its seat; when the
client gets through again (its seat token, the same resume) the person plays the seat
again and is told so."""

from __future__ import annotations

import asyncio
import socket

from scopa.client.net import MemoryTokenStore
from scopa.client.tui import NetApp
from scopa.client.tui.online import LobbyScreen
from scopa.client.tui.online.lobby import CreateTableScreen
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock

from faultproxy import FaultProxy
from test_tui_network import until
from wire_client import WireClient

SAFETY = 90


def closed_port() -> int:
    """A port nothing listens on (its socket bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_the_terminal_client_takes_its_seat_back_from_the_bot() -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, grace=120.0, clock=clock)
    await engine.start()
    bea: WireClient | None = None
    try:
        async with asyncio.timeout(SAFETY), FaultProxy(engine.port) as proxy:
            app = NetApp("127.0.0.1", proxy.port, "ada", MemoryTokenStore())
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby_pushes)
                await pilot.press("c")
                await until(pilot, lambda: isinstance(app.screen, CreateTableScreen))
                await pilot.press("ctrl+s")  # a table for two people
                await until(pilot, lambda: app.session is not None and app.session.table_id is not None)
                assert app.session is not None
                table = engine.tables[app.session.table_id]  # type: ignore[index]
                me = app.session.seat
                bea = await WireClient.connect(engine.port, "bea")
                await bea.join(table.id)
                await until(pilot, lambda: app.board_screen is not None and table.master is not None)

                proxy.retarget(closed_port())  # the client cannot get through for a while
                proxy.reset_all()
                await until(pilot, lambda: table.seats[me].away, limit=2000)  # type: ignore[index, union-attr]
                clock.advance(120.0)  # the grace period runs out: a bot plays the seat
                assert table.seats[me].bot is not None  # type: ignore[index, union-attr]

                proxy.retarget(engine.port)  # through again: the client resumes with its token
                await until(pilot, lambda: table.seats[me].bot is None, limit=2000)  # type: ignore[index, union-attr]
                said = "You were away too long, so a bot played in your place; now you play again."
                await until(pilot, lambda: said in app.messages, limit=2000)
                screen = app.board_screen
                assert screen is not None and me not in screen.board.bot_plays
    finally:
        if bea is not None:
            await bea.close()
        await engine.stop()
