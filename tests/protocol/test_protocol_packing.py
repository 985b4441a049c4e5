"""A body packed once and sent to many: the same bytes as packing each command whole."""

from __future__ import annotations

import tracemalloc

import msgpack
import pytest

from scopa.protocol import Connection, ConnectionRole, LocalProtocolError, Message, Packed, commands as wire, make_command, prepare
from scopa.protocol.codec import decode, encode, pack_body, pack_command, pack_data, pack_envelope, pack_uint
from scopa.protocol.parties import route_allowed
from scopa.protocol.spec import example_commands

EXAMPLES = example_commands()


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_an_envelope_around_a_packed_body_is_the_whole_command(name: str) -> None:
    cmd = EXAMPLES[name]
    packed = pack_envelope(seq=cmd.seq, sender=cmd.sender, recipient=cmd.recipient, re=cmd.re, name=cmd.name,
                           body=pack_body(cmd.body))
    assert packed == pack_command(cmd)


def _ready_server() -> Connection:
    conn = Connection(ConnectionRole.SERVER)
    client = Connection(ConnectionRole.CLIENT)
    conn.feed(client.send(Message(wire.Hello(name="ada", client="t"), recipient="lobby")))
    assert conn.next_command() is not None
    conn.send(Message(wire.Welcome(you="player:ada", server="s", motd="", protocol=2), recipient="player:ada"))
    return conn


def test_a_broadcast_packed_once_decodes_to_the_same_command_on_each_connection() -> None:
    body = wire.CardPlayed(event=5, seat=0, card="7d", captured=["4s", "3b"], scopa=False, table=["Fd"])
    payload = pack_body(body)
    for conn in (_ready_server(), _ready_server()):
        frame = conn.send(Packed(body.NAME, payload, sender="table:3", recipient="table:3/all"))
        plain = _ready_server().send(Message(body, sender="table:3", recipient="table:3/all"))
        assert frame == plain
        assert decode(frame).body == body


def test_a_command_sent_whole_and_by_body_make_the_same_frame() -> None:
    cmd = EXAMPLES["played"]
    assert _ready_server().send(cmd) == encode(cmd)


@pytest.mark.parametrize(("sender", "recipient"), [("table:3", "lobby"), ("nobody", "table:3/all"),
                                                   ("table:3", "table:3/all/x")])
def test_a_route_the_protocol_does_not_have_is_refused_and_nothing_changes(sender: str, recipient: str) -> None:
    conn = _ready_server()
    body = wire.CardPlayed(event=5, seat=0, card="7d", captured=[], scopa=False, table=["Fd"])
    before = conn.send(Message(wire.Ping(nonce=1), recipient="player:ada"))
    with pytest.raises(LocalProtocolError):
        conn.send(Packed(body.NAME, pack_body(body), sender=sender, recipient=recipient))
    with pytest.raises(LocalProtocolError):
        conn.send(Message(body, sender=sender, recipient=recipient))
    after = conn.send(Message(wire.Ping(nonce=1), recipient="player:ada"))
    assert decode(after).seq == decode(before).seq + 1


def test_a_sequence_number_out_of_range_is_refused() -> None:
    conn = _ready_server()
    with pytest.raises(LocalProtocolError):
        conn.send(make_command(wire.Ping(nonce=1), seq=2**53, sender="lobby", recipient="player:ada")
                  .model_copy(update={"seq": 2**53 + 1}))
    with pytest.raises(LocalProtocolError):
        conn.send(Message(wire.Ping(nonce=1), recipient="player:ada", re=2**53 + 1))


@pytest.mark.parametrize("name", sorted(n for n, c in EXAMPLES.items() if c.body.FLOW is not wire.Flow.TO_SERVER
                                        and n not in {"hello", "welcome", "error", "bye"}))
def test_a_prepared_broadcast_is_the_same_frame_as_sending_it_whole(name: str) -> None:
    cmd = EXAMPLES[name]
    prepared = prepare(ConnectionRole.SERVER, cmd.name, pack_body(cmd.body), recipient=cmd.recipient,
                       sender=cmd.sender)
    for extra in (0, 1, 200):  # each connection numbers it with its own next seq
        conn, plain = _ready_server(), _ready_server()
        for _ in range(extra):
            conn.send(Message(wire.Ping(nonce=1), recipient="player:ada"))
            plain.send(Message(wire.Ping(nonce=1), recipient="player:ada"))
        frame = conn.send(prepared)
        assert frame == plain.send(Message(cmd.body, recipient=cmd.recipient, sender=cmd.sender))
        assert decode(frame).body == cmd.body
        assert decode(conn.send(Message(wire.Ping(nonce=2), recipient="player:ada"))).seq == decode(frame).seq + 1


def test_one_preparation_serves_every_body_of_a_command_and_each_frame_is_the_command_sent_whole() -> None:
    prepared = prepare(ConnectionRole.SERVER, "played", b"", recipient="table:3/all", sender="table:3")
    assert prepared.recipient == "table:3/all"
    conn, plain = _ready_server(), _ready_server()
    for event, card in ((5, "7d"), (6, "Rc"), (7, "As")):
        body = wire.CardPlayed(event=event, seat=event % 2, card=card, captured=[], scopa=False, table=[card])
        frame = conn.send(prepared.with_body(pack_body(body)))
        assert frame == plain.send(Message(body, recipient="table:3/all", sender="table:3"))
        assert decode(frame).body == body


@pytest.mark.parametrize(("role", "name", "sender", "recipient"), [
    (ConnectionRole.SERVER, "bye", "lobby", "player:ada"),  # changes the connection's state
    (ConnectionRole.SERVER, "play", "table:3", "table:3/all"),  # never from the server
    (ConnectionRole.SERVER, "played", "table:3", "lobby"),  # no such route
    (ConnectionRole.SERVER, "nonsense", "table:3", "table:3/all"),
])
def test_a_broadcast_that_breaks_a_rule_is_refused_when_prepared(role: ConnectionRole, name: str, sender: str,
                                                                 recipient: str) -> None:
    with pytest.raises(LocalProtocolError):
        prepare(role, name, pack_body(wire.Ping(nonce=1)), recipient=recipient, sender=sender)
    with pytest.raises(LocalProtocolError):
        _ready_server().send(Packed(name, pack_body(wire.Ping(nonce=1)), recipient=recipient, sender=sender))


def test_a_prepared_broadcast_is_not_sent_on_a_closed_connection_or_by_the_other_role() -> None:
    body = wire.CardPlayed(event=5, seat=0, card="7d", captured=[], scopa=False, table=["Fd"])
    prepared = prepare(ConnectionRole.SERVER, "played", pack_body(body), recipient="table:3/all", sender="table:3")
    client = Connection(ConnectionRole.CLIENT)
    with pytest.raises(LocalProtocolError):
        client.send(prepared)
    conn = _ready_server()
    conn.send(Message(wire.Bye(reason="done"), recipient="player:ada"))
    with pytest.raises(LocalProtocolError):
        conn.send(prepared)


def test_a_prepared_broadcast_too_large_for_the_frame_limit_is_refused_and_nothing_changes() -> None:
    conn = _ready_server()
    conn.max_frame_size = 300
    prepared = prepare(ConnectionRole.SERVER, "played", b"\xc0" * 400, recipient="table:3/all", sender="table:3")
    before = conn.send(Message(wire.Ping(nonce=1), recipient="player:ada"))
    with pytest.raises(LocalProtocolError):
        conn.send(prepared)
    assert decode(conn.send(Message(wire.Ping(nonce=1), recipient="player:ada"))).seq == decode(before).seq + 1


@pytest.mark.parametrize("n", [0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**53, 2**64 - 1])
def test_an_unsigned_integer_packs_as_msgpack_packs_it(n: int) -> None:
    assert pack_uint(n) == msgpack.packb(n)


def test_a_negative_integer_is_not_packed_as_an_unsigned_one() -> None:
    with pytest.raises(ValueError):
        pack_uint(-1)


def test_the_kept_packer_packs_as_a_new_one_even_after_a_failure() -> None:
    with pytest.raises(TypeError):
        pack_data({"a": object()})
    data = {"event": 3, "legal": [{"card": "7d", "capture": ("3s", "4c")}], "x": None}
    assert pack_data(data) == msgpack.packb(data)


@pytest.mark.parametrize("text", ["", "lobby", "x" * 31, "x" * 32, "player:" + "ò" * 12, "player:" + "ò" * 13,
                                  "table:" + "9" * 16 + "/all", "player:" + "é" * 24])
def test_a_party_or_name_in_an_envelope_is_packed_as_msgpack_packs_it(text: str) -> None:
    packed = pack_envelope(seq=1, sender=text, recipient=text, re=None, name=text, body=b"\xc0")
    assert packed == msgpack.packb({"v": 2, "seq": 1, "sender": text, "recipient": text, "re": None, "name": text,
                                    "body": None})


def test_sending_to_thousands_of_players_keeps_nothing_per_player_or_table() -> None:
    """A server names thousands of players and tables: checking a route and packing an
    envelope keep nothing of either (a memo of each would cost every table more than its
    own game)."""
    pairs = [(f"table:{i}", f"player:p{i}") for i in range(2000)]  # made before the reading
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for table, player in pairs:
            assert route_allowed(wire.HandDeal.NAME, table, player)
            pack_envelope(seq=1, sender=table, recipient=player, re=None, name=wire.HandDeal.NAME, body=b"\x80")
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 8 * len(pairs)  # less than a pointer a pair


@pytest.mark.parametrize("seq", [0xFF, 0x100, 0x1234, 0xFFFF, 0x10000, 2**32])
def test_a_prepared_broadcast_numbered_in_any_width_is_the_same_frame_as_sending_it_whole(seq: int) -> None:
    """A prepared frame's ``seq`` is packed on its own (two bytes inline from 0x100 to
    0xFFFF, most of a connection's frames): the bytes of the command sent whole, on each
    side of every width's bounds."""
    cmd = EXAMPLES["played"]
    prepared = prepare(ConnectionRole.SERVER, cmd.name, pack_body(cmd.body), recipient=cmd.recipient,
                       sender=cmd.sender)
    conn, plain = _ready_server(), _ready_server()
    conn._next_seq = plain._next_seq = seq  # noqa: SLF001 - a long-lived connection, without its frames
    frame = conn.send(prepared)
    assert frame == plain.send(Message(cmd.body, recipient=cmd.recipient, sender=cmd.sender))
    assert decode(frame).seq == seq
