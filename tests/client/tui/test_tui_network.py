"""`scopa play` and `scopa watch` as the Textual app, against a real server on loopback:
the lobby, the create-table form, a whole game, watching and the reconnecting banner
(pilot tests; seat news and table chat: test_tui_table_life.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.widgets import DataTable, Select, Static

from scopa.client.net import ClientSession, MemoryTokenStore, SavedSeat
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import ConfirmScreen, GameOverScreen, RoundEndScreen
from scopa.client.tui.replay import ReplayScreen
from scopa.client.tui.online import CreateTableScreen, LobbyScreen
from scopa.client.tui import NetApp
from scopa.server import NetworkEngine

from faultproxy import FaultProxy
from test_server_games import seeded_server

SAFETY = 120  # a guard against a hang: a whole game and its replay on a machine under load


engine = seeded_server(31, name="engine")


async def until(pilot, check: Callable[[], bool], limit: int = 400) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        if check():
            return
        await pilot.pause(0.02)
    raise AssertionError("the app did not get there")


async def sit_at_a_new_table(app: NetApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """From the lobby: c, a medium bot for the other seat, then Ctrl+S, until the first turn."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await pilot.press("c")
    await until(pilot, lambda: isinstance(app.screen, CreateTableScreen) and bool(app.screen.query("#bots")))
    app.screen.query_one("#bots", Select).value = "medium"  # bots: one choice away from the default (people)
    await pilot.press("ctrl+s")
    await until(pilot, lambda: app.board_screen is not None and app.board_screen.asking)


async def back_at_the_seat(app: NetApp, pilot) -> BoardScreen:  # type: ignore[no-untyped-def]
    """Started again with a seat kept: y to the lobby's question of going back to it, until
    the board asks for a move; that board."""
    await until(pilot, lambda: app.lobby is not None and app.lobby._question is not None)
    await pilot.press("y")
    await until(pilot, lambda: app.board_screen is not None and app.board_screen.asking)
    assert app.board_screen is not None
    return app.board_screen


def gone_with_its_seat_kept(session: ClientSession, port: int) -> MemoryTokenStore:
    """A token store keeping ``session``'s seat, as the client of the server at ``port`` saved
    it; the session's connection then cut (the old client is gone): its seat waits for it."""
    assert session.token is not None and session.table_id is not None and session.seat is not None
    store = MemoryTokenStore()
    store.save(SavedSeat(server=f"127.0.0.1:{port}", name=session.name, table=session.table_id, seat=session.seat,
                         token=session.token))
    session._writer.transport.abort()  # type: ignore[attr-defined]
    return store


@asynccontextmanager
async def at_the_lobby_behind_a_proxy(seed: int, safety: float) -> AsyncIterator[tuple[NetworkEngine, FaultProxy, NetApp, Any]]:
    """A server of ``seed`` with a fault proxy in front, and ada's app through the proxy, at
    the lobby it has drawn (all within ``safety`` seconds): the server, the proxy, the app
    and its pilot."""
    engine = NetworkEngine("127.0.0.1", 0, seed=seed)
    await engine.start()
    try:
        async with asyncio.timeout(safety), FaultProxy(engine.port) as proxy:
            app = NetApp("127.0.0.1", proxy.port, "ada", MemoryTokenStore())
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby_pushes)
                yield engine, proxy, app, pilot
    finally:
        await engine.stop()


def app_for(engine: NetworkEngine, name: str = "ada", store: MemoryTokenStore | None = None,
            watch: str | None = None) -> NetApp:
    return NetApp("127.0.0.1", engine.port, name, store or MemoryTokenStore(), watch=watch)


async def test_the_lobby_lists_the_servers_tables(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
        await bob.create_table(preset="scopa")  # bob waits for a second player
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            assert list(lobby.tables) == [bob.table_id]
            assert lobby.query_one("#tables", DataTable).row_count == 1
        await bob.close()


async def test_the_create_form_explains_presets_and_options_from_the_rules_model(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            form = app.screen
            form.query_one("#preset", Select).value = "cirulla"
            await pilot.pause()
            explain = str(form.query_one("#preset-explain", Static).render())
            assert "Ligurian" in explain
            assert form.query_one("#target", Select).value == 51  # the preset's own target
            form.query_one("#capture_mode", Select).value = "fewest"
            await pilot.pause()
            assert "as few cards as possible" in str(form.query_one("#capture-explain", Static).render())
            texts = [str(w.render()) for w in form.query(".explain")]
            assert any("Re bello" in t for t in texts)  # each option's line is its field description
            form.query_one("#napola", expect_type=None).value = True  # type: ignore[attr-defined]
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert "napola" in str(form.query_one("#form-error", Static).render())  # cirulla + napola: refused
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def play_through(app: NetApp, pilot, done: Callable[[], bool]) -> None:  # type: ignore[no-untyped-def]
    for _ in range(4000):
        if done():
            return
        if isinstance(app.screen, (RoundEndScreen, GameOverScreen)):
            await pilot.press("enter")
        elif app.board_screen is not None and app.board_screen.asking:
            await pilot.press("1")  # the first card (and, when asked, its first capture)
        await pilot.pause(0.01)
    raise AssertionError(f"the game did not end: {app.screen} {app.messages[-3:]} "
                         f"{app.board_screen and app.board_screen.board.totals}")


async def test_a_whole_network_game_against_a_server_bot_then_back_to_the_lobby(engine: NetworkEngine) -> None:
    store = MemoryTokenStore()
    async with asyncio.timeout(SAFETY):
        app = app_for(engine, store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            app.screen.query_one("#bots", Select).value = "medium"  # scopa against a server bot
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            saved = store.load(app.server, "ada")
            assert saved is not None and saved.table == app.session.table_id  # type: ignore[union-attr]
            seen_board = app.board_screen
            await play_through(app, pilot, lambda: isinstance(app.screen, GameOverScreen))
            assert seen_board is not None and seen_board.board.over
            assert max(seen_board.board.totals) >= 11
            assert app.screen.query("#game-points")  # the points by category, as in a local game
            # r: the game just played, step by step, from the server (which keeps no
            # games: the table just finished gives it); q back to the result.
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
            replay = app.screen
            assert replay.record.game == saved.table and replay.me == [p.name for p in replay.record.players].index("ada")
            await pilot.press("end")
            await pilot.pause()
            assert replay.score_text().plain.splitlines()[-1].startswith("Game over: "), replay.score_text().plain
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert store.load(app.server, "ada") is None  # the game is over: nothing to return to


async def test_watching_a_game_and_going_back_to_the_lobby(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
        await bob.create_table(preset="scopa")
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
            await pilot.press("w")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            assert app.watching == bob.table_id and app.board_screen is not None
            assert app.board_screen.board.viewer is None  # a spectator sees no hand
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert app.watching is None
        await bob.close()


async def test_a_dropped_connection_shows_the_banner_until_the_seat_is_back(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await sit_at_a_new_table(app, pilot)
            screen = app.board_screen
            assert screen is not None
            banner = screen.query_one("#banner", Static)
            app.on_link(False, "test")  # what the session says when its connection drops
            await pilot.pause()
            assert banner.has_class("shown") and "Connection to the server lost: retrying…" in str(banner.render())
            app.on_link(True, "")
            await pilot.pause()
            assert not banner.has_class("shown")
            engine.names["ada"].abort()  # now for real: the connection dies under the client
            await until(pilot, lambda: app.messages.count("reconnected") == 2, limit=2000)
            assert any(m.startswith("Connection to the server lost: retrying…") for m in app.messages)
            assert not banner.has_class("shown")
            assert app.session.reconnects == 1  # type: ignore[union-attr]
            await until(pilot, lambda: screen.asking)
            await pilot.press("1")  # the game goes on from where it stood
            await until(pilot, lambda: any(p.seat == screen.board.viewer for p in screen.board.plays))


async def test_a_saved_seat_is_offered_and_taken_back(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        first = await ClientSession.connect("127.0.0.1", engine.port, "ada")
        await first.create_table(preset="scopa", fill_with_bots=["greedy"])
        store = gone_with_its_seat_kept(first, engine.port)
        app = app_for(engine, store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.lobby._question is not None)
            status = str(app.lobby.query_one("#lobby-status", Static).render())  # type: ignore[union-attr]
            assert "unfinished game at table" in status
            await pilot.press("y")
            await until(pilot, lambda: app.board_screen is not None and app.board_screen.asking)
            assert app.session is not None and app.session.name == "ada" and app.session.seat == first.seat
            screen = app.board_screen
            await pilot.press("1")  # the seat plays on
            await until(pilot, lambda: any(p.seat == screen.board.viewer for p in screen.board.plays))
        await first.close()


@pytest.mark.parametrize("answer", ["n", "enter"])  # Enter on the question means no
async def test_q_asks_before_leaving_a_network_game_and_no_goes_back_to_it(engine: NetworkEngine, answer: str) -> None:
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await sit_at_a_new_table(app, pilot)
            screen = app.board_screen
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press(answer)
            await until(pilot, lambda: app.screen is screen)
            await pilot.press("1")
            await until(pilot, lambda: any(p.seat == screen.board.viewer for p in screen.board.plays))
            assert app.return_value is None


async def test_the_lobby_status_line_follows_its_list(engine: NetworkEngine) -> None:
    """"No tables yet" is said while the list is empty and goes as soon as a table is listed (the keys are said
    again)."""
    async with asyncio.timeout(SAFETY):
        app = app_for(engine, name="zia")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby is not None)
            lobby = app.lobby
            assert lobby is not None
            status = lobby.query_one("#lobby-status", Static)
            await until(pilot, lambda: "No tables yet" in str(status.render()))
            bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
            await bob.create_table(preset="scopa")  # pushed to the lobby
            await until(pilot, lambda: bool(lobby.tables))
            await pilot.pause()
            assert "No tables yet" not in str(status.render()) and "c: create a table" in str(status.render())
            await bob.close()
