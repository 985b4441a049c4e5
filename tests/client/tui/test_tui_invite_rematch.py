"""`scopa play --invite` with the invite of a private table whose game is over: while
the rematch its players made waits for them, the invite leads there (the person is told
so); with no rematch waiting, the person is told the game is over and how to get in."""

from __future__ import annotations

import asyncio

import pytest

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession, MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.engine import RuleSet
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, engine, until  # noqa: F401 - engine: the server fixture

pytestmark = pytest.mark.integration


async def a_private_game_over(engine: NetworkEngine) -> tuple[ClientSession, str, str]:  # noqa: F811
    """ana's private table, bea seated by its invite; bea leaves and the game ends (a table
    made to end then). ana's session (back in the lobby), the table and its invite."""
    ana = await ClientSession.connect("127.0.0.1", engine.port, "ana")
    table = (await ana.create_table(RuleSet.build("scopa"), private=True, bot_takeover=False)).id
    code = ana.invite
    assert code is not None
    bea = await ClientSession.connect("127.0.0.1", engine.port, "bea")
    await bea.join_table(table, invite=code)
    game = asyncio.ensure_future(ana.play_game(GreedyBot()))
    await bea.leave_table()
    await bea.close()
    await game
    return ana, table, code


async def test_the_invite_of_a_finished_game_leads_to_its_waiting_rematch(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    ana, table, code = await a_private_game_over(engine)
    try:
        async with asyncio.timeout(SAFETY):
            rematch = await ana.create_table(RuleSet.build("scopa"), private=True, bot_takeover=False,
                                             rematch_of=table)
            app = NetApp("127.0.0.1", engine.port, "bea", MemoryTokenStore(), invite=(table, code))
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: app.board_screen is not None and app.board_screen.board.round_no > 0,
                            limit=1000)
                assert app.session is not None and app.session.table_id == rematch.id
                said = (f"La partita al tavolo {table} è finita: il suo invito ti ha portato alla rivincita, "
                        f"tavolo {rematch.id}")
                assert any(m.startswith(said) for m in app.messages), app.messages
    finally:
        await ana.close()


async def test_with_no_rematch_waiting_the_invite_says_the_game_is_over(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    ana, table, code = await a_private_game_over(engine)
    try:
        async with asyncio.timeout(SAFETY):
            app = NetApp("127.0.0.1", engine.port, "bea", MemoryTokenStore(), invite=(table, code))
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: any("nessuna rivincita" in m for m in app.messages))
                assert app.board_screen is None and app.is_running  # in the lobby
    finally:
        await ana.close()
