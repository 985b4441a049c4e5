"""No-leak wire tap: over many seeded 2-, 3-, 4- and 6-player games, no frame
the server sends to a connection carries a card of another seat's hand or of the stock,
another seat's token, or any table's seed.

The tap wraps ``ServerSession._queue_frame``, where every frame the server sends a client
passes: each is recorded as the bytes that go on the wire, together with the truth at the moment it was produced (the
hands and the stock of the recipient's table, read from the authoritative GameState).
The checker then decodes each frame and looks at every string and integer in it,
free text (error messages, chat) included.  A card the client itself named in the
command an ``error`` answers is not a leak (echoing a guess tells nothing).

Games mix server-side bots with remote bot clients that now and then send a card they
do not hold and play out of turn, so error frames are tapped too; every table has a
spectator (``watch_table``: a snapshot, then the public events), and at every third
table one seat's connection is cut mid-game and a new connection resumes the seat with
its token (``hello`` with ``resume``: the missed events or a snapshot).  A planted leak of
each kind (stock, another hand, seed, token) makes the checker fail.
"""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import CARDS, Card, GameState, Preset
from scopa.engine.cards import cards_in
from scopa.protocol import Message, Outgoing, decode
from scopa.protocol import commands as wire
from scopa.protocol.convert import action_to_wire, legal_from_wire, view_from_wire
from scopa.protocol.convert import rules_from_wire
from scopa.server import NetworkEngine
from scopa.server.conn import Refusal
from scopa.server.dispatch import Dispatcher
from scopa.server.table.broadcast import Broadcaster
from scopa.server.table.seats import Seat
from scopa.server.conn.session import ServerSession

from wire_client import WireClient

ALL_CARDS = [str(c) for c in CARDS]
CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])([A2-7FCR][dcsb])(?![A-Za-z0-9])")


@dataclass
class Frame:
    conn: int | None  # the server's connection id (None: a connection refused at once)
    frame: bytes
    hidden: frozenset[str]  # other hands and the stock at the recipient's table, now
    seeds: frozenset[int]


@dataclass
class WireTap:
    engine: NetworkEngine
    frames: list[Frame] = field(default_factory=list)
    said: dict[tuple[int, int], set[str]] = field(default_factory=dict)  # (conn, seq) -> cards it named
    seeds: set[int] = field(default_factory=set)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        tap = self
        queue_frame, receive = ServerSession._queue_frame, Dispatcher.receive

        def tapped_queue_frame(sess: ServerSession, frame: bytes) -> None:
            # Every frame the server sends to a client passes here, whatever built it.
            tap.record(sess, frame)
            queue_frame(sess, frame)

        def tapped_receive(router: Dispatcher, sess: ServerSession, command: Any) -> Refusal | None:
            # Every command the server accepted from a client passes here.
            tap.said[(sess.id, command.seq)] = set(_strings(command.body.model_dump(mode="json")))
            return receive(router, sess, command)

        monkeypatch.setattr(ServerSession, "_queue_frame", tapped_queue_frame)
        monkeypatch.setattr(Dispatcher, "receive", tapped_receive)

    def record(self, sess: ServerSession, frame: bytes) -> None:
        self.seeds.update(t.seed for t in self.engine.tables.values())
        hidden: set[str] = set()
        table = self.engine.table_of(sess) if sess is not None else None
        if table is None and sess is not None:  # a spectator: every hand is hidden from it
            table = next((t for t in self.engine.tables.values() if sess in t.broadcaster.spectators), None)
        if table is not None and table.master is not None:
            state = table.game_state()
            mine = table.seats.seat_of(sess)
            for seat, hand in enumerate(state.hands):
                if seat != mine:
                    hidden.update(str(c) for c in cards_in(hand))
            hidden.update(str(Card(c)) for c in state.stock)  # card ids, not Cards
        self.frames.append(Frame(sess.id if sess else None, frame, frozenset(hidden), frozenset(self.seeds)))

    def violations(self) -> list[str]:
        """Every leak found in the tapped frames (empty: none)."""
        found: list[str] = []
        tokens: dict[str, set[int | None]] = {}  # each seat token: the connections that hold it
        decoded = [(f, decode(f.frame)) for f in self.frames]
        for f, cmd in decoded:
            if isinstance(cmd.body, wire.Joined):
                tokens.setdefault(cmd.body.token, set()).add(f.conn)
        for (conn, _), said in self.said.items():  # a client resuming with a token holds it
            for token in tokens:
                if token in said:
                    tokens[token].add(conn)
        for f, cmd in decoded:
            where = f"frame {cmd.name} #{cmd.seq} to connection {f.conn}"
            echo = self.said.get((f.conn, cmd.re), set()) if f.conn is not None and cmd.re is not None else set()
            data = cmd.model_dump(mode="json")
            for text in _strings(data):
                for card in CARD_IN_TEXT.findall(text):
                    if card in f.hidden and card not in echo:
                        found.append(f"{where}: hidden card {card} in {text[:80]!r}")
                for seed in f.seeds:
                    if str(seed) in text:
                        found.append(f"{where}: a table seed in {text[:80]!r}")
            for number in _ints(data):
                if number in f.seeds:
                    found.append(f"{where}: a table seed {number}")
            for token, owners in tokens.items():
                if f.conn not in owners and token.encode() in f.frame:
                    found.append(f"{where}: the seat token of connection(s) {sorted(map(str, owners))}")
        return found


def _strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _ints(value: Any):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _ints(v)
    elif isinstance(value, list):
        for v in value:
            yield from _ints(v)


async def play_noisy(client: WireClient, player: Any, rng: random.Random, noise: float,
                     drop_after: int | None = None, rules: Any = None) -> wire.GameEnd | None:
    """Play a game like ``WireClient.play_game``, but now and then play a card not held
    or play out of turn (each answered by an error; the game goes on).

    A turn is answered once: a repeated ``your_turn`` (same event) only after an error
    about our own answer to it, as PROTOCOL.md §7.5 intends.  With ``drop_after`` the
    connection is cut (no bye) after that many answers, and None is returned."""
    answers = 0
    here = f"table:{client.table}"
    answered_event, answer_seq, retry = -1, -1, False
    hand: set[str] = set()
    while True:
        cmd = await client.recv()
        body = cmd.body
        if isinstance(body, wire.GameStart):
            rules = rules_from_wire(body.rules)
        elif isinstance(body, wire.HandDeal):
            hand = set(body.hand)
        elif isinstance(body, wire.Error) and cmd.re == answer_seq:
            retry = True
        elif isinstance(body, wire.YourTurn) and (body.event > answered_event or retry):
            assert rules is not None
            answered_event, retry, hand = body.event, False, set(body.view.hand)
            not_mine = [c for c in ALL_CARDS if c not in body.view.hand]
            if rng.random() < noise:  # a card from someone else's hand, the stock or nowhere
                answer_seq = client.send(wire.PlayCard(card=rng.choice(not_mine), capture=[]), recipient=here, re=cmd.seq)
                continue  # the error comes, then the same your_turn again
            action = await player.choose(view_from_wire(body.view, rules), legal_from_wire(body))
            answer_seq = client.send(action_to_wire(action), recipient=here, re=cmd.seq)
            answers += 1
            if drop_after is not None and answers >= drop_after:
                client.writer.transport.abort()
                return None
        elif isinstance(body, wire.CardPlayed) and body.seat != client.seat and rng.random() < noise:
            # Out of turn (or, if the turn has just come round, a card we do not hold).
            client.send(wire.PlayCard(card=rng.choice([c for c in ALL_CARDS if c not in hand]), capture=[]), recipient=here)
        elif isinstance(body, wire.Ping):  # a slow game on a busy machine: stay alive, as any client does
            client.send(wire.Pong(nonce=body.nonce), re=cmd.seq)
        elif isinstance(body, wire.GameEnd):
            return body


# (players, remote clients, server bots, options): every table size, people and bots mixed
TABLES = [
    (2, 2, 0, {}), (2, 1, 1, {}), (2, 2, 0, {"preset": "escoba"}),
    (3, 3, 0, {}), (3, 1, 2, {}), (3, 2, 1, {}),
    (4, 4, 0, {"preset": "scopone"}), (4, 2, 2, {}), (4, 1, 3, {"preset": "scopone-scientifico"}),
    (6, 6, 0, {}), (6, 3, 3, {}), (6, 2, 4, {}),
]


async def _run_table(port: int, index: int, players: int, remote: int, bots: int, options: dict[str, Any],
                     noise: float) -> list[wire.GameEnd]:
    rng = random.Random(index)
    clients = [await WireClient.connect(port, f"t{index}p{i}") for i in range(remote)]
    preset = options.get("preset")
    create = wire.CreateTable(preset=Preset(preset) if preset else None, options={} if preset else {"players": players},
                              fill_with_bots=[rng.choice(["random", "greedy"]) for _ in range(bots)])
    clients[0].send(create)
    table = (await clients[0].recv_until("table_created")).body.table.id
    clients[0].table, clients[0].seat = table, (await clients[0].recv_until("joined")).body.seat
    for c in clients[1:]:
        assert (await c.join(table)).name == "joined"
    spectator = await WireClient.connect(port, f"t{index}watch")
    spectator.send(wire.WatchTable(table=table))

    async def watch() -> wire.GameEnd:
        while (cmd := await spectator.recv_until("game_end", "ping")).name == "ping":
            spectator.send(wire.Pong(nonce=cmd.body.nonce), re=cmd.seq)
        return cmd.body

    async def seat(i: int, c: WireClient) -> wire.GameEnd:
        player = GreedyBot() if i % 2 else RandomBot(seed=index * 10 + i)
        rng = random.Random(index * 100 + i)
        if i != 1 or index % 3:
            end = await play_noisy(c, player, rng, noise)
            assert end is not None
            return end
        # This seat's connection dies mid-game; a new one resumes with the token.
        assert await play_noisy(c, player, rng, noise, drop_after=3) is None
        rules = rules_from_wire(next(x.body.rules for x in c.inbox if isinstance(x.body, wire.GameStart)))
        back = await WireClient.connect(port)
        back.table, back.seat = c.table, c.seat
        assert (await back.resume(c.token, c.last_event, name=f"t{index}p{i}")).name == "welcome"  # type: ignore[arg-type]
        clients.append(back)
        end = await play_noisy(back, player, rng, noise, rules=rules)
        assert end is not None
        return end

    ends = await asyncio.gather(*(seat(i, c) for i, c in enumerate(clients)), watch())
    for c in [*clients, spectator]:
        await c.close()
    return list(ends)


async def _tapped_games(monkeypatch: pytest.MonkeyPatch, tables: list, seed: int, noise: float = 0.1) -> WireTap:
    engine = NetworkEngine("127.0.0.1", 0, seed=seed)
    tap = WireTap(engine)
    tap.install(monkeypatch)
    await engine.start()
    try:
        results = await asyncio.gather(*(_run_table(engine.port, i, *t, noise=noise) for i, t in enumerate(tables)))
    finally:
        await engine.stop()
    for ends in results:
        assert all(e.reason in ("target", "trentino", "all_denari") for e in ends)
        assert all(e.totals == ends[0].totals for e in ends)
    return tap


@pytest.mark.parametrize("seed", [601, 602])
async def test_no_frame_leaks_a_hidden_card_a_token_or_a_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    tap = await _tapped_games(monkeypatch, TABLES, seed)
    assert tap.violations() == []
    # The tap saw what it had to see: deals, turns, errors to bad moves, every table size.
    names = {decode(f.frame).name for f in tap.frames}
    assert {"welcome", "joined", "deal", "your_turn", "played", "round_end", "game_end", "error"} <= names
    assert "snapshot" in names  # spectators joining mid-game (and resumed seats) get one
    tokens = _joined_tokens(tap)
    resumed = [k for k, said in tap.said.items() if tokens & said]
    assert len(resumed) >= 4  # a hello with a seat token per reconnecting seat
    codes = {decode(f.frame).body.code for f in tap.frames if decode(f.frame).name == "error"}
    assert {"card_not_in_hand", "not_your_turn"} <= codes
    assert sum(1 for f in tap.frames if f.hidden) > 1000  # frames produced mid-game, with secrets to keep


def _joined_tokens(tap: WireTap) -> set[str]:
    return {decode(f.frame).body.token for f in tap.frames if decode(f.frame).name == "joined"}


# --------------------------------------------------------------------------- planted leaks


def _plant(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """Make the server leak one kind of secret (the checker must catch it)."""
    send, ask_seat, send_all = ServerSession.send, Broadcaster.ask_seat, Broadcaster.send_all
    tokens: dict[str, str] = {}  # table id -> the first seat token handed out there

    def leaky_ask(out: Broadcaster, seat: Seat, payload: bytes) -> None:
        # The your_turn goes out as a body packed once: plant the leak in its data.
        state = _game_state(out)
        if kind == "hand" and state is not None:
            data = msgpack.unpackb(payload)
            other = (data["view"]["seat"] + 1) % len(state.hands)
            data["view"]["hand"] += [str(c) for c in cards_in(state.hands[other])][:1]
            payload = msgpack.packb(data)
        ask_seat(out, seat, payload)

    def leaky(sess: ServerSession, outgoing: Outgoing) -> None:
        if not isinstance(outgoing, Message):  # packed bodies: the event log's and a seat's deal
            send(sess, outgoing)
            return
        body = original = outgoing.body
        table = sess.host.seating.table_of(sess)  # type: ignore[attr-defined]
        state = table.game_state() if table is not None else None
        if kind == "stock" and isinstance(body, wire.RoundStart) and state is not None and state.stock:
            body = body.model_copy(update={"table": [*body.table, str(Card(state.stock[0]))]})
        elif kind == "seed" and isinstance(body, wire.TableCreated) and table is not None:
            body = body.model_copy(update={"table": body.table.model_copy(
                update={"description": f"{body.table.description} #{table.seed}"})})
        elif kind == "token" and isinstance(body, wire.Joined):
            tokens.setdefault(body.table, body.token)
        elif kind == "token" and isinstance(body, wire.TableUpdate) and body.table.id in tokens:
            body = body.model_copy(update={"table": body.table.model_copy(update={"description": tokens[body.table.id]})})
        if body is not original:
            outgoing = Message(body, outgoing.recipient, outgoing.sender, outgoing.re)
        send(sess, outgoing)

    def leaky_broadcast(out: Broadcaster, body: wire.Body, payload: bytes | None = None) -> None:
        state = _game_state(out)
        if kind == "stock" and isinstance(body, wire.RoundStart) and state is not None and state.stock:
            body = body.model_copy(update={"table": [*body.table, str(Card(state.stock[0]))]})
            payload = None  # a broadcast's body packed once is the unplanted one
        send_all(out, body, payload)

    monkeypatch.setattr(ServerSession, "send", leaky)
    monkeypatch.setattr(Broadcaster, "ask_seat", leaky_ask)
    monkeypatch.setattr(Broadcaster, "send_all", leaky_broadcast)


def _game_state(out: Broadcaster) -> GameState | None:
    """The game at the table that ``out`` sends for, as told so far (the table found
    through the server of one of its connections; none connected: nobody to leak to)."""
    for sess in out.watchers():
        table = sess.host.tables.get(out.table_id)  # type: ignore[attr-defined]
        return table.game_state() if table is not None else None
    return None


@pytest.mark.parametrize("kind", ["stock", "hand", "seed", "token"])
async def test_a_planted_leak_is_caught(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    _plant(monkeypatch, kind)
    tap = await _tapped_games(monkeypatch, [(2, 2, 0, {}), (4, 2, 2, {})], seed=603, noise=0.0)
    found = tap.violations()
    assert found, f"the planted {kind} leak was not caught"
    expected = {"stock": "hidden card", "hand": "hidden card", "seed": "seed", "token": "seat token"}[kind]
    assert all(expected in v for v in found), found[:5]
