"""A connection that drops and comes back by itself, at a table: the chat panel gets the
lines said while it was down (the server's ``joined.chat``), and the ones it showed
already are not shown twice."""

from __future__ import annotations

import pytest

from scopa.protocol import ChatMessage

from test_tui_network import at_the_lobby_behind_a_proxy, sit_at_a_new_table, until

pytestmark = pytest.mark.integration

SAFETY = 60


async def test_a_reconnected_board_gets_the_chat_said_while_it_was_away() -> None:
    async with at_the_lobby_behind_a_proxy(5, SAFETY) as (engine, proxy, app, pilot):
        await sit_at_a_new_table(app, pilot)  # scopa against a bot
        session, screen = app.session, app.board_screen
        assert session is not None and screen is not None and session.table_id is not None
        await session.send_chat("buona fortuna", to=f"table:{session.table_id}")
        await until(pilot, lambda: bool(screen.chat_lines))
        assert proxy.blackhole() == 1  # the route dies silently
        table = engine.tables[session.table_id]
        table.broadcaster.chat(ChatMessage(author="player:bruno", text="ci sei?"))  # lost on the way
        proxy.reset_all()  # now the client hears of it, and gets its seat back
        await until(pilot, lambda: session.reconnects == 1 and not screen.held, limit=1000)
        await pilot.pause()
        assert [line.plain for line in screen.chat_lines] == ["ada: buona fortuna", "bruno: ci sei?"]
