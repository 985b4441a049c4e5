"""A seat a bot played because its person did not come back in time: the person's seat
token takes it back (the others are told with seat_back, bot_played), in the journal too;
a seat whose person left stays the bot's."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from scopa.engine import Action, Player, View
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire
from scopa.server import NetworkEngine, Table
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.table import token_digest

from test_reconnect import _answer, _solo, _until_away
from wire_client import WireClient

NEVER = 2**53 - 1  # a last_event above any: a snapshot instead of the missed events


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
    snap = (await c.recv_until("snapshot")).body  # from which play the bot played the seat
    [held] = [s for s in snap.seats if s.seat == a.seat]
    assert held.bot and held.bot_from is not None and held.bot_until is None
    back = await c.recv_until("seat_back")
    assert back.body.seat == a.seat and back.body.bot_played
    told = await b.recv_until("seat_back")
    assert told.body.seat == a.seat and told.body.bot_played
    assert table.seats[a.seat].bot is None and a.seat not in table.taken_over  # type: ignore[index, union-attr]
    [again] = [s for s in table.snapshot(None).seats if s.seat == a.seat]
    assert not again.bot and again.bot_from == held.bot_from and again.bot_until is not None
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


async def test_a_restored_game_none_of_its_people_came_back_to_waits_for_them(
        clock: FakeClock, storage: MemoryStorage) -> None:
    """gus plays a bot; the server restarts and gus does not come back: once his grace
    period is over no bot plays his seat and his turn's clock does not play for him (the
    game stands, his seat listed away); back with his token, he plays on, on the turn clock."""
    options = {"seed": 4242, "grace": 60.0, "clock": clock, "storage": storage, "turn_timeout": 600.0}
    server = NetworkEngine("127.0.0.1", 0, **options)  # type: ignore[arg-type]
    await server.start()
    a = await _solo(server, "gus")
    await a.recv_until("your_turn")
    a.abort()
    await server.stop()
    again = NetworkEngine("127.0.0.1", 0, **options)  # type: ignore[arg-type]
    await again.start()
    try:
        table = again.tables[a.table]  # type: ignore[index]
        clock.advance(61.0)  # gus's grace is over
        assert table.seats[a.seat].bot is None and table.seats[a.seat].away and table.seats.waiting  # type: ignore[index, union-attr]
        turn = table.turns.pending(a.seat)  # type: ignore[arg-type]
        assert turn is not None
        clock.advance(10_000.0)  # past any turn clock: nothing is played for him
        assert table.turns.pending(a.seat) is turn and turn.deadline is None  # type: ignore[arg-type]
        s = await WireClient.connect(again.port, "cugina")  # the lobby lists it in play, its person away
        s.send(wire.ListTables())
        [listed] = [x for x in (await s.recv_until("tables")).body.tables if x.id == a.table]
        assert listed.state is wire.TableState.PLAYING and listed.away == [a.seat] and listed.bots == [1 - a.seat]  # type: ignore[operator]
        c = await WireClient.connect(again.port)
        c.table, c.seat = a.table, a.seat
        assert (await c.resume(a.token, NEVER)).name == "welcome"  # type: ignore[arg-type]
        mine = await c.recv_until("your_turn")
        assert mine.body.event == turn.event and mine.body.turn_left_ms == 600_000
        assert not table.seats.waiting and turn.deadline is not None
        await c.close()
        await s.close()
    finally:
        await again.stop()


async def test_the_first_person_back_at_a_restored_game_plays_on_against_a_bot_for_the_other(
        clock: FakeClock, storage: MemoryStorage) -> None:
    """nonna and nipote play; the server restarts and neither comes back in time: the game
    waits; nipote comes back: from then on a bot plays nonna's seat (held for her)."""
    options = {"seed": 4242, "grace": 60.0, "clock": clock, "storage": storage}
    server = NetworkEngine("127.0.0.1", 0, **options)  # type: ignore[arg-type]
    await server.start()
    a, b = await _two(server)
    a.abort()
    b.abort()
    await server.stop()
    again = NetworkEngine("127.0.0.1", 0, **options)  # type: ignore[arg-type]
    await again.start()
    try:
        table = again.tables[a.table]  # type: ignore[index]
        clock.advance(61.0)
        assert table.seats.waiting and all(s is not None and s.away and s.bot is None for s in table.seats)
        c = await WireClient.connect(again.port)
        c.table, c.seat = b.table, b.seat
        assert (await c.resume(b.token, NEVER)).name == "welcome"  # type: ignore[arg-type]
        snap = (await c.recv_until("snapshot")).body  # nonna's seat a bot's now
        assert [x.bot for x in sorted(snap.seats, key=lambda x: x.seat)] == [x == a.seat for x in range(2)]
        assert not table.seats.waiting
        assert table.seats[a.seat].bot is not None and table.seats[a.seat].token_digest  # type: ignore[index, union-attr]
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


class SlowBot(Player):
    """A bot that plays its first legal move once ``go`` is set (a bot still thinking)."""

    def __init__(self, name: str, go: asyncio.Event, asked: asyncio.Event) -> None:
        self.name, self.go, self.asked = name, go, asked

    async def choose(self, view: View, legal: Sequence[Action]) -> Action:
        self.asked.set()
        await self.go.wait()
        return legal[0]


async def _waiting_turn(c: WireClient, table: Table) -> Command:
    """The your_turn of ``c``'s seat that waits now."""
    while True:
        pending = table.turns.pending(c.seat)  # type: ignore[arg-type]
        got = [x for x in c.inbox if x.name == "your_turn"]
        if pending is not None and got and got[-1].body.event == pending.event:
            return got[-1]
        await c.recv()


@pytest.mark.parametrize("whose", ["hers", "the other's"])
async def test_a_turn_the_bot_is_still_thinking_over_is_the_persons_when_they_take_the_seat_back(
        clock: FakeClock, whose: str) -> None:
    """The bot is asked (the person's turn waiting when the bot took over, or the next one)
    and the person takes the seat back before it answers: the turn is the person's, on
    the turn clock, and the bot's answer is never played."""
    server = NetworkEngine("127.0.0.1", 0, seed=4242, grace=60.0, clock=clock, turn_timeout=600.0)
    await server.start()
    try:
        await _bot_thinks_on(server, clock, whose)
    finally:
        await server.stop()


async def _bot_thinks_on(server: NetworkEngine, clock: FakeClock, whose: str) -> None:
    go, asked = asyncio.Event(), asyncio.Event()
    server.life.make_bot = lambda strategy, name, seed: SlowBot(name, go, asked)  # type: ignore[method-assign]
    a, b = await _two(server)
    rules = rules_from_wire([c for c in b.inbox if c.name == "game_start"][-1].body.rules)
    table = server.tables[a.table]  # type: ignore[index]
    while table.turns.pending(a.seat) is None and table.turns.pending(b.seat) is None:  # type: ignore[arg-type]
        await b.recv()
    want, other = (a, b) if whose == "hers" else (b, a)
    if table.turns.pending(want.seat) is None:  # type: ignore[arg-type]
        turn = await _waiting_turn(other, table)
        other.send(await _answer(other, turn, rules), recipient=f"table:{a.table}", re=turn.seq)
        await want.recv_until("your_turn")
    a.abort()
    await _until_away(b, [a.seat])  # type: ignore[list-item]
    clock.advance(60.0)
    await b.recv_until("seat_replaced")
    if whose != "hers":  # the bot is asked once b has played
        turn = await _waiting_turn(b, table)
        b.send(await _answer(b, turn, rules), recipient=f"table:{b.table}", re=turn.seq)
    await asyncio.wait_for(asked.wait(), 10)
    plays = len(table.master.actions)  # type: ignore[union-attr]

    c = await WireClient.connect(server.port)
    assert (await c.resume(a.token, NEVER)).name == "welcome"  # type: ignore[arg-type]
    assert (await c.recv_until("seat_back")).body.bot_played
    go.set()  # the bot answers now: too late
    mine = await c.recv_until("your_turn")
    assert mine.body.view.seat == a.seat and len(table.master.actions) == plays  # type: ignore[union-attr]
    assert mine.body.turn_left_ms == 600_000  # the person's turn, on the turn clock
    c.send(await _answer(c, mine, rules), recipient=f"table:{a.table}", re=mine.seq)
    played = await c.recv_until("played")
    assert played.body.seat == a.seat and played.body.forced is None
    await b.close()
    await c.close()
