"""Finding a seat on a busy server (PROTOCOL.md §12, §15): a listing of every state
puts the tables waiting for players first, its pages go through every table once, and
two `scopa bot`s that create a table at the same moment find each other however many
tables the lobby lists."""

from __future__ import annotations

import asyncio

from scopa.client.console import BotRunner
from scopa.client.net import ClientSession
from scopa.bots import GreedyBot
from scopa.engine import RuleSet
from scopa.engine.rules import Preset
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine

from procs import SAFETY
from wire_client import WireClient


async def listing(c: WireClient, **query: object) -> list[wire.Tables]:
    """Every page of ``list_tables`` with ``query``, following ``next``."""
    pages: list[wire.Tables] = []
    after = None
    while True:
        c.send(wire.ListTables(after=after, **query))  # type: ignore[arg-type]
        page = (await c.recv_until("tables")).body
        pages.append(page)
        if page.next is None:
            return pages
        after = page.next


async def test_open_tables_come_first_and_pages_list_each_table_once() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=1)
    await engine.start()
    try:
        players = []
        for name in ("pia", "pol"):  # two games under way: the lowest ids
            p = await WireClient.connect(engine.port, name)
            await p.create(bots=["greedy"])
            players.append(p)
        w = await WireClient.connect(engine.port, "wan")
        open_id = await w.create()
        ask = await WireClient.connect(engine.port, "ask")
        first = (await listing(ask))[0]
        assert first.tables[0].id == open_id and first.tables[0].state is wire.TableState.WAITING
        pages = await listing(ask, limit=1)
        assert [t.id for p in pages for t in p.tables] == [open_id, players[0].table, players[1].table]
        assert {p.total for p in pages} == {3}
    finally:
        await engine.stop()


async def test_two_bots_creating_at_once_meet_on_a_lobby_of_more_than_a_page() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=2, # the filler reads nothing: no idle ping may drop it (and close its tables)
                           limits=Limits(max_waiting_tables_per_client=None, max_waiting_tables_per_address=None,
                                         ping_interval=None))
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            filler = await WireClient.connect(engine.port, "filler")
            for _ in range(wire.MAX_PAGE + 10):  # waiting tables of other rules, with lower ids
                filler.send(wire.CreateTable(preset=Preset.ESCOBA, sit=False))
                await filler.recv_until("table_created")
            rules = RuleSet.build("scopa")
            runners = []
            for name in ("ada", "bob"):
                session = await ClientSession.connect("127.0.0.1", engine.port, name)
                runners.append(BotRunner(session, GreedyBot(), rules=rules))
            for r in runners:  # both looked, found nothing, and created a table at the same moment
                await r.session.create_table(rules)
            ids = [r.session.table_id for r in runners]
            async with asyncio.timeout(30):  # a safety net: they meet within a poll or two
                met = await asyncio.gather(*(r._wait_at_own_table(i) for r, i in zip(runners, ids)))  # type: ignore[arg-type]
            seated = {r.session.table_id for r in runners}
            assert len(seated) == 1, (met, seated)  # one of them moved to the other's table
            assert any(met)
            for r in runners:
                await r.session.close()
    finally:
        await engine.stop()
