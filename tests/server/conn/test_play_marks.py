"""The round's plays as a client that comes back gets them (a snapshot) are the plays as
a client that never left saw them: each with its scopa (R16), the server's play when a
seat's time ran out, and a bot's play for a person who was away; and a server restarted
from its journal says the same of them, and of the span the bot played a person's seat."""

from __future__ import annotations

from typing import Any

import pytest

from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage

from test_reconnect import _answer, _until_away
from wire_client import WireClient

pytestmark = pytest.mark.integration

NEVER = 2**53 - 1  # a last_event above any: a snapshot instead of the missed events
SEED = 4242


def _seen(inbox: list[Command], person: int) -> list[tuple[Any, ...]]:
    """The plays of the round now, as a client that never left lists them: each play as
    ``played`` told it, a bot's when ``person``'s seat was played by a bot then."""
    plays: list[tuple[Any, ...]] = []
    bot = False
    for cmd in inbox:
        body = cmd.body
        if isinstance(body, wire.RoundStart):
            plays = []
        elif isinstance(body, wire.SeatReplaced) and body.seat == person:
            bot = True
        elif isinstance(body, wire.SeatBack) and body.seat == person:
            bot = False
        elif isinstance(body, wire.CardPlayed):
            plays.append((body.seat, body.card, sorted(body.captured), body.scopa, body.forced,
                          bot and body.seat == person))
    return plays


def _listed(view: wire.PublicView) -> list[tuple[Any, ...]]:
    """The plays of the round now as a snapshot lists them."""
    return [(p.seat, p.card, sorted(p.captured), p.scopa, p.forced, p.bot) for p in view.round_plays]


async def _turn_of(c: WireClient, server: NetworkEngine) -> Command:
    """``c``'s your_turn that waits now."""
    table = server.tables[c.table]  # type: ignore[index]
    while True:
        pending = table.turns.pending(c.seat)  # type: ignore[arg-type]
        got = [x for x in c.inbox if x.name == "your_turn"]
        if pending is not None and got and got[-1].body.event == pending.event:
            return got[-1]
        await c.recv()


async def _marked_round(server: NetworkEngine, clock: FakeClock) -> tuple[WireClient, WireClient, WireClient]:
    """Two people at a table with a turn clock: one play made for the seat whose time ran
    out; then ``a``'s connection drops, a bot plays its seat, and ``a`` comes back as
    ``c``.  ``b`` never left.  Returns a, b, c."""
    a = await WireClient.connect(server.port, "nonna")
    b = await WireClient.connect(server.port, "nipote")
    a.send(wire.CreateTable(turn_timeout=30))
    a.table = (await a.recv_until("table_created")).body.table.id
    a.seat = (await a.recv_until("joined")).body.seat
    await b.join(a.table)
    await b.recv_until("game_start")
    rules = rules_from_wire([c for c in b.inbox if c.name == "game_start"][-1].body.rules)
    table = server.tables[a.table]
    while table.turns.pending(a.seat) is None and table.turns.pending(b.seat) is None:
        await b.recv()
    clock.advance(45)  # the time of the seat to play runs out (the round's first turn has 45 s): the server plays for it
    assert (await b.recv_until("played")).body.forced == "timeout"
    a.abort()
    await _until_away(b, [a.seat])
    if table.turns.pending(b.seat) is not None:  # b plays while a is away
        turn = await _turn_of(b, server)
        b.send(await _answer(b, turn, rules), recipient=f"table:{b.table}", re=turn.seq)
        await b.recv_until("played")
    clock.advance(60)  # a's grace period is over: a bot plays the seat (a's time runs out no more)
    await b.recv_until("seat_replaced")
    for _ in range(3):  # a few plays each: the bot's for a, b's own
        turn = await _turn_of(b, server)
        b.send(await _answer(b, turn, rules), recipient=f"table:{b.table}", re=turn.seq)
        await b.recv_until("played")
    while not any(p[5] for p in _seen(b.inbox, a.seat)):
        await b.recv()
    c = await WireClient.connect(server.port)
    c.table, c.seat = a.table, a.seat
    assert (await c.resume(a.token, NEVER)).name == "welcome"  # type: ignore[arg-type]
    await c.recv_until("snapshot")
    await b.recv_until("seat_back")
    return a, b, c


@pytest.mark.parametrize("journaled", [True, False], ids=["journaled", "no journal"])
async def test_a_client_that_comes_back_lists_the_rounds_plays_as_one_that_never_left(
        clock: FakeClock, journaled: bool) -> None:
    server = NetworkEngine("127.0.0.1", 0, seed=SEED, grace=60.0, clock=clock,
                           storage=MemoryStorage() if journaled else None)
    await server.start()
    try:
        a, b, c = await _marked_round(server, clock)
        snap = [x.body for x in c.inbox if x.name == "snapshot"][-1]
        listed = _listed(snap.you)
        assert listed == _seen(b.inbox, a.seat)
        assert any(p[4] == "timeout" for p in listed) and any(p[5] for p in listed)  # both marks in this round
        assert not any(p[5] for p in listed if p[0] != a.seat)
        await b.close()
        await c.close()
    finally:
        await server.stop()


async def test_a_restarted_server_lists_the_plays_and_the_bots_span_as_before(clock: FakeClock) -> None:
    storage = MemoryStorage()
    server = NetworkEngine("127.0.0.1", 0, seed=SEED, grace=60.0, clock=clock, storage=storage)
    await server.start()
    try:
        a, b, c = await _marked_round(server, clock)
        rules = rules_from_wire([x for x in b.inbox if x.name == "game_start"][-1].body.rules)
        for _ in range(2):  # the person plays again after taking the seat back (and b too)
            whose = c if server.tables[c.table].turns.pending(c.seat) is not None else b  # type: ignore[index, arg-type]
            turn = await _turn_of(whose, server)
            whose.send(await _answer(whose, turn, rules), recipient=f"table:{whose.table}", re=turn.seq)
            await b.recv_until("played")
        before = server.tables[a.table].snapshot(None)  # type: ignore[index]
        await b.close()
        await c.close()
    finally:
        await server.stop()
    [seat] = [s for s in before.seats if s.seat == a.seat]
    assert seat.bot_from is not None and seat.bot_until is not None
    again = NetworkEngine("127.0.0.1", 0, seed=SEED, grace=60.0, clock=clock, storage=storage)
    await again.start()
    try:
        after = again.tables[a.table].snapshot(None)  # type: ignore[index]
        assert [(s.seat, s.bot_from, s.bot_until) for s in after.seats] == [
            (s.seat, s.bot_from, s.bot_until) for s in before.seats]
        assert before.public is not None and after.public is not None
        assert _listed(after.public) == _listed(before.public)
        assert any(p[5] for p in _listed(after.public)) or before.public.round_plays == []
    finally:
        await again.stop()
