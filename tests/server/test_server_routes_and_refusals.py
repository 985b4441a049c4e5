"""Protocol version 2 on a real server: no well-behaved client is punished, refusals
always come with the same your_turn, table changes are announced (coalesced), every
public fact is on the wire, and who sends what follows ``scopa.protocol.ROUTES``."""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack
from rich.console import Console

from scopa.bots import GreedyBot, RandomBot, make_bot
from scopa.engine import (
    CARDS, Event, LocalGame, Play, Played, Player, RoundEnded, RoundStarted, RuleSet, View, cards_in,
)  # fmt: skip
from scopa.engine.actions import Declare
from scopa.client.game import GameResult
from scopa.client.game import SeatCameBack, SeatTakenByBot, SeatWentAway
from scopa.client.text import DeckStyle, event_line
from scopa.client.net import ClientSession
from scopa.protocol import ROUTES, commands as wire, encode, make_command, route_allowed
from scopa.protocol.convert import rules_to_wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

from test_server_games import seeded_server
from wire_client import TIMEOUT, WireClient

FRAC = RuleSet.build("frac")  # R22 target 11 with 16 points a round: games of about two rounds


server = seeded_server(2024)


# --------------------------------------------------------------------------- a raw-socket client


class RawClient:
    """A client written from PROTOCOL.md with asyncio streams and msgpack only: it
    answers every your_turn the moment it arrives with the first legal move."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.me, self.seq = "guest", 0
        self.errors: list[dict[str, Any]] = []
        self.games = 0

    @classmethod
    async def connect(cls, port: int, name: str) -> RawClient:
        client = cls(*await asyncio.open_connection("127.0.0.1", port))
        client.send("hello", {"name": name, "client": "raw test client"}, "lobby")
        welcome = await client.receive()
        assert welcome["name"] == "welcome", welcome
        client.me = welcome["body"]["you"]
        return client

    def send(self, name: str, body: dict[str, Any], recipient: str, re: int | None = None) -> int:
        self.seq += 1
        payload = msgpack.packb({"v": 2, "seq": self.seq, "sender": self.me, "recipient": recipient,
                                 "re": re, "name": name, "body": body})
        self.writer.write(struct.pack(">I", len(payload)) + payload)
        return self.seq

    async def receive(self) -> dict[str, Any]:
        (size,) = struct.unpack(">I", await self.reader.readexactly(4))
        return msgpack.unpackb(await self.reader.readexactly(size), raw=False)

    async def join_and_play(self, table: str) -> None:
        """Join ``table`` and play until the server sends us back to the lobby."""
        self.send("join_table", {"table": table}, "lobby")
        while True:
            cmd = await asyncio.wait_for(self.receive(), TIMEOUT)
            name, body = cmd["name"], cmd["body"]
            if name == "your_turn":
                move = body["legal"][0]
                self.send("play", {"card": move["card"], "capture": move["capture"], "turn": body["event"]},
                          cmd["sender"], re=cmd["seq"])
            elif name == "ping":
                self.send("pong", {"nonce": body["nonce"]}, cmd["sender"], re=cmd["seq"])
            elif name == "error":
                self.errors.append(body)
                assert not body["fatal"], body
            elif name == "left":
                self.games += 1
                return

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def test_fifty_games_in_a_row_at_full_speed_are_never_rate_limited(server: NetworkEngine) -> None:
    """Two clients (one of them raw-socket) answer every your_turn at once, 50 games in a
    row with no pause, under the server's default limits: never ``rate_limited``."""
    assert server.limits.commands_per_second is not None  # the default token bucket is on
    py = await ClientSession.connect("127.0.0.1", server.port, "quick")
    raw = await RawClient.connect(server.port, "raw")
    results: list[GameResult] = []
    for n in range(50):
        table = await py.create_table(FRAC)
        result, _ = await asyncio.gather(py.play_game(RandomBot(seed=n)), raw.join_and_play(table.id))
        results.append(result)
    assert raw.games == 50 and raw.errors == []
    assert all(r.reason == "target" and r.rejected == 0 for r in results)
    assert [t.state for t in await py.list_tables()][-1] == wire.TableState.FINISHED
    await py.close()
    await raw.close()


# --------------------------------------------------------------------------- refused answers


def _map(pairs: list[tuple[str, Any]], packer: msgpack.Packer) -> bytes:
    """A msgpack map written pair by pair (so a key may appear twice)."""
    return packer.pack_map_header(len(pairs)) + b"".join(packer.pack(k) + v for k, v in pairs)


def _play_frame(client: WireClient, seq: int, body_pairs: list[tuple[str, Any]], re: int) -> bytes:
    packer = msgpack.Packer()
    body = _map([(k, packer.pack(v)) for k, v in body_pairs], packer)
    envelope = [("v", packer.pack(2)), ("seq", packer.pack(seq)), ("sender", packer.pack(client.party)),
                ("recipient", packer.pack(f"table:{client.table}")), ("re", packer.pack(re)),
                ("name", packer.pack("play")), ("body", body)]
    payload = _map(envelope, packer)
    return struct.pack(">I", len(payload)) + payload


async def test_undecodable_answers_get_bad_body_then_the_same_your_turn_and_the_third_is_played_for_you(
    server: NetworkEngine,
) -> None:
    """A play that fails decoding (a card twice in capture, a key twice in the body, a
    missing field) is refused with bad_body from the table, then the same your_turn; the
    third refused answer of the turn makes the game master play (forced: refused)."""
    c = await WireClient.connect(server.port, "ned")
    await c.create(bots=["greedy"])
    turn = await c.recv_until("your_turn")
    move = turn.body.legal[0]
    card = move.card
    master = server.tables[c.table].master
    assert master is not None
    default = master.default_play()  # what the game master plays after the third refusal
    bad = [
        [("card", card), ("capture", ["2c", "2c"])],  # a card twice: not "2c" once
        [("card", card), ("capture", []), ("capture", list(move.capture))],  # a key twice
        [("capture", [])],  # no card
    ]
    for n, pairs in enumerate(bad, 1):
        seq = 800 + n
        c.send_raw(_play_frame(c, seq, pairs, turn.seq))
        err = await c.recv_until("error")
        assert (err.re, err.body.code, err.sender) == (seq, "bad_body", f"table:{c.table}")
        after = await c.recv_until("your_turn", "played")
        if n < 3:
            assert after.name == "your_turn"  # the same turn again, with the time left now (§7)
            left, first = after.body.turn_left_ms, turn.body.turn_left_ms
            assert left is not None and first is not None and left <= first
            assert after.body.model_copy(update={"turn_left_ms": first}) == turn.body
        else:
            assert after.name == "played" and after.body.forced == "refused"
            assert (after.body.seat, after.body.card, sorted(after.body.captured)) == (
                c.seat, str(CARDS[default.card]), sorted(str(CARDS[x]) for x in cards_in(default.capture)))
    await c.close()


async def test_duplicate_envelope_key_is_bad_envelope_and_repeated_seq_is_run_again(server: NetworkEngine) -> None:
    c = await WireClient.connect(server.port, "olga")
    packer = msgpack.Packer()
    pairs = [("v", packer.pack(2)), ("seq", packer.pack(7)), ("sender", packer.pack(c.party)),
             ("recipient", packer.pack("lobby")), ("name", packer.pack("ping")), ("name", packer.pack("ping")),
             ("body", packer.pack({"nonce": 1}))]
    payload = _map(pairs, packer)
    c.send_raw(struct.pack(">I", len(payload)) + payload)
    err = await c.recv_until("error")
    assert (err.re, err.body.code) == (7, "bad_envelope")
    # seq is not checked beyond its type: the same seq twice is run twice (§2).
    for nonce in (5, 6):
        c.send_raw(encode(make_command(wire.Ping(nonce=nonce), seq=40, sender=c.party, recipient="lobby")))
    pongs = [await c.recv_until("pong") for _ in range(2)]
    assert [(p.re, p.body.nonce) for p in pongs] == [(40, 5), (40, 6)]
    await c.close()


# --------------------------------------------------------------------------- table updates


async def _updates_until(c: WireClient, *names: str) -> tuple[list[wire.TableInfo], Any]:
    seen: list[wire.TableInfo] = []
    while True:
        cmd = await c.recv()
        if isinstance(cmd.body, wire.TableUpdate):
            seen.append(cmd.body.table)
        elif cmd.name in names:
            return seen, cmd


async def test_table_update_when_a_game_starts_and_ends_coalesced_per_turn(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "pat")
    b = await WireClient.connect(server.port, "quin")
    a.send(wire.CreateTable(rules=rules_to_wire(FRAC)))
    table = (await a.recv_until("table_created")).body.table.id
    a.table, a.seat = table, (await a.recv_until("joined")).body.seat
    a.send(wire.Ping(nonce=1))
    updates, _ = await _updates_until(a, "pong")
    assert [(u.seats, u.state) for u in updates] == [(["pat", None], "waiting")]
    await b.join(table)  # the last seat: seat taken and game started in one turn, one update
    updates, start = await _updates_until(a, "game_start")
    assert [(u.seats, u.state) for u in updates] == [(["pat", "quin"], "playing")]
    await asyncio.gather(a.play_game(RandomBot(seed=1)), b.play_game(RandomBot(seed=2)))
    updates, left = await _updates_until(a, "left")
    assert [u.state for u in updates] == ["finished"] and left.sender == "lobby"
    await a.close()
    await b.close()


async def test_lobby_watchers_hear_of_every_table_change(server: NetworkEngine) -> None:
    w = await WireClient.connect(server.port, "watcher")
    w.send(wire.WatchLobby())
    assert (await w.recv_until("tables")).body.tables == []
    a = await WireClient.connect(server.port, "rosa")
    b = await WireClient.connect(server.port, "sam")
    a.send(wire.CreateTable(rules=rules_to_wire(FRAC)))
    table = (await a.recv_until("table_created")).body.table.id
    a.table, a.seat = table, (await a.recv_until("joined")).body.seat
    update = await w.recv_until("table_update")
    assert (update.sender, update.body.table.seats, update.body.table.state) == ("lobby", ["rosa", None], "waiting")
    await b.join(table)
    update = await w.recv_until("table_update")
    assert (update.body.table.seats, update.body.table.state) == (["rosa", "sam"], "playing")
    await asyncio.gather(a.play_game(RandomBot(seed=3)), b.play_game(RandomBot(seed=4)))
    assert (await w.recv_until("table_update")).body.table.state == "finished"
    # A table that closes (its only person leaves before the game) is announced as closed.
    a.send(wire.CreateTable(fill_with_bots=["random"], rules=rules_to_wire(RuleSet.build("scopa", players=3))))
    other = (await a.recv_until("table_created")).body.table.id
    await a.recv_until("joined")
    update = await w.recv_until("table_update")
    assert (update.body.table.id, update.body.table.state) == (other, "waiting")
    a.send(wire.LeaveTable(table=other))
    await a.recv_until("left")
    update = await w.recv_until("table_update")
    assert (update.body.table.id, update.body.table.state) == (other, "closed")
    # After unwatch_lobby nothing more comes: a new table is not announced before the pong.
    w.send(wire.UnwatchLobby())
    await w.recv_until("tables")
    a.send(wire.CreateTable(rules=rules_to_wire(FRAC)))
    await a.recv_until("joined")
    b.send(wire.Ping(nonce=1))
    await b.recv_until("pong")  # the lobby has handled the creation by now
    w.send(wire.Ping(nonce=2))
    mark = len(w.inbox)
    await w.recv_until("pong")
    assert [c.name for c in w.inbox[mark:]] == ["pong"]
    for c in (w, a, b):
        await c.close()


# --------------------------------------------------------------------------- seats away and back


async def test_seat_away_back_and_replaced_reach_every_seat_spectator_and_the_client_session() -> None:
    clock = FakeClock()
    server = NetworkEngine("127.0.0.1", 0, seed=77, grace=60.0, clock=clock)
    await server.start()
    try:
        a = await WireClient.connect(server.port, "tess")
        a.send(wire.CreateTable(rules=rules_to_wire(FRAC)))
        table = (await a.recv_until("table_created")).body.table.id
        a.table, a.seat = table, (await a.recv_until("joined")).body.seat
        b = await ClientSession.connect("127.0.0.1", server.port, "ugo")
        await b.join_table(table)
        s = await WireClient.connect(server.port, "vera")
        s.send(wire.WatchTable(table=table))
        await s.recv_until("snapshot")
        shown: list[object] = []
        game = asyncio.create_task(b.play_game(GreedyBot(), on_notice=shown.append))
        await a.recv_until("your_turn", "deal")
        a.abort()
        away = await s.recv_until("seat_away")
        assert (away.sender, away.recipient) == (f"table:{table}", f"table:{table}/all")
        assert (away.body.seat, away.body.name, away.body.grace_seconds) == (a.seat, "tess", 60.0)
        back = await WireClient.connect(server.port)
        assert (await back.resume(a.token, a.last_event)).name == "welcome"  # type: ignore[arg-type]
        seat_back = (await s.recv_until("seat_back")).body
        assert seat_back.turn_left_ms is not None  # the waiting turn's clock (the table's 60 s), for the returning seat
        assert seat_back == wire.SeatBack(event=seat_back.event, seat=a.seat, name="tess",
                                          turn_left_ms=seat_back.turn_left_ms)
        assert away.body.event is not None and seat_back.event is not None and seat_back.event > away.body.event
        clock.advance(Limits().resume_window)  # a seat is told away and back at most once per window
        ping = await s.recv_until("ping")  # the spectator was silent meanwhile: it answers the server's ping
        s.send(wire.Pong(nonce=ping.body.nonce), re=ping.seq)
        back.abort()
        await s.recv_until("seat_away")
        clock.advance(60.0)
        replaced = await s.recv_until("seat_replaced")
        assert replaced.body == wire.SeatReplaced(event=replaced.body.event, seat=a.seat, name="tess",
                                                  strategy="greedy")
        assert replaced.body.event is not None and replaced.body.event > seat_back.event
        result = await asyncio.wait_for(game, TIMEOUT)
        expected = [SeatWentAway(a.seat, "tess", 60.0), SeatCameBack(a.seat, "tess"),
                    SeatWentAway(a.seat, "tess", 60.0), SeatTakenByBot(a.seat, "tess", "greedy")]
        assert result.notices == expected and shown == expected
        await s.close()
        await b.close()
    finally:
        await server.stop()


# --------------------------------------------------------------------------- chat, deals, routes


async def test_spectators_get_table_chat_but_only_seats_send_it(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "wim")
    a.send(wire.CreateTable(rules=rules_to_wire(RuleSet.build("scopa", players=3)), fill_with_bots=["greedy"]))
    table = (await a.recv_until("table_created")).body.table.id
    await a.recv_until("joined")
    s = await WireClient.connect(server.port, "xia")
    s.send(wire.WatchTable(table=table))
    await s.recv_until("snapshot")
    a.send(wire.Chat(text="ciao"), recipient=f"table:{table}")
    said = await s.recv_until("chat_message")
    assert (said.sender, said.recipient, said.body.author, said.body.text) == (
        f"table:{table}", f"table:{table}/all", "player:wim", "ciao")
    seq = s.send(wire.Chat(text="hello"), recipient=f"table:{table}")
    err = await s.recv_until("error")
    assert (err.re, err.body.code, err.sender) == (seq, "not_at_table", f"table:{table}")
    await a.close()
    await s.close()


async def test_each_seat_deal_has_its_own_event_number(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "yan")
    b = await WireClient.connect(server.port, "zoe")
    table = await a.create()
    await b.join(table)
    deals = [(await c.recv_until("deal")).body.event for c in (a, b)]
    assert deals[0] != deals[1]
    await a.close()
    await b.close()


async def test_errors_and_replies_come_from_the_party_the_command_was_sent_to(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "abe")
    seq = a.send(wire.JoinTable(table="404"))
    err = await a.recv_until("error")
    assert (err.re, err.body.code, err.sender) == (seq, "no_such_table", "lobby")
    seq = a.send(wire.PlayCard(card="7d"), recipient="table:404")
    err = await a.recv_until("error")
    assert (err.re, err.body.code, err.sender) == (seq, "not_at_table", "table:404")
    raw = make_command(wire.PlayCard(card="7d"), seq=77, sender=a.party, recipient="lobby")
    a.send_raw(encode(raw))
    err = await a.recv_until("error")
    assert (err.re, err.body.code, err.sender) == (77, "unexpected_command", "lobby")
    a.send(wire.Ping(nonce=3), recipient="table:404")
    pong = await a.recv_until("pong")
    assert pong.sender == "table:404"
    table = await a.create(bots=["greedy"])
    joined = next(c for c in a.inbox if c.name == "joined")
    assert joined.sender == "lobby"
    a.send(wire.LeaveTable(table=table))
    left = await a.recv_until("left")
    assert left.sender == "lobby"
    await a.close()


async def test_a_recorded_session_follows_the_routes_table(server: NetworkEngine) -> None:
    """Every command of a session (lobby, a game with a spectator and a lobby watcher,
    chat, refusals, pings) travels a route listed in ROUTES (PROTOCOL.md §3)."""
    w = await WireClient.connect(server.port, "lw")
    w.send(wire.WatchLobby())
    a = await WireClient.connect(server.port, "ann")
    b = await WireClient.connect(server.port, "ben")
    a.send(wire.CreateTable(rules=rules_to_wire(FRAC)))
    table = (await a.recv_until("table_created")).body.table.id
    a.table, a.seat = table, (await a.recv_until("joined")).body.seat
    s = await WireClient.connect(server.port, "spy")
    s.send(wire.WatchTable(table=table))
    await s.recv_until("snapshot")
    await b.join(table)
    a.send(wire.Chat(text="buon gioco"), recipient=f"table:{table}")
    b.send(wire.Chat(text="ciao a tutti"))
    seq = a.send(wire.PlayCard(card="7d", capture=["7d"]), recipient=f"table:{table}")
    a.send(wire.ListTables())
    a.send(wire.Ping(nonce=9))
    await asyncio.gather(a.play_game(GreedyBot()), b.play_game(RandomBot(seed=5)))
    await s.recv_until("left")
    for c in (a, b):
        await c.recv_until("left")
    w.send(wire.Ping(nonce=1))
    await w.recv_until("pong")
    sent = {c.name for c in a.inbox + b.inbox + s.inbox + w.inbox}
    assert {"welcome", "tables", "table_created", "joined", "left", "table_update", "snapshot", "game_start",
            "round_start", "deal", "your_turn", "played", "round_end", "game_end", "chat_message", "error",
            "pong"} <= sent
    assert any(c.re == seq and c.name == "error" for c in a.inbox)
    for c in a.inbox + b.inbox + s.inbox + w.inbox:
        assert route_allowed(c.name, c.sender, c.recipient), (c.name, c.sender, c.recipient)
    assert set(ROUTES) == set(wire.BODY_BY_NAME)
    for c in (w, a, b, s):
        await c.close()


# --------------------------------------------------------------------------- public facts


class Recorder(Player):
    """GreedyBot's moves; keeps every view it was shown and every event it was told."""

    def __init__(self) -> None:
        self.bot = GreedyBot()
        self.name = "rec"
        self.seen: list[tuple[View, list[Event]]] = []
        self.events: list[Event] = []

    async def choose(self, view: View, legal: list[Play | Declare]) -> Play | Declare:  # type: ignore[override]
        self.seen.append((view, list(self.events)))
        return await self.bot.choose(view, legal)

    async def notify(self, event: Event) -> None:
        self.events.append(event)


def _render(event: Event, names: tuple[str, ...]) -> str:
    console = Console(record=True, width=120, color_system=None)
    console.print(event_line(event, names, DeckStyle.ITALIAN))
    return console.export_text()


async def test_network_round_breakdown_equals_the_local_one_and_views_carry_public_facts(
    server: NetworkEngine,
) -> None:
    """The same seeded game, over TCP and in-process: every round_end the network client
    shows (primiera sums included) is the local one; and each view sent in a your_turn
    holds the round's plays in order, the last capturer and each side's pile counts."""
    session = await ClientSession.connect("127.0.0.1", server.port, "local")
    rules = RuleSet.build("scopa")
    info = await session.create_table(rules, fill_with_bots=["greedy"])
    seed = server.tables[info.id].seed
    me = Recorder()
    result = await session.play_game(me)
    await session.close()
    names = result.names
    local: list[Event] = []

    async def observe(event: Event) -> None:
        local.append(event)

    master = LocalGame(rules, [GreedyBot(), make_bot("greedy")], seed)  # seat 1: the server's "greedy"
    master.observers.append(observe)
    await master.run()
    net_rounds = [e for e in result.events if isinstance(e, RoundEnded)]
    local_rounds = [e for e in local if isinstance(e, RoundEnded)]
    assert net_rounds and [e.score for e in net_rounds] == [e.score for e in local_rounds]
    assert [_render(e, names) for e in net_rounds] == [_render(e, names) for e in local_rounds]
    assert any(all(p for p in e.score.primiera) for e in net_rounds)  # sums are on the wire
    for view, told in me.seen:
        since = max(i for i, e in enumerate(told) if isinstance(e, RoundStarted))
        plays = [e for e in told[since:] if isinstance(e, Played)]
        assert [(p.seat, p.card, p.captured) for p in view.round_plays] == [(e.seat, e.card, e.captured) for e in plays]
        capturers = [rules.side_of(e.seat) for e in plays if e.captured]
        assert view.last_capture_side == (capturers[-1] if capturers else None)
        assert [p.cards for p in view.piles] == [len(c) for c in view.captured]
        assert [p.scope for p in view.piles] == list(view.scope)
        assert [p.settebello for p in view.piles] == [any(str(c) == "7d" for c in pile) for pile in view.captured]


async def test_only_real_answers_skip_the_rate_limit() -> None:
    """With the token bucket empty: a pong nobody asked for and a play for a turn that is
    over are charged (rate_limited); the answer to the pending your_turn is not."""

    limits = Limits(commands_per_second=1.0, command_burst=3, max_refused_commands=50)
    engine = NetworkEngine("127.0.0.1", 0, seed=5, limits=limits, clock=FakeClock())  # frozen: no token comes back
    await engine.start()
    try:
        c = await WireClient.connect(engine.port, "pia")  # token 1
        c.send(wire.CreateTable(rules=rules_to_wire(FRAC), fill_with_bots=["greedy"]))  # token 2
        c.table = (await c.recv_until("table_created")).body.table.id
        turn = await c.recv_until("your_turn")
        c.send(wire.Ping(nonce=1))  # token 3: empty now
        await c.recv_until("pong")
        here = f"table:{c.table}"
        for body in (wire.Pong(nonce=5), wire.PlayCard(card=turn.body.legal[0].card, turn=turn.body.event - 1)):
            seq = c.send(body, recipient="lobby" if isinstance(body, wire.Pong) else here)
            err = await c.recv_until("error")
            assert (err.re, err.body.code) == (seq, "rate_limited")
        move = turn.body.legal[0]
        c.send(wire.PlayCard(card=move.card, capture=move.capture, turn=turn.body.event), recipient=here, re=turn.seq)
        played = await c.recv_until("played", "error")
        assert played.name == "played" and played.body.card == move.card
        await c.close()
    finally:
        await engine.stop()
