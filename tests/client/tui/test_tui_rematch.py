"""A rematch from the game-over box of `scopa play` (the Textual app): the box says what
`n` does; `n` makes the rematch (a new table with the finished game's settings, offered to
its other player, who joins it) and sits there; and when the other player made it first,
the box says so and `n` takes a seat at it.  In Italian and in English."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.client.tui.dialogs import GameOverScreen
from scopa.client.tui.online import LobbyScreen
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine

from test_server_games import seeded_server
from test_tui_network import app_for, until
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 60

engine = seeded_server(7, name="engine")


def again_hint(app: NetApp) -> str:
    """What the game-over box says `n` does ("" while no such box, or no such line, is up)."""
    box = app.screen
    if not isinstance(box, GameOverScreen) or not box.query("#again-hint") or not box.query_one("#again-hint").display:
        return ""
    return str(box.query_one("#again-hint", Static).render())


async def to_the_game_over(app: NetApp, pilot, bea: WireClient) -> str:  # type: ignore[no-untyped-def]
    """bea's public table (no bot takes a seat left), ada sits there from the lobby, the
    game starts and bea leaves it: over, ada's app at the game-over box; the table's id."""
    table = await bea.create(bot_takeover=False)
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and table in app.screen.tables)
    assert isinstance(app.screen, LobbyScreen)
    app.screen.post_message(LobbyScreen.Action("join", table))  # as j on its row
    await bea.recv_until("game_start")
    await until(pilot, lambda: app.board_screen is not None and app.board_screen.board.rules is not None)
    bea.send(wire.LeaveTable(table=table))
    await bea.recv_until("left")
    await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
    return table


async def playing_at(app: NetApp, pilot, table: str) -> None:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: app.session is not None and app.session.table_id == table
                and app.board_screen is not None and app.board_screen.board.rules is not None
                and not app.board_screen.board.over)


async def test_n_on_the_game_over_box_makes_a_rematch_the_other_player_joins(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        bea = await WireClient.connect(engine.port, "bea")
        app = app_for(engine, "ada")
        async with app.run_test(size=(80, 24)) as pilot:
            old = await to_the_game_over(app, pilot, bea)
            await until(pilot, lambda: "n rivincita: un nuovo tavolo per gli stessi giocatori" in again_hint(app))
            await pilot.press("n")
            while True:  # bea is told of it
                update = (await bea.recv_until("table_update")).body
                if update.table.rematch_of == old:
                    break
            assert update.table.seats[0] == "ada" and update.table.bot_takeover is False  # the old table's settings
            assert (await bea.join(update.table.id)).name == "joined"  # no invite needed
            await playing_at(app, pilot, update.table.id)
        await bea.close()


async def test_a_rematch_the_other_player_made_is_offered_and_n_sits_there(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        bea = await WireClient.connect(engine.port, "bea")
        app = app_for(engine, "ada")
        async with app.run_test(size=(80, 24)) as pilot:
            old = await to_the_game_over(app, pilot, bea)
            assert app.table_info is not None
            bea.send(wire.CreateTable(rules=app.table_info.rules, bot_takeover=False, rematch_of=old))
            made = (await bea.recv_until("table_created")).body.table
            await until(pilot, lambda: "n bea proposes a rematch: play it" in again_hint(app))
            await pilot.press("n")
            await bea.recv_until("game_start")
            await playing_at(app, pilot, made.id)
        await bea.close()
