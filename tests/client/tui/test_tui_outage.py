"""No keystroke is lost across a real outage (PROTOCOL.md §7): the server stops while it
is the person's turn, and a card pressed while the client reconnects is played once the
restarted server (same journal) has given the seat back; a move that left the client on a
connection already dead is played once the seat is back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Static

from scopa.client.text import label
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import CaptureChoiceScreen
from scopa.client.tui import NetApp
from scopa.engine import Card, RoundPlay
from scopa.server import NetworkEngine

from test_tui_network import app_for, at_the_lobby_behind_a_proxy, sit_at_a_new_table, until

SAFETY = 90


async def at_my_first_turn(app: NetApp, pilot) -> tuple[BoardScreen, int | None, list[RoundPlay], Card]:  # type: ignore[no-untyped-def]
    """At a new table from the lobby (:func:`sit_at_a_new_table`), the person's first turn:
    the board, their seat, their plays so far and the first card of their hand."""
    await sit_at_a_new_table(app, pilot)
    screen = app.board_screen
    assert isinstance(screen, BoardScreen)
    me = screen.board.viewer
    return screen, me, [p for p in screen.board.plays if p.seat == me], screen.board.hand[0]


async def test_a_card_pressed_while_the_server_is_down_is_played_after_the_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "scopa.db")
    engine = NetworkEngine("127.0.0.1", 0, seed=5, db=db)
    await engine.start()
    port = engine.port
    restarted: NetworkEngine | None = None
    try:
        async with asyncio.timeout(SAFETY):
            app = app_for(engine)
            async with app.run_test(size=(80, 24)) as pilot:
                screen, me, mine_before, card = await at_my_first_turn(app, pilot)  # scopa against a greedy bot

                await engine.stop()  # the server goes away in the middle of the person's turn
                banner = screen.query_one("#banner", Static)
                await until(pilot, lambda: banner.has_class("shown"))
                assert "retrying" in str(banner.render())
                await pilot.press("1")  # typed while the client cannot reach the server
                await pilot.pause()
                status = str(screen.query_one("#status", Static).render())
                shown = label(card, screen.deck)
                assert f"Your move, {shown}, is kept: it is played when the connection is back." in status
                assert [p for p in screen.board.plays if p.seat == me] == mine_before  # not played yet

                restarted = NetworkEngine("127.0.0.1", port, seed=6, db=db)  # the same journal
                await restarted.start()
                await until(pilot, lambda: len([p for p in screen.board.plays if p.seat == me]) > len(mine_before)
                            or screen.board.round_no > 1, limit=2000)
                assert not banner.has_class("shown") and app.session is not None and app.session.reconnects == 1
                mine = [p for p in screen.board.plays if p.seat == me]
                assert mine[len(mine_before)].card == card  # the card pressed, played once
                assert [p.card for p in mine].count(card) == 1
                assert card not in screen.board.hand
    finally:
        if restarted is not None:
            await restarted.stop()


async def test_a_move_sent_into_a_dead_connection_is_played_after_the_reconnect() -> None:
    async with at_the_lobby_behind_a_proxy(5, SAFETY) as (engine, proxy, app, pilot):
        screen, me, mine_before, card = await at_my_first_turn(app, pilot)
        assert proxy.blackhole() == 1  # the route dies silently: nothing tells the client yet
        held = proxy.stats.held
        await pilot.press("1")  # the move leaves the client and is lost on the way
        await until(pilot, lambda: not screen.asking and proxy.stats.held > held)
        if isinstance(app.screen, CaptureChoiceScreen):
            raise AssertionError("the first card has several captures: choose another seed")
        proxy.reset_all()  # now the client hears of it, reconnects and gets its seat back
        await until(pilot, lambda: len([p for p in screen.board.plays if p.seat == me]) > len(mine_before)
                    or screen.board.round_no > 1, limit=2000)
        assert app.session is not None and app.session.reconnects == 1
        mine = [p for p in screen.board.plays if p.seat == me]
        assert mine[len(mine_before)].card == card and [p.card for p in mine].count(card) == 1
        assert any(label(card, screen.deck) in m and "again" in m for m in app.messages)


async def test_the_turn_clock_waits_while_the_server_is_down_and_counts_again_once_back(tmp_path: Path) -> None:
    db = str(tmp_path / "scopa.db")
    engine = NetworkEngine("127.0.0.1", 0, seed=5, db=db)
    await engine.start()
    port = engine.port
    restarted: NetworkEngine | None = None
    try:
        async with asyncio.timeout(SAFETY):
            app = app_for(engine)
            async with app.run_test(size=(80, 24)) as pilot:
                screen, *_ = await at_my_first_turn(app, pilot)
                status = screen.query_one("#status", Static)
                await until(pilot, lambda: "then the server plays for you" in str(status.render()))
                await engine.stop()  # the server goes away in the middle of the person's turn
                banner = screen.query_one("#banner", Static)
                await until(pilot, lambda: banner.has_class("shown"))
                screen._tick()
                await pilot.pause()
                said = str(status.render())
                assert "The clock waits for the connection." in said and "server plays for you" not in said, said
                assert "⏱" not in str(screen.query_one("#seats", Static).render())  # no countdown by the seat

                restarted = NetworkEngine("127.0.0.1", port, seed=6, db=db)  # the same journal
                await restarted.start()
                await until(pilot, lambda: not banner.has_class("shown") and "then the server plays for you"
                            in str(status.render()), limit=2000)  # the server's deadline, told again
    finally:
        if restarted is not None:
            await restarted.stop()
