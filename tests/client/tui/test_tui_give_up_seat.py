"""`scopa play` (the Textual app) started again after Ctrl+C mid-game: answering ``n`` to
"You have an unfinished game" gives the seat up at the server (a bot plays on for the
other person, who is told), says so, and connects under the person's own name.  Against
a real server on loopback."""

from __future__ import annotations

import asyncio

from scopa.client.net import ClientSession
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_server_games import seeded_server
from test_tui_network import app_for, gone_with_its_seat_kept, until

SAFETY = 60

engine = seeded_server(31, name="engine")


async def test_no_leaves_the_table_and_a_bot_plays_on(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        ada = await ClientSession.connect("127.0.0.1", engine.port, "ada")
        await ada.create_table(preset="scopa")
        assert ada.token is not None and ada.table_id is not None and ada.seat is not None
        bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
        await bob.join_table(ada.table_id)  # two people: the game starts
        store = gone_with_its_seat_kept(ada, engine.port)  # the old client is gone (Ctrl+C)
        table = engine.tables[ada.table_id]
        app = app_for(engine, store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.lobby._question is not None)
            await pilot.press("n")
            await until(pilot, lambda: app.session is not None and isinstance(app.screen, LobbyScreen))
            assert app.session is not None and app.session.name == "ada"  # not renamed: the seat held the name no more
            assert f"You left the game at table {ada.table_id}: a bot plays your seat." in app.messages
            assert store.load(f"127.0.0.1:{engine.port}", "ada") is None
            seat = table.seats[ada.seat]
            assert seat is not None and seat.bot is not None  # the server's bot plays the seat now
        await bob.close()
        await ada.close()
