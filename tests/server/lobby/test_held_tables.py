"""The tables whose leases a cluster member sharing one journal keeps (``HeldTables.serving``):
a table whose game is over keeps its lease until the journal holds its end.  Its players
heard the ``game_end`` before that write was stored; were the lease given back at once
(the table leaving the cluster's set of tables that need an owner) and the member killed
before the write was stored, no member would ever take the table over, and the journal
would hold a game its players saw end as unfinished, with no result."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.journal.commands import FinishTable, Request
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.lobby.held import HeldTables
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 30.0  # seconds: a safety net for thread waits only; every wait normally ends on an event


class EndHeldBack(MemoryStorage):
    """A journal that stores a game's end only once ``gate`` is open (``asked``: one waits)."""

    blocks = True

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.asked = threading.Event()

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        if any(isinstance(r, FinishTable) for r in requests):
            self.asked.set()
            self.gate.wait(SAFETY)
        return super().run_batch(requests)


async def test_a_finished_table_is_held_until_the_journal_holds_its_end() -> None:
    backend = EndHeldBack()
    engine = NetworkEngine("127.0.0.1", 0, seed=3, storage=backend)
    await engine.start()
    held = HeldTables(engine.life, engine.tables, engine.seating)
    maker = await WireClient.connect(engine.port, "maker")
    try:
        table_id = await maker.create(bots=["greedy", "greedy"], sit=False)
        assert await asyncio.to_thread(backend.asked.wait, SAFETY)  # the game is over: its end on the way
        table = engine.tables[table_id]
        assert table.state is wire.TableState.FINISHED
        assert table_id in held.serving()
        backend.gate.set()
        async with asyncio.timeout(SAFETY):
            while table_id in held.serving():
                assert engine.storage is not None
                await engine.storage.flush()
                await asyncio.sleep(0)
        assert [r.id for r in await engine.results()] == [table_id]  # stored: now the lease may go
    finally:
        backend.gate.set()
        await maker.close()
        await engine.stop()
