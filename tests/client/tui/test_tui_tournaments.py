"""The full-screen client's tournaments (PROTOCOL.md §16): o in the lobby shows those open
and the finished ones with their final standings; a line there registers."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Input, RichLog, Static

from club_players import ClubPlayer, Server, join_all, start
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions
from scopa.server.core.clock import FakeClock
from test_club_tournament import create
from test_tui_network import app_for, until

pytestmark = pytest.mark.integration

SAFETY = 60


async def create_anew(server: Server) -> str:
    """A tournament open for registration, created by dan (who hears of no other)."""
    dan = ClubPlayer("dan", server)
    await dan.connect()
    tid = await create(dan, rounds=1, cap=4)
    await dan.close()
    return tid


def log_text(screen: object) -> str:
    log = screen.query_one("#tournaments", RichLog)  # type: ignore[attr-defined]
    return "\n".join("".join(segment.text for segment in line) for line in log.lines)


async def test_o_shows_the_open_and_finished_tournaments_and_registers() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=4, clock=FakeClock(), club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            server = Server(engine.port)
            players = [ClubPlayer(name, server, seed=i) for i, name in enumerate(("ada", "bob"))]
            for p in players:
                await p.connect()
            done = await create(players[0], rounds=1, cap=2)
            await join_all(players, done)
            await asyncio.gather(*start(players, done))
            still = await create_anew(server)
            app = app_for(engine, "cal")
            async with app.run_test(size=(120, 50)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await pilot.press("o")
                await until(pilot, lambda: app.screen.query("#tournaments") and "final standings" in log_text(app.screen))
                shown = log_text(app.screen)
                finished = shown.index("Finished tournaments")
                assert still in shown[:finished] and done in shown[finished:]
                assert f"Tournament {done}: final standings after round 1" in shown
                assert "ada" in shown[shown.index("final standings"):] and "bob" in shown
                app.screen.query_one("#tournament-action", Input).value = f"join {still}"
                await pilot.press("enter")
                said = f"Tournament {still}: registering, 1/4 entrants."
                await until(pilot, lambda: bool(app.screen.query("#tournaments-said")) and said in str(
                    app.screen.query_one("#tournaments-said", Static).render()))
                assert engine.club is not None
                assert [e.name for e in engine.club.tournaments.directors[still].state.entrants] == ["cal"]
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            for p in players:
                await p.close()
    finally:
        await engine.stop()
