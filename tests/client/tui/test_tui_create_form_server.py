"""The create-table form against what the server accepts: it offers only the turn timers
the server allows (its own, told in `welcome`, and shorter ones), its table settings come
first, and a table the server refuses brings the form back with every setting kept and
the server's reason shown."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from textual.widgets import Checkbox, Select, Static

from scopa.client.net import ClientSession
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.online.invitepanel import ShareInviteScreen
from scopa.client.tui.online import CreateTableScreen
from scopa.server import Limits, NetworkEngine

from test_tui_create_form import open_form
from test_tui_local import text_of
from test_tui_network import app_for, until

pytestmark = pytest.mark.integration

SAFETY = 60


@pytest.fixture
async def engine() -> AsyncIterator[NetworkEngine]:
    e = NetworkEngine("127.0.0.1", 0, seed=47, turn_timeout=60,
                      limits=Limits(max_waiting_tables=1, waiting_tables_reserve=0))
    await e.start()
    try:
        yield e
    finally:
        await e.stop()


async def test_the_form_offers_what_the_server_takes_and_keeps_it_all_on_a_refusal(engine: NetworkEngine) -> None:
    async with asyncio.timeout(SAFETY):
        bob = await ClientSession.connect("127.0.0.1", engine.port, "bob")
        await bob.create_table(preset="scopa")  # the server's one waiting table
        app = app_for(engine)
        async with app.run_test(size=(80, 40)) as pilot:
            form = await open_form(app, pilot)
            ids = [s.id for s in form.query(Select)]
            assert ids[:5] == ["preset", "players", "target", "turn_timeout", "bots"]  # as a person fills it in
            timers = [value for _, value in form.query_one("#turn_timeout", Select)._options]
            assert timers == ["server", 15.0, 30.0, "none"]  # nothing longer than the server's 60 s
            explained = " ".join(" ".join(text_of(s.content).split()) for s in form.query(".explain").results(Static))
            assert "time for each move (0:15 more for each player's first move of a round)" in explained  # welcome's
            form.query_one("#bots", Select).value = "none"  # wait for people: a waiting table
            form.query_one("#turn_timeout", Select).value = 30.0
            form.query_one("#preset", Select).value = "escoba"
            form.query_one("#private", Checkbox).value = True
            await pilot.pause()
            await pilot.press("ctrl+s")
            # Refused (the server holds as many waiting tables as it may): the form again, as it was.
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen) and app.screen is not form)
            again = app.screen
            assert isinstance(again, CreateTableScreen)
            await pilot.pause()
            assert "The server says no" in text_of(again.query_one("#form-error", Static).content)
            assert again.query_one("#bots", Select).value == "none"
            assert again.query_one("#turn_timeout", Select).value == 30.0
            assert again.query_one("#preset", Select).value == "escoba"
            assert again.query_one("#private", Checkbox).value is True
            await bob.leave_table()  # the server has room again
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, ShareInviteScreen))  # its invite to pass on first
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, BoardScreen))
            table = engine.tables[app.session.table_id]  # type: ignore[union-attr, index]
            assert table.turn_timeout == 30.0 and table.private and table.rules.preset.value == "escoba"
        await bob.close()
