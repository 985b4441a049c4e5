"""`scopa play` started again after it was killed mid-game, back at its seat: until the
game as it stands is here the screen says it is reconnecting (never an empty table and
hand); a seat a bot took over from its person keeps its "(bot)" name; and what happened
meanwhile stays on the status line over what the table says next, until the person moves."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.bots import make_bot
from scopa.client.net import ClientSession, MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.engine import RuleSet
from scopa.server import NetworkEngine

from test_tui_leaving_told import join_the_only_table, screen_text
from test_tui_network import SAFETY, engine, until  # noqa: F401 - engine: the server fixture

pytestmark = pytest.mark.integration


async def test_a_restarted_client_says_it_is_reconnecting_until_the_game_is_here_and_keeps_the_bots_name(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    bea = await ClientSession.connect("127.0.0.1", engine.port, "bea")
    store = MemoryTokenStore()
    try:
        async with asyncio.timeout(SAFETY):
            await bea.create_table(RuleSet.build("scopa"), bot_takeover=True)
            first = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
            async with first.run_test(size=(80, 24)) as pilot:
                await join_the_only_table(first, pilot, first=False)
                await bea.leave_table()  # a bot plays bea's seat from now on
                await until(pilot, lambda: first.board_screen is not None and first.board_screen.asking, limit=1000)
                top = str(first.board_screen.query_one("#top", Static).render())  # type: ignore[union-attr]
                assert "bea (bot)" in top, top
            # The client is gone (as if killed): its seat waits; a new one comes back to it. What the
            # server sends back waits here until the test lets it through (a slow link).
            gate = asyncio.Event()
            play_game = ClientSession.play_game

            async def slow_play_game(self: ClientSession, *args: object, **kwargs: object) -> object:
                await gate.wait()
                return await play_game(self, *args, **kwargs)  # type: ignore[arg-type]

            monkeypatch.setattr(ClientSession, "play_game", slow_play_game)
            second = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
            async with second.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: second.lobby is not None and second.lobby._question is not None)
                await pilot.press("s")  # Italian: s for sì
                await until(pilot, lambda: second.board_screen is not None and second.screen is second.board_screen)
                await pilot.pause(0.1)
                shown = screen_text(second)
                assert "Riconnessione al tavolo" in shown, shown
                assert "nessuna carta in mano" not in shown and "la tavola è vuota" not in shown, shown
                second.on_link(False, "connection lost")  # the link drops meanwhile, and comes back: said as ever,
                await until(pilot, lambda: "Connessione al server persa: riprovo" in screen_text(second))
                second.on_link(True, "")  # then the wait for the game is said again
                await until(pilot, lambda: "Riconnessione al tavolo" in screen_text(second))
                gate.set()
                await until(pilot, lambda: second.board_screen is not None and second.board_screen.asking, limit=1000)
                await pilot.pause(0.1)
                shown = screen_text(second)
                assert "Riconnessione al tavolo" not in shown, shown
                assert "La tua mano" in shown, shown
                top = str(second.board_screen.query_one("#top", Static).render())  # type: ignore[union-attr]
                assert "bea (bot)" in top, top
                assert "Per bea gioca un bot" in shown, shown
    finally:
        await bea.close()


async def test_what_happened_meanwhile_stays_in_sight_over_the_next_play(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    bea = await ClientSession.connect("127.0.0.1", engine.port, "bea")
    store = MemoryTokenStore()
    plays: asyncio.Task[object] | None = None
    try:
        async with asyncio.timeout(SAFETY):
            await bea.create_table(RuleSet.build("scopa"))
            first = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
            async with first.run_test(size=(80, 24)) as pilot:
                await join_the_only_table(first, pilot, first=False)
                board = first.board_screen.board  # type: ignore[union-attr]
                assert board.to_move != board.viewer  # ada deals: bea plays first, and bea waits
            second = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
            async with second.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: second.lobby is not None and second.lobby._question is not None)
                await pilot.press("s")
                back = "Di nuovo al tavolo"
                await until(pilot, lambda: any(m.startswith(back) for m in second.messages), limit=1000)
                screen = second.board_screen
                assert screen is not None
                plays = asyncio.ensure_future(bea.play_game(make_bot("greedy")))  # bea plays her card
                await until(pilot, lambda: screen.asking, limit=1000)
                await pilot.pause(0.1)
                status = str(screen.query_one("#status", Static).render())
                assert back in status, status  # still in sight
                assert "bea" in status, status  # and under it what bea just played
                await pilot.press("1")  # ada's move: the news of her coming back is old now
                await until(pilot, lambda: back not in str(screen.query_one("#status", Static).render()))
    finally:
        if plays is not None:
            plays.cancel()
        await bea.close()
