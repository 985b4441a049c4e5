"""Life at a network table in the Textual client, through a real server on loopback with
two clients: the other seat dropping, coming back or going to a bot (typed seat notices),
and chat at the table (the board's chat box and side panel)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from textual.widgets import Input, Static

from scopa.client.net import ClientSession
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.online import LobbyScreen
from scopa.client.tui import NetApp
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.protocol import ChatMessage, GameEnd, SeatReplaced
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock

from test_tui_network import app_for, until

SAFETY = 60


async def serve(grace: float, clock: FakeClock | None = None) -> NetworkEngine:
    e = NetworkEngine("127.0.0.1", 0, seed=23, grace=grace, **({"clock": clock} if clock else {}))
    await e.start()
    return e


@pytest.fixture
async def engine() -> AsyncIterator[NetworkEngine]:
    e = await serve(grace=112, clock=FakeClock())  # the grace left when bob drops is the whole 1:52
    try:
        yield e
    finally:
        await e.stop()


async def bob_waits(engine: NetworkEngine) -> ClientSession:
    bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
    await bob.create_table(preset="scopa")
    return bob


async def ada_joins(app: NetApp, pilot) -> BoardScreen:  # type: ignore[no-untyped-def]
    """ada joins the table the lobby lists; her board, once both seats are taken."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables))
    await pilot.press("j")
    await until(pilot, lambda: app.board_screen is not None and len(app.board_screen.board.names) == 2)
    assert app.board_screen is not None
    return app.board_screen


async def test_the_other_seat_drops_and_comes_back(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        bob = await bob_waits(engine)
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await ada_joins(app, pilot)
            assert bob.seat is not None
            engine.names["bob"].abort()  # bob's connection dies
            said = "bob disconnected: unless bob returns, a bot takes the seat when the time on its row runs out."
            await until(pilot, lambda: said in app.messages)
            assert said in str(screen.query_one("#status", Static).render())
            assert screen.board.away[bob.seat].startswith("away, a bot in 1:5")  # the seat row counts down
            await bob.resume()  # his client gets the seat back with its token
            await until(pilot, lambda: "bob is back." in app.messages)
            assert bob.seat not in screen.board.away
            assert app.messages.index(said) < app.messages.index("bob is back.")
        await bob.close()


async def test_a_seat_whose_time_runs_out_is_played_by_a_bot() -> None:
    engine = await serve(grace=0.3)
    try:
        async with asyncio.timeout(SAFETY):
            bob = await bob_waits(engine)
            app = app_for(engine)
            async with app.run_test(size=(80, 24)) as pilot:
                await ada_joins(app, pilot)
                engine.names["bob"].abort()
                await until(pilot, lambda: "bob did not come back: a bot plays the seat for the rest of the game."
                            in app.messages, limit=1000)
                assert any(m.startswith("bob disconnected: unless bob returns") for m in app.messages)
                assert app.board_screen is not None and bob.seat not in app.board_screen.board.away
            await bob.close()
    finally:
        await engine.stop()


async def test_the_other_player_leaves_and_a_bot_plays_on(engine: NetworkEngine) -> None:
    """At a table made with the default "If a player leaves: a bot plays on", bob leaving mid-game leaves ada
    a game to finish against a bot, and she is told in words who left and what became of
    the seat."""
    async with asyncio.timeout(SAFETY):
        bob = await bob_waits(engine)
        app = app_for(engine)
        async with app.run_test(size=(100, 32)) as pilot:
            screen = await ada_joins(app, pilot)
            left = await bob.leave_table()
            assert left is not None and left.reason == "left"
            said = "bob left: a bot plays the seat for the rest of the game."
            await until(pilot, lambda: said in app.messages)  # shown on the status line, as every notice
            assert app.playing and app.board_screen is screen  # the game goes on
            assert not any("without a winner" in m for m in app.messages)
            await pilot.press("q")  # ada is the last person at the table: leaving ends the game for everyone
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert isinstance(app.screen, ConfirmScreen)
            assert app.screen.question == "Leave the game? You are the last person at the table: the game ends " \
                "at once for everyone, with no winner.", app.screen.question
        await bob.close()


async def test_leaving_asks_what_this_table_does_and_does_it(engine: NetworkEngine) -> None:
    """ada presses q mid-game: the question says a bot takes her seat, and after "y" bob
    plays on against that bot (the game is not abandoned)."""
    async with asyncio.timeout(SAFETY):
        bob = await bob_waits(engine)
        app = app_for(engine)
        async with app.run_test(size=(100, 32)) as pilot:
            await ada_joins(app, pilot)
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert isinstance(app.screen, ConfirmScreen)
            assert app.screen.question.startswith("Leave the game? A bot plays your seat for the rest of the game")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            while True:  # what bob hears: a bot in ada's seat, no end of the game
                body = (await bob.next_command()).body
                assert not isinstance(body, GameEnd), body
                if isinstance(body, SeatReplaced):
                    assert body.name == "ada"
                    break
        await bob.close()


async def chat_from(session: ClientSession, author: str, text: str, sender: str) -> ChatMessage:
    """The next chat line ``text`` by ``author`` that ``session`` hears (skipping the rest)."""
    while True:
        command = await session.next_command()
        body = command.body
        if isinstance(body, ChatMessage) and body.author.endswith(f":{author}") and body.text == text:
            assert command.sender == sender
            return body


async def test_chat_at_the_table_both_ways(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        bob = await bob_waits(engine)
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await ada_joins(app, pilot)
            await bob.send_chat("good luck ada", to=f"table:{bob.table_id}")
            panel = screen.query_one("#table-chat", Static)
            await until(pilot, lambda: "bob: good luck ada" in str(panel.render()))
            lobby_chat = "hello lobby"
            await bob.send_chat(lobby_chat)  # said in the lobby, not at the table: not in the side panel
            await chat_from(bob, "bob", lobby_chat, "lobby")
            await pilot.press("t")
            box = screen.query_one("#chat-say", Input)
            await until(pilot, lambda: box.has_focus)
            await pilot.press(*"you too, 1 2 q?")  # keys that are moves and commands elsewhere
            await pilot.press("enter")
            said = await chat_from(bob, "ada", "you too, 1 2 q?", f"table:{bob.table_id}")
            assert said.text == "you too, 1 2 q?"
            await until(pilot, lambda: "ada: you too, 1 2 q?" in str(panel.render()))
            assert lobby_chat not in str(panel.render())
            assert not box.has_focus and not box.has_class("shown")
            assert app.return_value is None  # the q went into the chat line, not to "leave"
        await bob.close()
