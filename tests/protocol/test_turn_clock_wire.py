"""The turn clock on the wire (PROTOCOL.md §7, Turn clock): every command that tells
whose turn it is carries the milliseconds left to move, ``turn_left_ms``, counted when it
is sent — a resumed seat, a returning spectator and a fresh snapshot get the time left
now, not the turn's whole time — and a play the server made when the time ran out says
so to everyone.  On a fake clock."""

from __future__ import annotations

import asyncio

import pytest

from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

from wire_client import WireClient

pytestmark = pytest.mark.integration


@pytest.fixture
async def server(clock: FakeClock):
    engine = NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, limits=Limits(ping_interval=None))
    await engine.start()
    yield engine
    await engine.stop()


async def _two_people(port: int, **create: object) -> tuple[WireClient, WireClient, str]:
    a = await WireClient.connect(port, "ada")
    a.send(wire.CreateTable(**create))  # type: ignore[arg-type]
    created = (await a.recv_until("table_created")).body
    table = created.table.id
    joined = await a.recv_until("joined")
    a.table, a.seat = table, joined.body.seat
    b = await WireClient.connect(port, "bea")
    b.send(wire.JoinTable(table=table, invite=created.invite))
    reply = await b.recv_until("joined", "error")
    assert reply.name == "joined"
    b.table, b.seat = table, reply.body.seat
    return a, b, table


async def _settle(*clients: WireClient) -> None:
    """Everything the server sent each client before now has been read."""
    for c in clients:
        c.send(wire.Ping(nonce=1))
        await c.recv_until("pong")


def _bodies(c: WireClient, kind: type[wire.Body]) -> list[wire.Body]:
    return [cmd.body for cmd in c.inbox if isinstance(cmd.body, kind)]


async def test_every_turn_telling_command_carries_the_time_left(server: NetworkEngine, clock: FakeClock) -> None:
    a, b, table = await _two_people(server.port, turn_timeout=30)
    by_seat = {a.seat: a, b.seat: b}
    start = await a.recv_until("round_start")
    first = by_seat[(start.body.dealer + 1) % 2]
    other = b if first is a else a
    assert start.body.turn_left_ms == 45_000  # the first turn's clock (with reading time), for everyone
    turn = await first.recv_until("your_turn")
    assert turn.body.turn_left_ms == 45_000
    move = turn.body.legal[0]
    first.send(wire.PlayCard(card=move.card, capture=move.capture, turn=turn.body.event), recipient=f"table:{table}")
    played = await other.recv_until("played")
    # the other seat's turn begins: its first of the round, with reading time too (a new hand)
    assert played.body.forced is None and played.body.turn_left_ms == 45_000
    turn = await other.recv_until("your_turn")
    assert turn.body.turn_left_ms == 45_000

    # A spectator arriving 12 s into the turn is told the 33 s left, not 45.
    clock.advance(12)
    w = await WireClient.connect(server.port, "cleo")
    w.send(wire.WatchTable(table=table))
    snap = await w.recv_until("snapshot")
    assert snap.body.public is not None and snap.body.public.turn == other.seat
    assert snap.body.turn_left_ms == 33_000

    # The seat to move drops and comes back 5 s later: what it is told is the 28 s left.
    token, last = other.token, other.last_event
    assert token is not None
    other.abort()
    clock.advance(5)
    back = await WireClient.connect(server.port)
    assert (await back.resume(token, last)).name == "welcome"
    seat_back = await back.recv_until("seat_back")
    assert seat_back.body.turn_left_ms == 28_000
    again = await back.recv_until("your_turn")
    assert again.body.event == turn.body.event and again.body.turn_left_ms == 28_000
    told = await first.recv_until("seat_back")
    assert told.body.turn_left_ms == 28_000  # to everyone at the table

    # The time runs out: the server's play for that seat is marked, for the seat, the
    # other player and the spectator, and the next turn's clock starts whole (the first
    # seat's second turn: plain).
    clock.advance(28)
    for c in (back, first, w):
        forced = await c.recv_until("played")
        assert forced.body.seat == other.seat and forced.body.forced == wire.ForcedBy.TIMEOUT.value
        assert forced.body.turn_left_ms == 30_000
    for c in (a, b, w, back):
        await c.close()


async def test_a_seat_coming_back_while_another_moves_learns_that_clock(server: NetworkEngine,
                                                                      clock: FakeClock) -> None:
    a, b, table = await _two_people(server.port, turn_timeout=20)
    start = await a.recv_until("round_start")
    mover = (start.body.dealer + 1) % 2
    waiting = b if mover == a.seat else a
    await _settle(a, b)
    clock.advance(7)
    token, last = waiting.token, waiting.last_event
    assert token is not None
    waiting.abort()
    clock.advance(4)
    back = await WireClient.connect(server.port)
    assert (await back.resume(token, last)).name == "welcome"
    seat_back = await back.recv_until("seat_back")
    assert seat_back.body.turn_left_ms == 24_000  # the other seat's first turn (20 s and 15 s of reading), 11 s in
    await _settle(back)
    assert not _bodies(back, wire.YourTurn)
    await back.close()
    await a.close() if waiting is b else await b.close()


async def test_no_clock_no_time_left(server: NetworkEngine, clock: FakeClock) -> None:
    a, b, table = await _two_people(server.port, private=True, no_turn_timer=True)
    start = await a.recv_until("round_start")
    assert start.body.turn_left_ms is None
    first = a if (start.body.dealer + 1) % 2 == a.seat else b
    turn = await first.recv_until("your_turn")
    assert turn.body.turn_left_ms is None
    move = turn.body.legal[0]
    first.send(wire.PlayCard(card=move.card, capture=move.capture, turn=turn.body.event), recipient=f"table:{table}")
    played = await first.recv_until("played")
    assert played.body.turn_left_ms is None
    assert "turn_left_ms" not in played.body.model_dump()  # left out, not nil
    await a.close()
    await b.close()


async def test_a_built_in_bot_moving_next_has_no_clock(server: NetworkEngine, clock: FakeClock) -> None:
    a = await WireClient.connect(server.port, "ada")
    a.send(wire.CreateTable(fill_with_bots=["greedy"], turn_timeout=30))
    table = (await a.recv_until("table_created")).body.table.id
    a.table, a.seat = table, (await a.recv_until("joined")).body.seat
    start = await a.recv_until("round_start")
    assert (start.body.dealer + 1) % 2 != a.seat and start.body.turn_left_ms is None  # the bot moves first: no clock
    turn = await a.recv_until("your_turn")
    assert turn.body.turn_left_ms == 45_000  # the person's first turn of the round, after the bot's
    move = turn.body.legal[0]
    a.send(wire.PlayCard(card=move.card, capture=move.capture, turn=turn.body.event), recipient=f"table:{table}")
    mine = await a.recv_until("played")
    assert mine.body.seat == a.seat and mine.body.turn_left_ms is None  # the bot moves next: no clock
    bots = await a.recv_until("played")
    assert bots.body.seat != a.seat and bots.body.turn_left_ms == 30_000  # the person's second turn: plain
    await a.close()


async def test_a_persons_first_turn_of_each_round_has_reading_time_after_a_bots(server: NetworkEngine,
                                                                             clock: FakeClock) -> None:
    """Every seat is dealt a new hand as a round starts, the last round's box still on the
    screen: a person's first turn of the round gets READING_TIME (15 s) more whoever moves
    before it, a bot that answers at once included; their later turns of the round do not.
    Told in the played that starts it and in its your_turn, and the clock runs out then.
    R20 (round end)."""
    a = await WireClient.connect(server.port, "ada")
    a.send(wire.CreateTable(fill_with_bots=["greedy"], turn_timeout=30))
    table = (await a.recv_until("table_created")).body.table.id
    a.table, a.seat = table, (await a.recv_until("joined")).body.seat
    firsts = 0
    while firsts < 2:  # two rounds: the person waits out each turn, the server plays it
        cmd = await a.recv()
        if isinstance(cmd.body, wire.RoundStart):
            bot_first = (cmd.body.dealer + 1) % 2 != a.seat
            first, told = True, cmd.body.turn_left_ms
            assert told is None if bot_first else told == 45_000
        elif isinstance(cmd.body, wire.CardPlayed) and cmd.body.seat != a.seat and cmd.body.forced is None:
            told = cmd.body.turn_left_ms  # the bot's play: the person's turn starts
        elif isinstance(cmd.body, wire.YourTurn):
            want = 45_000 if first else 30_000
            assert told == want and cmd.body.turn_left_ms == want
            if first and bot_first:
                firsts += 1
            first = False
            clock.advance(want / 1000 - 1)  # a second short: the turn still waits
            await _settle(a)
            assert not [p for p in _bodies(a, wire.CardPlayed) if p.event > cmd.body.event]
            clock.advance(1)
    await a.close()


async def _play_round_one(c: WireClient, table: str) -> wire.RoundStart:
    """``c`` answers each of its turns with its first legal play until round 2 starts."""
    while True:
        cmd = await c.recv()
        if isinstance(cmd.body, wire.RoundStart) and cmd.body.round == 2:
            return cmd.body
        if isinstance(cmd.body, wire.YourTurn):
            move = cmd.body.legal[0]
            c.send(wire.PlayCard(card=move.card, capture=move.capture, turn=cmd.body.event),
                   recipient=f"table:{table}")


async def test_a_round_after_a_round_end_gives_its_first_turn_reading_time(server: NetworkEngine,
                                                                             clock: FakeClock) -> None:
    """The round-end box is on the players' screens as the next round starts: the first
    turn of that round gets READING_TIME (15 s) more, told in round_start and your_turn so
    that every client's countdown, a returning one's too, shows it.  R20 (round end)."""
    a, b, table = await _two_people(server.port, turn_timeout=30)
    first_start = await a.recv_until("round_start")
    assert first_start.body.round == 1 and first_start.body.turn_left_ms == 45_000  # a board not seen yet
    starts = await asyncio.gather(_play_round_one(a, table), _play_round_one(b, table))
    assert [s.turn_left_ms for s in starts] == [45_000, 45_000]
    by_seat = {a.seat: a, b.seat: b}
    mover = by_seat[(starts[0].dealer + 1) % 2]
    other = b if mover is a else a
    turn = await mover.recv_until("your_turn")
    assert turn.body.turn_left_ms == 45_000

    # 40 s of reading later the seat still has its turn, and a spectator is told the 5 s left.
    clock.advance(40)
    await _settle(a, b)
    assert not [p for p in _bodies(other, wire.CardPlayed) if p.event > turn.body.event]
    w = await WireClient.connect(server.port, "cleo")
    w.send(wire.WatchTable(table=table))
    assert (await w.recv_until("snapshot")).body.turn_left_ms == 5_000

    # Its time runs out; the other seat's first turn of the round has reading time too (its
    # hand is new as well), the turn after it the plain 30 s.
    clock.advance(5)
    forced = await other.recv_until("played")
    assert forced.body.forced == wire.ForcedBy.TIMEOUT.value and forced.body.turn_left_ms == 45_000
    turn = await other.recv_until("your_turn")
    assert turn.body.turn_left_ms == 45_000
    clock.advance(45)
    forced = await other.recv_until("played")
    assert forced.body.seat == other.seat and forced.body.forced == wire.ForcedBy.TIMEOUT.value and forced.body.turn_left_ms == 30_000
    assert (await mover.recv_until("your_turn")).body.turn_left_ms == 30_000
    for c in (a, b, w):
        await c.close()
