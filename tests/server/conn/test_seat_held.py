"""A seat a bot played because its person did not come back in time: the person's seat
token takes it back (the others are told with seat_back, bot_played), in the journal too;
a seat whose person left stays the bot's."""

from __future__ import annotations

import pytest

from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.table import token_digest

from test_reconnect import _answer, _until_away
from wire_client import WireClient

NEVER = 2**53 - 1  # a last_event above any: a snapshot instead of the missed events


@pytest.fixture
async def clock():
    return FakeClock()


@pytest.fixture
async def storage():
    return MemoryStorage()


@pytest.fixture
async def server(clock: FakeClock, storage: MemoryStorage):
    engine = NetworkEngine("127.0.0.1", 0, seed=4242, grace=60.0, clock=clock, storage=storage)
    await engine.start()
    yield engine
    await engine.stop()


async def _two(server: NetworkEngine) -> tuple[WireClient, WireClient]:
    """Two people at a 2-player table, the game on."""
    a = await WireClient.connect(server.port, "nonna")
    b = await WireClient.connect(server.port, "nipote")
    await a.create()
    await b.join(a.table)  # type: ignore[arg-type]
    await b.recv_until("game_start")
    return a, b


async def _bot_plays_a(server: NetworkEngine, clock: FakeClock, a: WireClient, b: WireClient) -> None:
    """``a``'s connection drops and its grace period runs out: a bot plays its seat, and
    the game waits for ``b``."""
    a.abort()
    await _until_away(b, [a.seat])  # type: ignore[list-item]
    clock.advance(60.0)
    replaced = await b.recv_until("seat_replaced")
    assert replaced.body.seat == a.seat
    table = server.tables[a.table]  # type: ignore[index]
    while table.turns.pending(b.seat) is None:  # type: ignore[arg-type]
        await b.recv()


async def test_a_person_back_after_the_grace_period_takes_the_seat_back_from_the_bot(
        server: NetworkEngine, clock: FakeClock, storage: MemoryStorage) -> None:
    a, b = await _two(server)
    rules = rules_from_wire([c for c in b.inbox if c.name == "game_start"][-1].body.rules)
    await _bot_plays_a(server, clock, a, b)
    table = server.tables[a.table]  # type: ignore[index]
    assert table.seats[a.seat].bot is not None  # type: ignore[index, union-attr]

    c = await WireClient.connect(server.port)
    c.table, c.seat = a.table, a.seat
    assert (await c.resume(a.token, NEVER)).body.you == "player:nonna"  # type: ignore[arg-type]
    assert (await c.recv_until("joined")).body.resumed
    back = await c.recv_until("seat_back")
    assert back.body.seat == a.seat and back.body.bot_played
    told = await b.recv_until("seat_back")
    assert told.body.seat == a.seat and told.body.bot_played
    assert table.seats[a.seat].bot is None and a.seat not in table.taken_over  # type: ignore[index, union-attr]
    stored = storage._tables[a.table].seats[a.seat]  # type: ignore[index]
    assert stored.bot is None and stored.token_digest == token_digest(a.token)  # type: ignore[arg-type]

    # b plays; then the turn is the person's, not the bot's.
    turn = [cmd for cmd in b.inbox if cmd.name == "your_turn"][-1]
    b.send(await _answer(b, turn, rules), recipient=f"table:{b.table}", re=turn.seq)
    mine = await c.recv_until("your_turn")
    assert mine.body.view.seat == a.seat
    assert table.turns.pending(a.seat) is not None  # type: ignore[arg-type]
    await b.close()
    await c.close()


async def test_a_seat_held_for_its_person_is_still_theirs_after_a_restart(
        server: NetworkEngine, clock: FakeClock, storage: MemoryStorage) -> None:
    a, b = await _two(server)
    await _bot_plays_a(server, clock, a, b)
    await b.close()
    await server.stop()
    again = NetworkEngine("127.0.0.1", 0, seed=4242, grace=60.0, clock=clock, storage=storage)
    await again.start()
    try:
        table = again.tables[a.table]  # type: ignore[index]
        assert table.seats[a.seat].bot is not None  # type: ignore[index, union-attr]
        c = await WireClient.connect(again.port)
        assert (await c.resume(a.token, NEVER)).name == "welcome"  # type: ignore[arg-type]
        assert (await c.recv_until("seat_back")).body.bot_played
        assert table.seats[a.seat].bot is None  # type: ignore[index, union-attr]
        await c.close()
    finally:
        await again.stop()


async def test_a_person_who_left_cannot_take_the_seat_back(server: NetworkEngine) -> None:
    a, b = await _two(server)
    a.send(wire.LeaveTable(table=a.table))  # type: ignore[arg-type]
    assert (await a.recv_until("left")).body.reason == "left"
    await b.recv_until("seat_replaced")
    c = await WireClient.connect(server.port)
    assert (await c.resume(a.token, NEVER)).body.code == "bad_token"  # type: ignore[arg-type, union-attr]
    assert server.tables[a.table].seats[a.seat].bot is not None  # type: ignore[index, union-attr]
    await a.close()
    await b.close()
    await c.close()
