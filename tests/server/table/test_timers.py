"""Turn timers: on a fake clock, a seat that does not answer in time gets the sensible
play made for it (the ``greedy`` bot's choice from that seat's view: a capture on offer
is taken, R13/R16), announced as forced by timeout."""

from __future__ import annotations

import pytest

from scopa.bots import CarefulGreedyBot, RandomBot
from scopa.engine import CARDS, Play, cards_in
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

from wire_client import WireClient


@pytest.fixture
async def server(clock: FakeClock):
    # No keepalive pings: the connection deadlines run on the same clock, and here only
    # the turn timers are to be armed on it (``clock.sleeping`` counts them).
    engine = NetworkEngine("127.0.0.1", 0, seed=77, clock=clock, limits=Limits(ping_interval=None))
    await engine.start()
    yield engine
    await engine.stop()


def sensible(server: NetworkEngine, table: str) -> tuple[str, list[str]]:
    """The play the ``greedy`` bot would make for the seat the table waits for, from
    that seat's view: card and captured cards as the wire writes them."""
    master = server.tables[table].master
    assert master is not None and master.asking is not None
    play = CarefulGreedyBot().pick(master.asking.view, master.asking.legal)
    assert isinstance(play, Play)
    return str(CARDS[play.card]), sorted(str(CARDS[c]) for c in cards_in(play.capture))


async def test_turn_timer_plays_the_sensible_move_and_says_so(server: NetworkEngine, clock: FakeClock) -> None:
    a = await WireClient.connect(server.port, "slowpoke")
    a.send(wire.CreateTable(fill_with_bots=["greedy"], turn_timeout=30))
    info = (await a.recv_until("table_created")).body.table
    assert info.turn_timeout == 30.0
    a.table, a.seat = info.id, (await a.recv_until("joined")).body.seat
    turn = await a.recv_until("your_turn")
    expected = sensible(server, info.id)
    assert turn.body.turn_left_ms == 45_000  # the seat's first turn of the round: 30 s and the reading time
    clock.advance(44.9)  # not yet
    assert clock.sleeping == 1
    clock.advance(0.1)
    played = await a.recv_until("played")
    first = turn.body.legal[0]
    assert played.body.seat == a.seat and played.body.forced == "timeout"
    assert (played.body.card, sorted(played.body.captured)) == expected
    t = server.tables[info.id]
    assert t.master is not None and len([x for x in t.master.actions if hasattr(x, "card")]) >= 1
    # The late answer to that turn is refused, never applied.
    n = len(t.master.actions)
    seq = a.send(wire.PlayCard(card=first.card, capture=first.capture, turn=turn.body.event), recipient=f"table:{info.id}")
    error = await a.recv_until("error")
    assert error.re == seq and error.body.code == "not_your_turn"
    assert len(t.master.actions) >= n
    # A seat that answers in time is never forced: play the rest; the game ends.
    events = await a.play_game(RandomBot(seed=1))
    assert events[-1].body.reason == "target"
    forced = [c for c in a.inbox if isinstance(c.body, wire.CardPlayed) and c.body.forced]
    assert [c.body.event for c in forced] == [played.body.event]
    await a.close()


async def test_a_timeout_takes_the_capture_the_first_legal_play_would_miss(
    server: NetworkEngine, clock: FakeClock
) -> None:
    """Every turn of a seat that never answers times out; at the first turn whose first
    legal play lays a card down (R17) while another card captures (R13, R14), the play
    made for the seat captures, and it is marked as a timeout move."""
    a = await WireClient.connect(server.port, "dozing")
    a.send(wire.CreateTable(fill_with_bots=["greedy"], turn_timeout=30))
    info = (await a.recv_until("table_created")).body.table
    a.table, a.seat = info.id, (await a.recv_until("joined")).body.seat
    for _ in range(40):
        turn = await a.recv_until("your_turn")
        legal = turn.body.legal
        expected = sensible(server, info.id)
        assert turn.body.turn_left_ms is not None
        clock.advance(turn.body.turn_left_ms / 1000)  # 30 s, and the reading time on a round's first turn
        played = await a.recv_until("played")
        assert played.body.seat == a.seat and played.body.forced == "timeout"
        assert (played.body.card, sorted(played.body.captured)) == expected
        if not legal[0].capture and any(m.capture for m in legal):
            assert played.body.captured  # the old default threw a card away here
            break
    else:
        raise AssertionError("no turn laid a card down first while a capture was on offer")
    await a.close()


async def test_each_turn_gets_its_whole_time_after_a_late_answer(server: NetworkEngine, clock: FakeClock) -> None:
    """A table has one turn clock: set for the first turn, it must not cut short the
    turns that follow when that turn was answered just in time."""
    a = await WireClient.connect(server.port, "lastminute")
    a.send(wire.CreateTable(fill_with_bots=["greedy"], turn_timeout=30))
    info = (await a.recv_until("table_created")).body.table
    a.table, a.seat = info.id, (await a.recv_until("joined")).body.seat
    first = await a.recv_until("your_turn")
    assert first.body.turn_left_ms is not None
    clock.advance(first.body.turn_left_ms / 1000 - 0.5)  # answered with half a second to spare
    move = first.body.legal[0]
    a.send(wire.PlayCard(card=move.card, capture=move.capture, turn=first.body.event), recipient=f"table:{info.id}")
    second = await a.recv_until("your_turn")  # the bot has played in between
    clock.advance(29.9)  # long past the first turn's deadline, not yet past this one's
    a.send(wire.Ping(nonce=7))
    await a.recv_until("pong")  # anything the clock made the server send came before
    plays = [c.body for c in a.inbox if isinstance(c.body, wire.CardPlayed)]
    assert plays and not any(p.forced for p in plays)
    clock.advance(0.1)
    played = await a.recv_until("played")
    assert played.body.seat == a.seat and played.body.forced == "timeout"
    assert played.body.event > second.body.event
    await a.close()


async def test_public_tables_get_a_60_second_turn_timer_by_default(server: NetworkEngine, clock: FakeClock) -> None:
    a = await WireClient.connect(server.port, "patient")
    a.send(wire.CreateTable(fill_with_bots=["greedy"]))
    assert (await a.recv_until("table_created")).body.table.turn_timeout == 60.0
    joined = await a.recv_until("joined")
    a.table, a.seat = joined.body.table, joined.body.seat
    turn = await a.recv_until("your_turn")
    expected = sensible(server, a.table)
    assert turn.body.turn_left_ms == 75_000  # the seat's first turn of the round: 60 s and the reading time
    clock.advance(74.9)
    assert clock.sleeping >= 1  # still armed: nothing played yet
    clock.advance(0.2)
    played = await a.recv_until("played")
    assert played.body.seat == a.seat and played.body.forced == "timeout"
    assert (played.body.card, sorted(played.body.captured)) == expected
    await a.close()


async def test_only_a_private_table_plays_without_a_turn_timer(server: NetworkEngine, clock: FakeClock) -> None:
    a = await WireClient.connect(server.port, "patient")
    seq = a.send(wire.CreateTable(fill_with_bots=["greedy"], no_turn_timer=True))
    err = await a.recv_until("error", "table_created")
    assert err.name == "error" and err.re == seq and err.body.code == "bad_rules"
    assert "private" in err.body.message
    seq = a.send(wire.CreateTable(fill_with_bots=["greedy"], turn_timeout=61))  # longer than the server's
    err = await a.recv_until("error", "table_created")
    assert err.name == "error" and err.body.code == "bad_rules" and "shorten" in err.body.message
    a.send(wire.CreateTable(fill_with_bots=["greedy"], private=True, no_turn_timer=True))
    assert (await a.recv_until("table_created")).body.table.turn_timeout is None
    joined = await a.recv_until("joined")
    a.table, a.seat = joined.body.table, joined.body.seat
    turn = await a.recv_until("your_turn")
    clock.advance(10_000)
    assert clock.sleeping == 0
    # Nothing was played for us: our own answer is accepted.
    first = turn.body.legal[0]
    a.send(wire.PlayCard(card=first.card, capture=first.capture, turn=turn.body.event), recipient=f"table:{a.table}",
           re=turn.seq)
    played = await a.recv_until("played")
    assert played.body.seat == a.seat and played.body.forced is None
    await a.close()


async def test_server_default_turn_timeout_applies_to_new_tables(clock: FakeClock) -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, turn_timeout=10.0)
    await engine.start()
    try:
        a = await WireClient.connect(engine.port, "dflt")
        a.send(wire.CreateTable(fill_with_bots=["random"]))
        assert (await a.recv_until("table_created")).body.table.turn_timeout == 10.0
        turn = await a.recv_until("your_turn")
        assert turn.body.turn_left_ms == 25_000  # the seat's first turn of the round: 10 s and the reading time
        clock.advance(25.0)
        assert (await a.recv_until("played")).body.forced == "timeout"
        await a.close()
    finally:
        await engine.stop()
