"""Bad input gets a typed error, changes nothing, and the game goes on."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import CARDS, Card, Preset, cards_in
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage

from test_server_games import seeded_server
from wire_client import WireClient


server = seeded_server(99)


async def _error_after(client: WireClient, seq: int) -> wire.Error:
    reply = await client.recv_until("error")
    assert reply.re == seq
    return reply.body


async def test_bad_moves_get_typed_errors_and_change_nothing_R7(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "alice")
    b = await WireClient.connect(server.port, "bob")
    table = await a.create()
    await b.join(table)
    t = server.tables[table]
    # Once the cards are dealt, the server state says who moves first.
    await a.recv_until("deal")
    mover, waiter = (a, b) if t.master.state.to_move == a.seat else (b, a)
    turn_cmd = await mover.recv_until("your_turn")
    assert mover is not None and waiter is not None
    turn = turn_cmd.body
    before = t.master.state.copy()
    hand = [Card.parse(c) for c in turn.view.hand]
    not_mine = next(c for c in CARDS if c not in hand and str(c) not in turn.view.table)
    here = f"table:{table}"

    # Out of turn: the other seat plays.
    seq = waiter.send(wire.PlayCard(card=str(not_mine), capture=[]), recipient=here)
    assert (await _error_after(waiter, seq)).code == "not_your_turn"
    # Card not in hand; then the same your_turn comes again (same event number).
    seq = mover.send(wire.PlayCard(card=str(not_mine), capture=[]), recipient=here)
    assert (await _error_after(mover, seq)).code == "card_not_in_hand"
    again = await mover.recv_until("your_turn")
    assert again.body.event == turn.event and again.body.legal == turn.legal
    # Illegal capture: take a card that is not on the table.
    seq = mover.send(wire.PlayCard(card=str(hand[0]), capture=[str(not_mine)]), recipient=here)
    assert (await _error_after(mover, seq)).code == "illegal_capture"
    await mover.recv_until("your_turn")
    # A forged sender.
    seq = mover.send_forged(wire.PlayCard(card=turn.legal[0].card, capture=turn.legal[0].capture),
                            sender=waiter.party, recipient=here)
    assert (await _error_after(mover, seq)).code == "forged_sender"
    # A play for a table the client is not at.
    seq = mover.send(wire.PlayCard(card=turn.legal[0].card, capture=turn.legal[0].capture), recipient="table:999")
    assert (await _error_after(mover, seq)).code == "not_at_table"
    # Nothing changed in the authoritative state.
    after = t.master.state
    assert after.hands == before.hands and after.table == before.table and after.piles == before.piles
    assert after.to_move == before.to_move and len(t.master.actions) == len([*t.master.actions])
    # Not a legal Cirulla declaration in plain scopa: the third refused answer of this
    # turn, so the game master plays its default (the sensible play) for the seat (forced: refused).
    default = t.master.default_play()
    seq = mover.send(wire.MakeDeclaration(kind=wire.DeclarationKind.TRIS), recipient=here)
    assert (await _error_after(mover, seq)).code == "illegal_declaration"
    forced = await mover.recv_until("played", "your_turn")
    assert forced.name == "played" and forced.body.forced == "refused"
    assert (forced.body.seat, forced.body.card, sorted(forced.body.captured)) == (
        mover.seat, str(CARDS[default.card]), sorted(str(CARDS[c]) for c in cards_in(default.capture)))
    # The game still finishes.
    ends = await asyncio.gather(mover.play_game(GreedyBot()), waiter.play_game(RandomBot(seed=1)))
    assert ends[0][-1].body.reason == "target" and ends[1][-1].body.totals == ends[0][-1].body.totals
    await a.close()
    await b.close()


async def test_malformed_and_unknown_frames_R7(server: NetworkEngine) -> None:
    c = await WireClient.connect(server.port, "carol")
    c.send_raw(struct.pack(">I", 3) + b"\xc1\xc1\xc1")  # not msgpack
    assert (await c.recv_until("error")).body.code == "malformed_frame"
    payload = msgpack.packb({"v": 2, "seq": 5, "sender": "player:carol", "recipient": "lobby",
                             "name": "launch_missiles", "body": {}})
    c.send_raw(struct.pack(">I", len(payload)) + payload)
    err = await c.recv_until("error")
    assert err.body.code == "unknown_command" and err.re == 5
    payload = msgpack.packb([1, 2, 3])
    c.send_raw(struct.pack(">I", len(payload)) + payload)
    assert (await c.recv_until("error")).body.code == "malformed_frame"
    # The connection still works.
    seq = c.send(wire.Ping(nonce=7))
    pong = await c.recv_until("pong")
    assert pong.body.nonce == 7 and pong.re == seq
    # An oversize length prefix is fatal: error, then the server closes the connection.
    c.send_raw(struct.pack(">I", 10_000_000))
    err = await c.recv_until("error")
    assert err.body.code == "frame_too_large" and err.body.fatal
    with pytest.raises(ConnectionError):
        await c.recv()


async def test_lobby_errors(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "dave")
    dup = await WireClient.connect(server.port)
    reply = await dup.hello("dave")
    assert reply.name == "error" and reply.body.code == "name_taken"
    assert (await dup.hello("dave2")).name == "welcome"
    seq = a.send(wire.JoinTable(table="nope"))
    assert (await _error_after(a, seq)).code == "no_such_table"
    seq = a.send(wire.CreateTable(preset=Preset.CIRULLA, options={"napola": True}))
    err = await _error_after(a, seq)
    assert err.code == "bad_rules" and "napola" in err.message
    seq = a.send(wire.CreateTable(fill_with_bots=["skynet"]))
    assert (await _error_after(a, seq)).code == "unknown_bot"
    table = await a.create(bots=[], players=2)
    seq = a.send(wire.JoinTable(table=table))
    assert (await _error_after(a, seq)).code == "already_at_table"
    e = await WireClient.connect(server.port, "erin")
    await e.join(table)  # the table is now full and playing
    f = await WireClient.connect(server.port, "frank")
    seq = f.send(wire.JoinTable(table=table))
    assert (await _error_after(f, seq)).code == "table_full"
    seq = f.send(wire.LeaveTable(table=table))
    assert (await _error_after(f, seq)).code == "not_at_table"
    for c in (a, dup, e, f):
        await c.close()


async def test_before_hello_and_forged_guest(server: NetworkEngine) -> None:
    c = await WireClient.connect(server.port)
    c.send_forged(wire.ListTables(), sender="guest", recipient="lobby")
    assert (await c.recv_until("error")).body.code == "not_hello_yet"


async def test_client_killed_mid_game_leaves_other_tables_playing(server: NetworkEngine) -> None:
    solo = await WireClient.connect(server.port, "solo")
    await solo.create(bots=["greedy"])
    a = await WireClient.connect(server.port, "gina")
    b = await WireClient.connect(server.port, "hank")
    table = await a.create(bot_takeover=False)  # a player leaving ends the game
    await b.join(table)
    solo_game = asyncio.create_task(solo.play_game(RandomBot(seed=2)))
    # Let the doomed game get under way, then kill one client without a word.
    await a.recv_until("your_turn", "deal")
    b.writer.transport.abort()
    # The seat is kept for its client (it may reconnect): the table is told it is away.
    while True:
        update = await a.recv_until("table_update")
        if update.body.table.away == [b.seat]:
            break
    events = await solo_game
    assert events[-1].body.reason == "target"
    assert server.tables[table].state is wire.TableState.PLAYING  # still waiting for hank
    a.send(wire.LeaveTable(table=table))
    end = await a.recv_until("game_end")
    assert end.body.reason == "abandoned" and end.body.winner is None
    await a.recv_until("left")
    # The lobby still answers.
    seq = a.send(wire.ListTables())
    listing = await a.recv_until("tables")
    assert listing.re == seq and {t.id for t in listing.body.tables} >= {table}
    await a.close()
    await solo.close()


@pytest.mark.parametrize("takeover", [True, False], ids=["a bot plays on", "the game ends"])
async def test_leave_mid_game_answers_the_leaver_and_tells_the_others(server: NetworkEngine, takeover: bool) -> None:
    a = await WireClient.connect(server.port, "ivy")
    b = await WireClient.connect(server.port, "jack")
    table = await a.create(bot_takeover=takeover)
    await b.join(table)
    await a.recv_until("deal")
    seq = a.send(wire.LeaveTable(table=table))
    left = await a.recv_until("left")
    assert left.re == seq and left.body.reason == "left"
    if takeover:  # the table's bot_takeover: a bot plays ivy's seat, the game goes on
        replaced = await b.recv_until("seat_replaced", "game_end")
        assert replaced.name == "seat_replaced" and replaced.body.name == "ivy" and replaced.body.seat == a.seat
        assert server.tables[table].state is wire.TableState.PLAYING
        return
    end = await b.recv_until("game_end")
    assert end.body.reason == "abandoned" and end.body.winner is None
    assert (await b.recv_until("left")).body.reason == "abandoned"


async def test_a_waiting_table_of_bots_closes_when_its_client_does_not_come_back() -> None:
    """A dropped seat at a waiting table is kept for the grace period (like one in a game);
    when it runs out the seat is freed, and a table of bots closes, in the journal too."""
    clock, storage = FakeClock(), MemoryStorage()
    server = NetworkEngine("127.0.0.1", 0, seed=99, clock=clock, grace=30.0, storage=storage)
    await server.start()
    try:
        a = await WireClient.connect(server.port, "kim")
        table = await a.create(bots=["random", "random"], players=4)
        assert table in server.tables
        await a.close()
        probe = await WireClient.connect(server.port, "lee")
        for _ in range(200):  # the server notices the drop and arms the grace timer (bounded)
            if clock.sleeping:
                break
            probe.send(wire.ListTables())
            await probe.recv_until("tables")
        assert server.tables[table].info().away == [0] and storage._tables[table].status == "waiting"
        clock.advance(30.0)
        probe.send(wire.ListTables())
        listing = await probe.recv_until("tables")
        assert table not in {t.id for t in listing.body.tables} and table not in server.tables
        assert storage._tables[table].status == "closed"
        await probe.close()
    finally:
        await server.stop()


async def test_a_waiting_seat_whose_client_says_bye_is_freed_at_once(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "kim")
    table = await a.create(bots=["random", "random"], players=4)
    a.send(wire.Bye(reason="done"))
    probe = await WireClient.connect(server.port, "lee")
    for _ in range(200):  # the server handles the bye on its own schedule: ask (bounded)
        probe.send(wire.ListTables())
        listing = await probe.recv_until("tables")
        if table not in {t.id for t in listing.body.tables}:
            break
    assert table not in {t.id for t in listing.body.tables}
    await a.close()
    await probe.close()


async def test_an_answer_to_your_turn_is_never_rate_limited_an_unsolicited_play_is() -> None:
    """Only what the server did not ask for is charged to the command rate: a play that
    answers the pending your_turn goes through with an empty bucket; a play when no turn
    waits, or a lobby query, is charged (here: answered rate_limited and not run)."""
    from scopa.server import Limits

    limits = Limits(commands_per_second=1.0, command_burst=3, max_refused_commands=50)
    engine = NetworkEngine("127.0.0.1", 0, seed=5, limits=limits, clock=FakeClock())  # frozen: no token comes back
    await engine.start()
    try:
        c = await WireClient.connect(engine.port, "mia")  # hello: token 1 of 3
        await c.create(bots=["random"])  # create_table: token 2
        turn = await c.recv_until("your_turn")
        master = engine.tables[c.table].master
        c.send(wire.Ping(nonce=1))  # token 3: the bucket is now empty
        await c.recv_until("pong")
        move = turn.body.legal[0]
        c.send(wire.PlayCard(card=move.card, capture=move.capture, turn=turn.body.event),
               recipient=f"table:{c.table}", re=turn.seq)
        played = await c.recv_until("played", "error")
        assert played.name == "played" and played.body.seat == c.seat and played.body.card == move.card
        assert len(master.actions) > 0
        # Not asked for: a lobby query with the bucket still empty.
        seq = c.send(wire.ListTables())
        err = await c.recv_until("error", "tables")
        assert err.name == "error" and err.re == seq and err.body.code == "rate_limited" and not err.body.fatal
        assert err.sender == "lobby"
        await c.close()
    finally:
        await engine.stop()
