"""Quick play on a real server over loopback (PROTOCOL.md §16): two people asking for the
same game are seated together within a second of the second one asking; of four asking
at once the closest ratings meet; the waiting player hears how many others wait; leaving
the queue is one command.  Time is the server's fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from scopa.protocol import ErrorCode
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.club import ClubOptions
from scopa.server.club.views import error_code
from scopa.server.journal.commands import SaveRatings
from scopa.server.journal.values import Rating
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.tournament import TournamentError
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 30


async def started(clock: FakeClock, storage: MemoryStorage | None = None) -> NetworkEngine:
    engine = NetworkEngine("127.0.0.1", 0, seed=3, clock=clock, storage=storage, club=ClubOptions())
    await engine.start()
    return engine


@pytest.fixture
async def engine(clock: FakeClock) -> AsyncIterator[NetworkEngine]:
    engine = await started(clock)
    yield engine
    await engine.stop()


async def test_two_people_asking_play_each_other_within_a_second(engine: NetworkEngine, clock: FakeClock) -> None:
    async with asyncio.timeout(SAFETY):
        ada, bea = [await WireClient.connect(engine.port, n) for n in ("ada", "bea")]
        asked = ada.send(wire.QuickPlay())
        first = await ada.recv_until("quick_waiting")
        assert (first.re, first.body.others) == (asked, 0)
        bea.send(wire.QuickPlay())
        assert (await bea.recv_until("quick_waiting")).body.others == 1
        assert (await ada.recv_until("quick_waiting")).body.others == 1  # told again: the count changed
        clock.advance(1.0)  # a second after the second one asked
        joined = [await c.recv_until("joined") for c in (ada, bea)]
        assert joined[0].body.table == joined[1].body.table
        assert {j.body.seat for j in joined} == {0, 1}
        assert joined[0].re == asked  # the answer to the quick_play
        start = await ada.recv_until("game_start")
        assert start.recipient == f"table:{joined[0].body.table}/all"
        for c in (ada, bea):
            await c.close()


async def test_leaving_the_queue_is_one_command(engine: NetworkEngine, clock: FakeClock) -> None:
    async with asyncio.timeout(SAFETY):
        ada, bea = [await WireClient.connect(engine.port, n) for n in ("ada", "bea")]
        ada.send(wire.QuickPlay())
        await ada.recv_until("quick_waiting")
        bea.send(wire.QuickPlay())
        await bea.recv_until("quick_waiting")
        assert (await ada.recv_until("quick_waiting")).body.others == 1  # bea came
        left = ada.send(wire.QuickLeave())
        told = await ada.recv_until("quick_waiting")
        assert (told.re, told.body.others) == (left, 1)  # bea still waits
        assert (await bea.recv_until("quick_waiting")).body.others == 0
        again = ada.send(wire.QuickLeave())
        refused = await ada.recv_until("error")
        assert (refused.re, refused.body.code) == (again, "not_waiting")
        clock.advance(5.0)  # nobody to play with: bea waits on
        ada.send(wire.ListTables())
        tables = await ada.recv_until("tables")
        assert tables.body.tables == []
        for c in (ada, bea):
            await c.close()


async def test_of_four_waiting_the_closest_ratings_meet(clock: FakeClock) -> None:
    storage = MemoryStorage()
    ratings = (Rating("ada", 32.0, 2.0), Rating("bea", 20.0, 2.0), Rating("cal", 31.5, 2.0), Rating("dan", 20.5, 2.0))
    storage.run_batch([SaveRatings("scopa", ratings)])
    engine = await started(clock, storage)
    try:
        async with asyncio.timeout(SAFETY):
            players = {n: await WireClient.connect(engine.port, n) for n in ("ada", "bea", "cal", "dan")}
            for c in players.values():  # in the order ada, bea, cal, dan: not by rating
                c.send(wire.QuickPlay())
            for c in players.values():
                while (await c.recv_until("quick_waiting")).body.others != 3:
                    pass
            clock.advance(1.0)
            table = {n: (await c.recv_until("joined")).body.table for n, c in players.items()}
            assert table["ada"] == table["cal"] and table["bea"] == table["dan"] and table["ada"] != table["bea"]
            for c in players.values():
                await c.close()
    finally:
        await engine.stop()


async def test_a_player_with_bot_after_plays_bots_when_nobody_comes(engine: NetworkEngine, clock: FakeClock) -> None:
    async with asyncio.timeout(SAFETY):
        ada = await WireClient.connect(engine.port, "ada")
        ada.send(wire.QuickPlay(bot_after=10))
        await ada.recv_until("quick_waiting")
        clock.advance(9.0)
        ada.send(wire.ListTables())
        assert (await ada.recv_until("tables")).body.tables == []
        clock.advance(1.0)
        joined = await ada.recv_until("joined")
        seats = (await ada.recv_until("table_update")).body.table.seats
        assert seats[joined.body.seat] == "ada" and all(s is not None for s in seats)
        start = await ada.recv_until("game_start")
        assert start.recipient == f"table:{joined.body.table}/all"
        await ada.close()


async def test_a_player_who_sat_down_elsewhere_is_paired_with_nobody(engine: NetworkEngine, clock: FakeClock) -> None:
    async with asyncio.timeout(SAFETY):
        ada, bea, cal = [await WireClient.connect(engine.port, n) for n in ("ada", "bea", "cal")]
        for c in (ada, bea):
            c.send(wire.QuickPlay())
            await c.recv_until("quick_waiting")
        bea.send(wire.CreateTable(fill_with_bots=["greedy"]))  # bea sits down at a table of her own
        own = (await bea.recv_until("joined")).body.table
        clock.advance(1.0)  # nobody to pair ada with: she waits on
        cal.send(wire.QuickPlay())
        await cal.recv_until("quick_waiting")
        clock.advance(1.0)
        joined = [await c.recv_until("joined") for c in (ada, cal)]
        assert joined[0].body.table == joined[1].body.table != own
        for c in (ada, bea, cal):
            await c.close()


def test_a_refusal_the_wire_does_not_name_is_a_bad_body() -> None:
    assert error_code(TournamentError("tournament_full", "full")) is ErrorCode.TOURNAMENT_FULL
    assert error_code(TournamentError("bad_bot_after", "negative")) is ErrorCode.BAD_BODY
