"""`scopa play` killed mid-game and started again, back at its seat: a turn whose time ran
out while the person was still there (and saw it said) is not told again; one that ran
out while the client was gone is told once, as having happened meanwhile; and the top
line counts the spectators as it does in a game followed from its start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from textual.widgets import Static

from scopa.client.net import ClientSession, MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.table import Table

from test_tui_lines_fit import SAFETY
from test_tui_network import sit_at_a_new_table, until

pytestmark = pytest.mark.integration

TURN = 30.0  # the table's turn clock, in seconds


@pytest.fixture
async def timed() -> AsyncIterator[tuple[NetworkEngine, FakeClock]]:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=31, clock=clock, turn_timeout=TURN,
                           limits=Limits(ping_interval=None, table_update_interval=0.0))
    await engine.start()
    try:
        yield engine, clock
    finally:
        await engine.stop()


def status(app: NetApp) -> str:
    assert app.board_screen is not None
    return str(app.board_screen.query_one("#status", Static).render())


async def test_only_the_time_out_of_the_time_away_is_told_and_the_spectators_are_counted(
        timed: tuple[NetworkEngine, FakeClock], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    engine, clock = timed
    store = MemoryTokenStore()
    cleo: ClientSession | None = None
    try:
        async with asyncio.timeout(SAFETY):
            first = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
            async with first.run_test(size=(100, 30)) as pilot:
                await sit_at_a_new_table(first, pilot)  # against a bot, ada to move
                assert first.session is not None and first.session.table_id is not None
                table = engine.tables[first.session.table_id]
                me = first.session.seat
                assert me is not None
                cleo = await ClientSession.connect("127.0.0.1", engine.port, "cleo")
                await cleo.watch_table(table.id)
                top = first.board_screen.query_one("#top", Static)  # type: ignore[union-attr]
                await until(pilot, lambda: "1 spettatore" in str(top.render()))
                turn = asked(table, me)
                clock.advance(2 * TURN)  # ada thinks too long: the server plays for her, and she sees it said
                await until(pilot, lambda: "Il tuo tempo è scaduto" in status(first), limit=1000)
                await until(pilot, lambda: asked(table, me) > turn, limit=1000)
                turn = asked(table, me)
            killed(first.session)  # the client is gone, as if killed: the seat waits for it, its turn clock runs on
            await until_true(lambda: table.seats[me].away)  # type: ignore[union-attr]
            clock.advance(2 * TURN)  # the server plays for ada again, while she is away
            await until_true(lambda: asked(table, me) > turn)

            second = NetApp("127.0.0.1", engine.port, "ada", store, pace=0)
            async with second.run_test(size=(100, 30)) as pilot:
                await until(pilot, lambda: second.lobby is not None and second.lobby._question is not None)
                await pilot.press("s")
                await until(pilot, lambda: second.board_screen is not None and second.board_screen.asking
                            and any(m.startswith("Di nuovo al tavolo") for m in second.messages), limit=1000)
                await pilot.pause(0.1)
                told = [m for m in second.messages if "tempo è scaduto" in m]
                assert len(told) == 1 and told[0].startswith("Mentre eri via il tuo tempo è scaduto: il server ha "
                                                             "giocato"), second.messages
                assert "; poi " not in told[0], told  # the turn whose time ran out before: not told again
                top = second.board_screen.query_one("#top", Static)  # type: ignore[union-attr]
                assert "1 spettatore" in str(top.render()), str(top.render())
    finally:
        if cleo is not None:
            await cleo.close()


def killed(session: ClientSession) -> None:
    """The connection of ``session`` ends as a killed process's does: no ``bye``, no reconnecting."""
    session.reconnect_for = 0
    session._writer.transport.abort()


def asked(table: Table, seat: int) -> int:
    """The number of the question the table puts to ``seat`` now (-1: it asks another seat, or none)."""
    ask = table.master.asking if table.master is not None else None
    return ask.turn if ask is not None and ask.seat == seat else -1


async def until_true(check: object) -> None:
    """Wait (a few hundred short looks) until ``check()`` holds, with no app to pause."""
    for _ in range(1000):
        if check():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")
