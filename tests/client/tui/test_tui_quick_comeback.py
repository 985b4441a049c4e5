"""Back at a seat after a restart, in a game this seat left and took back before: the
server replays the game from its start, an earlier ``seat_back`` of this seat included.
That one is history: the catching up goes on to the end of what was missed, and the board
is drawn once as it stands (not from the earlier comeback on, play by play), and the plays
it counts as missed are the others' (not the person's own, made before the restart)."""

from __future__ import annotations

import asyncio

import pytest

from scopa.bots import make_bot
from scopa.client.net import ClientSession
from scopa.client.tui import NetApp
from scopa.client.tui.dialogs import CaptureChoiceScreen
from scopa.server import NetworkEngine

from faultproxy import FaultProxy
from test_tui_network import gone_with_its_seat_kept, until

pytestmark = pytest.mark.integration

SAFETY = 90


async def back_at_the_seat(app: NetApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """Start, answer y to the saved seat's question, until the person's turn."""
    await until(pilot, lambda: app.lobby is not None and app.lobby._question is not None)
    await pilot.press("y")
    await until(pilot, lambda: app.board_screen is not None and app.board_screen.asking, limit=1000)


async def test_a_restart_after_an_earlier_comeback_catches_up_to_the_end() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=3)
    await engine.start()
    bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
    bob_plays: asyncio.Task[object] | None = None
    try:
        async with asyncio.timeout(SAFETY):
            ada = await ClientSession.connect("127.0.0.1", engine.port, "ada")
            info = await ada.create_table(preset="scopa")
            await bob.join_table(info.id)
            bob_plays = asyncio.ensure_future(bob.play_game(make_bot("greedy")))  # bob plays at once each turn
            await ada.wait_for_game_start(10)
            store = gone_with_its_seat_kept(ada, engine.port)  # the first client is gone
            first = NetApp("127.0.0.1", engine.port, "ada", store)
            async with first.run_test(size=(80, 24)) as pilot:
                await back_at_the_seat(first, pilot)  # the table tells everyone: seat_back
                screen = first.board_screen
                assert screen is not None
                before = len(screen.board.plays)
                await pilot.press("1")
                if isinstance(first.screen, CaptureChoiceScreen):
                    await pilot.press("1")
                await until(pilot, lambda: screen.asking and len(screen.board.plays) >= before + 2, limit=1000)
                plays = len(screen.board.plays)  # ada's and bob's, after the comeback
            second = NetApp("127.0.0.1", engine.port, "ada", store)
            async with second.run_test(size=(80, 24)) as pilot:
                await back_at_the_seat(second, pilot)
                screen = second.board_screen
                assert screen is not None and len(screen.board.plays) == plays
                said = [m for m in second.messages if m.startswith("Back at table")]
                # a new process does not know which of them ada saw: no count that could be wrong
                assert said == [f"Back at table {info.id}, as it stands now: this round's plays are in its list."]
    finally:
        if bob_plays is not None:
            bob_plays.cancel()
        await bob.close()
        await engine.stop()


async def test_a_quick_reconnect_with_no_seat_back_is_drawn_at_once() -> None:
    """Within the server's window nobody is told the seat went away and came back (no
    ``seat_back``): the board is not held until the other player moves."""
    engine = NetworkEngine("127.0.0.1", 0, seed=3)
    await engine.start()
    bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
    try:
        async with asyncio.timeout(SAFETY), FaultProxy(engine.port) as proxy:
            ada = await ClientSession.connect("127.0.0.1", engine.port, "ada")
            info = await ada.create_table(preset="scopa")
            await bob.join_table(info.id)  # bob is a person thinking: he does not play here
            await ada.wait_for_game_start(10)
            store = gone_with_its_seat_kept(ada, proxy.port)  # the first client is gone
            app = NetApp("127.0.0.1", proxy.port, "ada", store)
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: app.lobby is not None and app.lobby._question is not None)
                await pilot.press("y")
                await until(pilot, lambda: app.board_screen is not None and app.board_screen.is_attached
                            and not app.board_screen.held)  # seat_back told: the window starts
                screen, session = app.board_screen, app.session
                assert screen is not None and session is not None
                assert screen.board.to_move != screen.board.viewer  # bob's turn
                proxy.reset_all()  # the connection drops and comes back at once, within the window
                await until(pilot, lambda: session.reconnects == 1, limit=1000)
                await until(pilot, lambda: not screen.held)
    finally:
        await bob.close()
        await engine.stop()
