"""Reconnect: a seated client whose connection dies comes back with its seat
token and loses or doubles no play; grace expiry hands the seat to a bot or abandons."""

from __future__ import annotations

import dataclasses
import hashlib
import logging

import pytest

from scopa.bots import GreedyBot
from scopa.engine import Deal, replay
from scopa.protocol import commands as wire
from scopa.protocol.codec import encode
from scopa.protocol.convert import action_to_wire, card_str, card_strs, legal_from_wire, view_from_wire
from scopa.protocol.convert import rules_from_wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock

from wire_client import WireClient
from graced import server  # noqa: F401 - the fixture


async def _solo(server: NetworkEngine, name: str, **create: object) -> WireClient:
    """A client seated at a 2-player table against a server bot; the game is on."""
    c = await WireClient.connect(server.port, name)
    c.send(wire.CreateTable(fill_with_bots=["greedy"], **create))  # type: ignore[arg-type]
    c.table = (await c.recv_until("table_created")).body.table.id
    joined = await c.recv_until("joined")
    c.seat = joined.body.seat
    assert c.token == joined.body.token
    return c


async def _answer(c: WireClient, turn_cmd, rules) -> wire.PlayCard:
    body = turn_cmd.body
    action = await GreedyBot().choose(view_from_wire(body.view, rules), legal_from_wire(body))
    play = action_to_wire(action).model_copy(update={"turn": body.event})
    return play


def _check_log(server: NetworkEngine, table_id: str, played: list[wire.CardPlayed]) -> None:
    """The server's action log holds each play exactly once, and replays to its state."""
    t = server.tables[table_id]
    assert t.master is not None
    plays = [a for a in t.master.actions if not isinstance(a, Deal)]
    assert len(plays) == len(played)
    assert [(card_str(p.card), sorted(card_strs(p.captured))) for p in plays] == [
        (p.card, sorted(p.captured)) for p in played
    ]
    again = replay(t.rules, t.master.first_dealer, t.master.actions)
    assert again.totals == t.master.state.totals and again.history == t.master.state.history


async def _play_to_end(c: WireClient, rules) -> wire.GameEnd:
    while True:
        cmd = await c.recv()
        if isinstance(cmd.body, wire.YourTurn):
            play = await _answer(c, cmd, rules)
            c.send(play, recipient=f"table:{c.table}", re=cmd.seq)
        elif isinstance(cmd.body, wire.GameEnd):
            return cmd.body


def _played(*clients: WireClient) -> list[wire.CardPlayed]:
    """Every distinct played event the clients saw, by event number."""
    seen: dict[int, wire.CardPlayed] = {}
    for c in clients:
        for cmd in c.inbox:
            if isinstance(cmd.body, wire.CardPlayed):
                assert seen.setdefault(cmd.body.event, cmd.body) == cmd.body  # never two versions
    return [seen[k] for k in sorted(seen)]


async def test_killed_mid_frame_comes_back_and_the_play_is_made_once(server: NetworkEngine) -> None:
    a = await _solo(server, "ada")
    rules = rules_from_wire((await a.recv_until("game_start")).body.rules)
    turn = await a.recv_until("your_turn")
    play = await _answer(a, turn, rules)
    frame = encode(a.proto.command(play, recipient=f"table:{a.table}", re=turn.seq))
    a.send_raw(frame[: len(frame) // 2])  # half a frame, then the socket dies
    await a.writer.drain()
    a.abort()
    t = server.tables[a.table]  # type: ignore[index]
    actions_before = len(t.master.actions)  # type: ignore[union-attr]

    b = await WireClient.connect(server.port)
    b.table, b.seat, b.last_event = a.table, a.seat, a.last_event
    welcome = await b.resume(a.token, a.last_event, name="someone-else")  # type: ignore[arg-type]
    assert welcome.name == "welcome" and welcome.body.you == "player:ada"  # the seat's name
    joined = await b.recv()
    assert joined.name == "joined" and joined.body.resumed and joined.body.seat == a.seat
    again = await b.recv_until("your_turn")  # nothing was played: the same turn again
    assert again.body.event == turn.body.event and again.body.legal == turn.body.legal
    assert len(t.master.actions) == actions_before  # type: ignore[union-attr]
    b.send(play, recipient=f"table:{b.table}", re=again.seq)
    end = await _play_to_end(b, rules)
    assert end.reason == "target"
    _check_log(server, a.table, _played(a, b))  # type: ignore[arg-type]
    await b.close()


async def test_killed_after_a_play_before_its_ack_the_resent_play_is_refused(server: NetworkEngine) -> None:
    a = await _solo(server, "bea")
    rules = rules_from_wire((await a.recv_until("game_start")).body.rules)
    turn = await a.recv_until("your_turn")
    seen_before_play = a.last_event
    play = await _answer(a, turn, rules)
    a.send(play, recipient=f"table:{a.table}", re=turn.seq)
    # Wait until the server has applied it (its played comes back), but the client dies
    # before it takes that acknowledgement in: it knows only what it saw before playing.
    ack = await a.recv_until("played")
    assert ack.body.seat == a.seat
    a.abort()

    b = await WireClient.connect(server.port)
    b.table, b.seat = a.table, a.seat
    await b.resume(a.token, seen_before_play)  # type: ignore[arg-type]
    assert (await b.recv()).name == "joined"
    replayed = await b.recv_until("played")
    assert replayed.body == ack.body  # the missed play is sent again: same event, same move
    # The client, unsure, sends its play again: it is refused, never applied twice.
    n = len(server.tables[a.table].master.actions)  # type: ignore[index, union-attr]
    seq = b.send(play, recipient=f"table:{b.table}")
    error = await b.recv_until("error")
    assert error.re == seq and error.body.code == "not_your_turn"
    assert len(server.tables[a.table].master.actions) == n  # type: ignore[index, union-attr]
    end = await _play_to_end(b, rules)
    assert end.reason == "target"
    _check_log(server, a.table, _played(a, b))  # type: ignore[arg-type]
    await b.close()


async def test_killed_between_turns_gets_what_it_missed(server: NetworkEngine) -> None:
    a = await _solo(server, "cleo")
    rules = rules_from_wire((await a.recv_until("game_start")).body.rules)
    for _ in range(3):  # a few turns, then die right after a play is acknowledged
        turn = await a.recv_until("your_turn")
        a.send(await _answer(a, turn, rules), recipient=f"table:{a.table}", re=turn.seq)
        await a.recv_until("played")
    last = a.last_event
    a.abort()
    b = await WireClient.connect(server.port)
    b.table, b.seat = a.table, a.seat
    await b.resume(a.token, last)  # type: ignore[arg-type]
    assert (await b.recv()).name == "joined"
    events = []
    while True:
        cmd = await b.recv()
        if isinstance(cmd.body, wire.YourTurn):
            break
        events.append(cmd)
    # Only what came after `last`, in order, none of it another seat's private command.
    numbered = [c.body.event for c in events if isinstance(c.body, wire.TableEvent)]
    assert numbered == sorted(numbered) and all(n > last for n in numbered)
    assert all(c.recipient in (f"table:{b.table}/all", b.party) for c in events)
    b.send(await _answer(b, cmd, rules), recipient=f"table:{b.table}", re=cmd.seq)
    end = await _play_to_end(b, rules)
    assert end.reason == "target"
    _check_log(server, a.table, _played(a, b))  # type: ignore[arg-type]
    await b.close()


async def test_a_log_that_no_longer_covers_it_gives_a_snapshot(server: NetworkEngine) -> None:
    a = await _solo(server, "dora")
    rules = rules_from_wire((await a.recv_until("game_start")).body.rules)
    turn = await a.recv_until("your_turn")
    server.tables[a.table].events.limit = 1  # type: ignore[index]
    a.send(await _answer(a, turn, rules), recipient=f"table:{a.table}", re=turn.seq)
    await a.recv_until("played")
    a.abort()
    b = await WireClient.connect(server.port)
    b.table, b.seat = a.table, a.seat
    await b.resume(a.token, 0)  # type: ignore[arg-type]
    assert (await b.recv()).name == "joined"
    snap = await b.recv()
    assert snap.name == "snapshot" and snap.recipient == b.party
    state = server.tables[a.table].master.state  # type: ignore[index, union-attr]
    assert snap.body.you is not None and snap.body.you.seat == a.seat
    assert sorted(snap.body.you.hand) == sorted(str(c) for c in _cards(state.hands[a.seat]))
    assert snap.body.public is not None and snap.body.public.hand_sizes == [h.bit_count() for h in state.hands]
    back = await b.recv_until("seat_back")  # numbered after the snapshot (PROTOCOL.md §7)
    assert snap.body.event + 1 == back.body.event == server.tables[a.table].events.last  # type: ignore[index]
    end = await _play_to_end(b, rules)
    assert end.reason == "target"
    await b.close()


def _cards(mask: int):
    from scopa.engine.cards import cards_in

    return cards_in(mask)


async def test_bad_token_is_refused(server: NetworkEngine) -> None:
    c = await WireClient.connect(server.port)
    reply = await c.resume("not-a-real-token-123", 0)
    assert reply.name == "error" and reply.body.code == "bad_token"
    # The connection may still say hello normally.
    assert (await c.hello("fresh")).name == "welcome"
    await c.close()


async def test_the_token_is_kept_only_as_a_digest_and_never_logged(
    server: NetworkEngine, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="scopa")
    a = await _solo(server, "eva")
    await a.recv_until("your_turn")
    a.abort()
    b = await WireClient.connect(server.port)
    await b.resume(a.token, a.last_event)  # type: ignore[arg-type]
    await b.recv_until("your_turn")
    seat = server.tables[a.table].seats[a.seat]  # type: ignore[index]
    assert seat is not None and seat.token_digest == hashlib.sha256(a.token.encode()).hexdigest()  # type: ignore[union-attr]
    assert not any(a.token in repr(getattr(seat, f.name)) for f in dataclasses.fields(seat))  # type: ignore[arg-type]
    assert a.token not in caplog.text  # type: ignore[operator]
    await b.close()


async def test_a_resume_while_the_old_connection_lingers_takes_the_seat(server: NetworkEngine) -> None:
    a = await _solo(server, "fay")
    rules = rules_from_wire((await a.recv_until("game_start")).body.rules)
    turn = await a.recv_until("your_turn")
    b = await WireClient.connect(server.port)  # the old connection is still open
    b.table, b.seat = a.table, a.seat
    await b.resume(a.token, a.last_event)  # type: ignore[arg-type]
    assert (await b.recv()).name == "joined"
    again = await b.recv_until("your_turn")
    assert again.body.event == turn.body.event
    assert (await a.recv_until("bye")).body.reason.startswith("your seat was resumed")
    b.send(await _answer(b, again, rules), recipient=f"table:{b.table}", re=again.seq)
    assert (await _play_to_end(b, rules)).reason == "target"
    await b.close()


async def _watcher(server: NetworkEngine, table: str) -> WireClient:
    s = await WireClient.connect(server.port, "watcher")
    s.send(wire.WatchTable(table=table))
    assert (await s.recv_until("snapshot")).body.table.id == table
    return s


async def _until_away(s: WireClient, away: list[int]) -> None:
    while (await s.recv_until("table_update")).body.table.away != away:
        pass


async def test_grace_expiry_a_bot_takes_the_seat_and_the_game_finishes(server: NetworkEngine, clock: FakeClock) -> None:
    a = await _solo(server, "gus")
    await a.recv_until("your_turn")
    s = await _watcher(server, a.table)  # type: ignore[arg-type]
    a.abort()
    await _until_away(s, [a.seat])  # type: ignore[list-item]
    clock.advance(59.0)
    assert server.tables[a.table].seats[a.seat].away  # type: ignore[index, union-attr]
    clock.advance(1.0)
    end = await s.recv_until("game_end")
    assert end.body.reason == "target" and end.body.winner is not None
    t = server.tables[a.table]  # type: ignore[index]
    assert t.seats[a.seat].bot is not None and t.state is wire.TableState.FINISHED  # type: ignore[index, union-attr]
    again = replay(t.rules, t.master.first_dealer, t.master.actions)  # type: ignore[union-attr]
    assert again.totals == t.master.state.totals  # type: ignore[union-attr]
    # The seat was held for its person: the token still opens it, to learn how the game ended.
    c = await WireClient.connect(server.port)
    assert (await c.resume(a.token, 0)).name == "welcome"  # type: ignore[arg-type]
    assert (await c.recv_until("game_end")).body == end.body
    assert (await c.recv_until("left")).body.reason == "game_over"
    await c.close()
    await s.close()


async def test_grace_expiry_without_bot_takeover_abandons_and_records(server: NetworkEngine, clock: FakeClock) -> None:
    a = await _solo(server, "hal", bot_takeover=False)
    await a.recv_until("your_turn")
    s = await _watcher(server, a.table)  # type: ignore[arg-type]
    a.abort()
    await _until_away(s, [a.seat])  # type: ignore[list-item]
    clock.advance(60.0)
    end = await s.recv_until("game_end")
    assert end.body.reason == "abandoned" and end.body.winner is None
    assert (await s.recv_until("left")).body.reason == "abandoned"
    t = server.tables[a.table]  # type: ignore[index]
    assert t.state is wire.TableState.FINISHED and t.events.end == end.body
    await s.close()


async def test_coming_back_in_time_cancels_the_grace_period(server: NetworkEngine, clock: FakeClock) -> None:
    a = await _solo(server, "ivo", bot_takeover=False)
    rules = rules_from_wire((await a.recv_until("game_start")).body.rules)
    await a.recv_until("your_turn")
    s = await _watcher(server, a.table)  # type: ignore[arg-type]
    a.abort()
    await _until_away(s, [a.seat])  # type: ignore[list-item]
    clock.advance(30.0)
    b = await WireClient.connect(server.port)
    b.table, b.seat = a.table, a.seat
    await b.resume(a.token, a.last_event)  # type: ignore[arg-type]
    turn = await b.recv_until("your_turn")
    await _until_away(s, [])
    clock.advance(3600.0)  # long past the grace period: nothing happens to the seat
    b.send(await _answer(b, turn, rules), recipient=f"table:{b.table}", re=turn.seq)
    assert (await _play_to_end(b, rules)).reason == "target"
    await b.close()
    await s.close()
