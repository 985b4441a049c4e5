"""Protocol version 2, sans-I/O: the version, what a client ignores and the server
refuses, the new refusals (a card twice in a capture, a key twice in a map), the
routes table, and the public facts of a view and a round end both ways."""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack
import pytest
from pydantic import ValidationError

from scopa.engine import LocalGame, RoundEnded, RuleSet, view
from scopa.engine.cards import Card
from scopa.bots import GreedyBot, RandomBot
from scopa.protocol import (
    Message,
    PROTOCOL_VERSION,
    ROUTES,
    BadBody,
    BadEnvelope,
    Connection,
    ConnectionRole,
    ErrorCode,
    PartyKind,
    PlayCard,
    ProtocolError,
    Route,
    UnexpectedCommand,
    UnknownCommand,
    commands as wire,
    decode,
    encode,
    example_commands,
    make_command,
    route_allowed,
    unpack_command,
)
from scopa.protocol.convert import event_to_wire, score_from_wire, round_tallies, view_from_wire, view_to_wire
from scopa.protocol.envelope import ENVELOPE_KEYS

from conftest import drive


def _payload(obj: dict[str, Any]) -> bytes:
    return msgpack.packb(obj)


def _frame(obj: dict[str, Any]) -> bytes:
    payload = _payload(obj)
    return struct.pack(">I", len(payload)) + payload


def _wire_map(name: str) -> dict[str, Any]:
    return example_commands()[name].model_dump(mode="json")


def test_the_version_is_2_and_every_example_says_so() -> None:
    assert PROTOCOL_VERSION == 2
    assert {c.v for c in example_commands().values()} == {2}
    assert example_commands()["welcome"].body.protocol == 2  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- lenient clients


def _with_unknowns(name: str) -> dict[str, Any]:
    """The example of ``name`` as a newer server might send it: extra keys everywhere."""
    obj = _wire_map(name)
    obj["trace_id"] = "abc"
    obj["body"]["mood"] = "sunny"
    return obj


@pytest.mark.parametrize("name", ["your_turn", "snapshot", "round_end", "tables", "welcome", "seat_away"])
def test_a_client_ignores_unknown_keys_the_server_refuses_them(name: str) -> None:
    obj = _with_unknowns(name)
    if name == "your_turn":
        obj["body"]["view"]["weather"] = 1
        obj["body"]["view"]["piles"][0]["gold"] = 3
        obj["body"]["legal"][0]["hint"] = "good"
    if name == "tables":
        obj["body"]["tables"][0]["colour"] = "green"
        obj["body"]["tables"][0]["rules"]["future_option"] = True
    expected = example_commands()[name]
    assert unpack_command(_payload(obj), lenient=True) == expected
    with pytest.raises((BadBody, BadEnvelope)):
        unpack_command(_payload(obj))


def test_a_client_connection_skips_unknown_command_names_a_server_connection_refuses_them() -> None:
    future = {"v": 2, "seq": 3, "sender": "lobby", "recipient": "player:ada", "re": None,
              "name": "fireworks", "body": {"colour": "red"}}
    ping = _wire_map("ping") | {"sender": "lobby", "recipient": "player:ada", "seq": 4}
    client = Connection(ConnectionRole.CLIENT)
    client.feed(_frame(future) + _frame(ping))
    got = client.next_command()
    assert got is not None and got.name == "ping" and client.next_command() is None
    server = Connection(ConnectionRole.SERVER)
    server.feed(_frame(future | {"sender": "guest", "recipient": "lobby"}))
    with pytest.raises(UnknownCommand):
        server.next_command()


async def test_a_client_session_talks_to_a_server_that_adds_keys_and_commands() -> None:
    """A newer server: extra envelope and body keys, and a command this client does not
    know, before the welcome and before the tables."""
    from scopa.client.net import ClientSession

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        async def receive() -> dict[str, Any]:
            (size,) = struct.unpack(">I", await reader.readexactly(4))
            return msgpack.unpackb(await reader.readexactly(size))

        hello = await receive()
        me = "player:" + hello["body"]["name"]
        writer.write(_frame({"v": 2, "seq": 1, "sender": "lobby", "recipient": me, "re": None, "name": "news",
                             "body": {"text": "new!"}}))
        welcome = {"v": 2, "seq": 2, "sender": "lobby", "recipient": me, "re": hello["seq"], "name": "welcome",
                   "body": {"you": me, "server": "future", "protocol": 2, "motd": "", "features": ["x"]},
                   "priority": 1}
        writer.write(_frame(welcome))
        ask = await receive()
        tables = _with_unknowns("tables") | {"seq": 3, "recipient": me, "re": ask["seq"]}
        tables["body"]["tables"][0]["colour"] = "green"
        writer.write(_frame(tables))
        await receive()  # bye
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server, asyncio.timeout(10):
        session = await ClientSession.connect("127.0.0.1", port, "ada")
        assert session.server == "future"
        listed = await session.list_tables()
        assert listed == example_commands()["tables"].body.tables  # type: ignore[attr-defined]
        await session.close()


# --------------------------------------------------------------------------- strict servers


def test_a_card_twice_in_a_capture_is_bad_body() -> None:
    obj = _wire_map("play")
    obj["body"]["capture"] = ["2c", "2c"]
    with pytest.raises(BadBody) as info:
        unpack_command(_payload(obj))
    assert info.value.name == "play" and info.value.seq == obj["seq"] and info.value.recipient == "table:7"
    with pytest.raises(ValidationError):
        PlayCard(card="4s", capture=["2c", "2c"])


def _packed_map(pairs: list[tuple[str, bytes]]) -> bytes:
    packer = msgpack.Packer()
    return packer.pack_map_header(len(pairs)) + b"".join(packer.pack(k) + v for k, v in pairs)


@pytest.mark.parametrize("where", ["envelope", "body", "nested"])
def test_a_key_twice_in_a_map_is_refused(where: str) -> None:
    p = msgpack.packb
    body = [("card", p("7d")), ("capture", p(["4s", "3b"]))]
    if where == "body":
        body.append(("card", p("7d")))
    packed_body = _packed_map(body)
    if where == "nested":
        rules = _packed_map([("players", p(2)), ("players", p(2))])
        packed_body = _packed_map([("preset", p(None)), ("rules", rules)])
    envelope = [("v", p(2)), ("seq", p(6)), ("sender", p("player:ada")), ("recipient", p("table:7")),
                ("name", p("create_table" if where == "nested" else "play")), ("body", packed_body)]
    if where == "envelope":
        envelope.insert(2, ("seq", p(6)))
    with pytest.raises(BadEnvelope if where == "envelope" else BadBody) as info:
        unpack_command(_packed_map(envelope))
    assert "twice" in info.value.message and info.value.seq == 6


def test_an_integer_is_accepted_where_a_float_is_expected_but_not_the_reverse() -> None:
    obj = _wire_map("create_table")
    obj["body"]["turn_timeout"] = 30
    assert unpack_command(_payload(obj)).body.turn_timeout == 30.0  # type: ignore[attr-defined]
    obj = _wire_map("play")
    obj["body"]["turn"] = 4.0
    with pytest.raises(BadBody):
        unpack_command(_payload(obj))


def test_commands_travel_only_their_routes() -> None:
    assert set(ROUTES) == set(wire.BODY_BY_NAME)
    for command in example_commands().values():
        assert route_allowed(command.name, command.sender, command.recipient), command
    assert ROUTES["joined"] == {Route(PartyKind.LOBBY, PartyKind.PLAYER)}
    assert ROUTES["left"] == {Route(PartyKind.LOBBY, PartyKind.PLAYER)}
    server = Connection(ConnectionRole.SERVER)
    server.feed(_frame(_wire_map("hello")))
    server.next_command()
    server.send(Message(wire.Welcome(you="player:ada", server="s", protocol=2), recipient="player:ada", re=1))
    misrouted = _wire_map("play") | {"recipient": "lobby"}
    server.feed(_frame(misrouted))
    with pytest.raises(UnexpectedCommand) as info:
        server.next_command()
    assert info.value.code is ErrorCode.UNEXPECTED_COMMAND and info.value.seq == misrouted["seq"]
    with pytest.raises(ProtocolError):  # and the server never sends one the wrong way
        server.send(Message(wire.Joined(table="7", seat=0, side=0, token="abcdefgh12"), recipient="player:ada",
                         sender="table:7"))


# --------------------------------------------------------------------------- public facts


def test_a_view_carries_the_round_plays_last_capturer_and_piles_both_ways() -> None:
    """R19, R20: what every player at a real table knows travels in the view."""
    rules = RuleSet.build("scopa")
    checked = [0]

    def hook(state: Any, action: Any) -> None:
        if state.phase.value != "play" or not state.round_plays:
            return
        engine_view = view(state, state.to_move)
        back = view_from_wire(view_to_wire(engine_view), rules)
        assert back.round_plays == engine_view.round_plays
        assert back.last_capture_side == engine_view.last_capture_side
        assert back.piles == engine_view.piles
        assert back.hand == engine_view.hand and back.captured == engine_view.captured
        checked[0] += 1

    drive(rules, seed=11, kinds=("greedy", "random"), hook=hook)
    assert checked[0] > 30


async def test_round_end_tallies_give_back_the_engine_round_score() -> None:
    """R21: the raw numbers of a round (primiera sums included) are on the wire, so a
    client rebuilds exactly the engine's RoundScore."""
    rules = RuleSet.build("scopa", napola=True, re_bello=True)
    master = LocalGame(rules, [GreedyBot(), RandomBot(seed=3)], seed=8)
    pairs: list[tuple[RoundEnded, wire.RoundEnd]] = []

    async def observe(event: Any) -> None:
        if isinstance(event, RoundEnded):
            body = event_to_wire(event, 1, seats=[], stock=0, tallies=round_tallies(event))
            pairs.append((event, body))  # type: ignore[arg-type]

    master.observers.append(observe)
    await master.run()
    assert pairs
    for event, body in pairs:
        assert score_from_wire(body) == event.score
        assert [t.cards for t in body.tallies] == list(event.score.cards)
        assert sum(t.cards for t in body.tallies) == 40
        for t in body.tallies:  # R3/R21: each side's best card of every suit, adding up to its sum
            assert len({c[1] for c in t.primiera_cards}) == len(t.primiera_cards)
            assert t.primiera == (sum(Card.parse(c).primiera for c in t.primiera_cards) if len(t.primiera_cards) == 4 else 0)
        frame = encode(make_command(body, seq=1, sender="table:1", recipient="table:1/all"))
        assert decode(frame, lenient=True).body == body


def test_envelope_keys_are_the_seven_documented() -> None:
    assert ENVELOPE_KEYS == {"v", "seq", "sender", "recipient", "re", "name", "body"}
