"""What a spectator of the full-screen client finds as it starts watching (PROTOCOL.md §7
Watching): a seat whose person is away counts down the time its seat is held, from the
``seat_away`` the server tells right after the snapshot, as the players' boards do; the
chat said at the table before it came is in the side panel, a rematch's with the finished
game's lines.  The plain client's spectator is told both too."""

from __future__ import annotations

import asyncio
import re

import pytest
from rich.console import Console
from textual.widgets import Static

from scopa.client.console import watch_table
from scopa.client.net import ClientSession
from scopa.server import NetworkEngine

from test_tui_network import app_for, until
from test_tui_watch_away import bob_is_away, engine  # noqa: F401 - engine: a fixture (grace 112 s)

pytestmark = pytest.mark.integration

SAFETY = 60


def panel_text(app) -> str:  # type: ignore[no-untyped-def]
    screen = app.board_screen
    panels = screen.query("#table-chat").results(Static) if screen is not None and screen.is_attached else []
    return " ".join(" ".join(str(p.render()).split()) for p in panels if p.display)


async def test_a_spectator_coming_while_a_seat_is_away_sees_its_hold_count_down(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        onlooker, table, seat = await bob_is_away(engine)
        app = app_for(engine, name="cleo", watch=table)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.board_screen is not None
                        and app.board_screen.board.away.get(seat, "").startswith("away, a bot in 1:"))
            await pilot.press("b")
            await until(pilot, lambda: app.return_value is not None)
        await onlooker.close()


async def test_a_spectator_reads_what_was_said_before_it_came(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        bruno = await ClientSession.connect("127.0.0.1", engine.port, "bruno")
        table = (await bruno.create_table(preset="scopa", fill_with_bots=["greedy"])).id
        await bruno.send_chat("forza nonna!", to=f"table:{table}")
        await bruno.list_tables()  # answered after the chat: the table has it
        app = app_for(engine, name="cleo", watch=table)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: "bruno: forza nonna!" in panel_text(app))
            await pilot.press("b")
            await until(pilot, lambda: app.return_value is not None)
        await bruno.close()


async def test_the_plain_watch_says_what_was_said_and_how_long_an_away_seat_is_held(
        engine: NetworkEngine) -> None:  # noqa: F811
    """The plain client's spectator (``scopa watch --plain``): the chat said before it came,
    and the seat away as it came with the time the table still waits for it."""
    async with asyncio.timeout(SAFETY):
        bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
        info = await bob.create_table(preset="scopa", fill_with_bots=["medium"])
        await bob.send_chat("torno subito", to=f"table:{info.id}")
        await bob.list_tables()  # answered after the chat: the table has it
        assert bob.seat is not None
        engine.names["bob"].abort()
        onlooker = await ClientSession.connect("127.0.0.1", engine.port, "onlooker")
        while not any(t.id == info.id and bob.seat in t.away for t in await onlooker.list_tables()):
            await asyncio.sleep(0.01)  # until the server has seen the connection go
        console = Console(record=True, width=200)
        watching = asyncio.ensure_future(watch_table(onlooker, console, info.id))
        while "the table waits up to" not in console.export_text(clear=False):
            await asyncio.sleep(0.01)
            assert not watching.done()
        text = console.export_text()
        watching.cancel()
        assert "player:bob: torno subito" in text, text
        assert re.search(r"bob lost the connection; the table waits up to \d+:\d\d\.", text), text
        await onlooker.close()
