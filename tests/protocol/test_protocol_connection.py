"""The connection state machine, and party names."""

from __future__ import annotations

import pytest

from scopa.protocol import (
    Message,
    Bye,
    Connection,
    ConnectionRole,
    ConnectionState,
    ErrorCode,
    ForgedSender,
    Hello,
    ListTables,
    LocalProtocolError,
    NotHelloYet,
    Party,
    PartyKind,
    Ping,
    PlayCard,
    CardPlayed,
    UnexpectedCommand,
    Welcome,
    Error,
    decode,
    is_party,
    make_command,
    parse_party,
    player,
    table,
    table_all,
    encode,
)


def handshake() -> tuple[Connection, Connection]:
    client, server = Connection(ConnectionRole.CLIENT), Connection(ConnectionRole.SERVER)
    server.feed(client.send(Message(Hello(name="ada"), recipient="lobby")))
    hello = server.next_command()
    assert hello is not None and isinstance(hello.body, Hello) and hello.sender == "guest"
    assert server.state is ConnectionState.AWAIT_WELCOME
    client.feed(server.send(Message(Welcome(you="player:ada", server="t", protocol=2), recipient="player:ada", re=hello.seq)))
    welcome = client.next_command()
    assert welcome is not None and welcome.re == 1
    return client, server


def test_handshake_then_sender_is_the_welcomed_party() -> None:
    client, server = handshake()
    assert client.state is server.state is ConnectionState.READY
    assert client.client_party == server.client_party == "player:ada"
    server.feed(client.send(Message(ListTables(), recipient="lobby")))
    cmd = server.next_command()
    assert cmd is not None and cmd.sender == "player:ada" and cmd.seq == 2


def test_client_must_hello_first() -> None:
    client = Connection(ConnectionRole.CLIENT)
    with pytest.raises(LocalProtocolError) as info:
        client.send(Message(ListTables(), recipient="lobby"))
    assert info.value.code is ErrorCode.NOT_HELLO_YET
    client.send(Message(Ping(), recipient="lobby"))  # allowed before hello


def test_server_reports_command_before_hello_and_stays_usable() -> None:
    server = Connection(ConnectionRole.SERVER)
    server.feed(encode(make_command(ListTables(), seq=1, sender="guest", recipient="lobby")))
    server.feed(encode(make_command(Hello(name="bob"), seq=2, sender="guest", recipient="lobby")))
    with pytest.raises(NotHelloYet) as info:
        server.next_command()
    assert info.value.seq == 1
    frame = server.error_for(info.value, recipient="guest")
    error = decode(frame)
    assert isinstance(error.body, Error) and error.body.code is ErrorCode.NOT_HELLO_YET and error.re == 1
    cmd = server.next_command()
    assert cmd is not None and isinstance(cmd.body, Hello)


def test_forged_sender() -> None:
    client, server = handshake()
    forged = make_command(PlayCard(card="7d"), seq=5, sender="player:bob", recipient="table:1")
    server.feed(encode(forged))
    with pytest.raises(ForgedSender) as info:
        server.next_command()
    assert info.value.code is ErrorCode.FORGED_SENDER and info.value.seq == 5
    server.feed(encode(make_command(PlayCard(card="7d"), seq=6, sender="lobby", recipient="table:1")))
    with pytest.raises(ForgedSender):
        server.next_command()


def test_guest_must_not_claim_a_name_before_welcome() -> None:
    server = Connection(ConnectionRole.SERVER)
    server.feed(encode(make_command(Hello(name="bob"), seq=1, sender="player:bob", recipient="lobby")))
    with pytest.raises(ForgedSender):
        server.next_command()


def test_wrong_direction() -> None:
    client, server = handshake()
    played = make_command(
        CardPlayed(event=1, seat=0, card="7d", captured=[], scopa=False, table=["7d"]),
        seq=9, sender="player:ada", recipient="table:1",
    )  # fmt: skip
    server.feed(encode(played))
    with pytest.raises(UnexpectedCommand):
        server.next_command()
    with pytest.raises(LocalProtocolError):
        client.send(played)
    with pytest.raises(LocalProtocolError):
        server.send(Message(PlayCard(card="7d"), recipient="player:ada"))


def test_second_hello_is_unexpected() -> None:
    client, server = handshake()
    server.feed(encode(make_command(Hello(name="ada"), seq=3, sender="player:ada", recipient="lobby")))
    with pytest.raises(UnexpectedCommand):
        server.next_command()


def test_refused_hello_may_be_retried() -> None:
    client, server = Connection(ConnectionRole.CLIENT), Connection(ConnectionRole.SERVER)
    server.feed(client.send(Message(Hello(name="ada"), recipient="lobby")))
    assert server.next_command() is not None
    client.feed(server.send(Message(Error(code=ErrorCode.NAME_TAKEN, message="taken"), recipient="guest", re=1)))
    assert client.next_command() is not None
    assert client.state is server.state is ConnectionState.AWAIT_HELLO
    server.feed(client.send(Message(Hello(name="ada2"), recipient="lobby")))
    cmd = server.next_command()
    assert cmd is not None and cmd.seq == 2


def test_bye_closes_both_ends() -> None:
    client, server = handshake()
    server.feed(client.send(Message(Bye(reason="done"), recipient="lobby")))
    assert server.next_command() is not None
    assert client.state is server.state is ConnectionState.CLOSED
    with pytest.raises(LocalProtocolError):
        client.send(Message(Ping(), recipient="lobby"))
    server.feed(encode(make_command(Ping(), seq=99, sender="player:ada", recipient="lobby")))
    with pytest.raises(UnexpectedCommand):
        server.next_command()


def test_seq_increases_per_sending_end() -> None:
    client, server = handshake()
    seqs = [decode(client.send(Message(Ping(nonce=i), recipient="lobby"))).seq for i in range(3)]
    assert seqs == [2, 3, 4]


@pytest.mark.parametrize(
    ("text", "party"),
    [
        ("lobby", Party(PartyKind.LOBBY)),
        ("guest", Party(PartyKind.GUEST)),
        ("player:ada", player("ada")),
        ("table:7", table("7")),
        ("table:7/all", table_all("7")),
        ("spectators:t-1", Party(PartyKind.SPECTATORS, "t-1")),
    ],
)
def test_party_grammar(text: str, party: Party) -> None:
    assert parse_party(text) == party
    assert str(party) == text
    assert is_party(text)


@pytest.mark.parametrize(
    "text", ["", "Lobby", "player:", "player:a b", "table:7/", "table:7/some", "player:a:b", "x" * 50, "table:" + "9" * 17]
)
def test_not_parties(text: str) -> None:
    assert not is_party(text)
    with pytest.raises(ValueError):
        parse_party(text)


def test_party_helpers_check_their_argument() -> None:
    with pytest.raises(ValueError):
        player("no spaces")
    assert table_all("7").table_id == "7" and table_all("7").is_broadcast
    assert player("ada").table_id is None


def test_fatal_error_closes_and_too_large_send_leaves_state_alone() -> None:
    client, server = handshake()
    tiny = Connection(ConnectionRole.CLIENT, max_frame_size=10)
    with pytest.raises(LocalProtocolError):
        tiny.send(Message(Hello(name="ada"), recipient="lobby"))
    assert tiny.state is ConnectionState.AWAIT_HELLO
    frame = server.send(Message(Error(code=ErrorCode.RATE_LIMITED, message="slow", fatal=True), recipient="player:ada"))
    assert server.state is ConnectionState.CLOSED
    client.feed(frame)
    assert client.next_command() is not None
    assert client.state is ConnectionState.CLOSED


def test_welcome_must_name_a_player_party() -> None:
    with pytest.raises(ValueError):
        Welcome(you="lobby", server="s", protocol=2)


# --- the protocol's own replies: ping is answered by the connection, not by its shell


@pytest.mark.parametrize(("recipient", "answerer"), [("lobby", "lobby"), ("table:4", "table:4")])
def test_the_server_connection_answers_a_ping_from_whoever_it_was_sent_to(recipient: str, answerer: str) -> None:
    client, server = handshake()
    server.feed(client.send(Message(Ping(nonce=99), recipient=recipient)))
    ping = server.next_command()
    assert ping is not None
    reply = server.reply(ping)
    assert reply is not None
    client.feed(reply)
    pong = client.next_command()
    assert pong is not None and pong.name == "pong" and pong.body.nonce == 99
    assert (pong.sender, pong.recipient, pong.re) == (answerer, "player:ada", ping.seq)


def test_the_client_connection_answers_the_servers_ping() -> None:
    client, server = handshake()
    client.feed(server.send(Message(Ping(nonce=5), recipient="player:ada")))
    ping = client.next_command()
    assert ping is not None
    reply = client.reply(ping)
    assert reply is not None
    server.feed(reply)
    pong = server.next_command()
    assert pong is not None and (pong.name, pong.sender, pong.recipient) == ("pong", "player:ada", "lobby")


def test_nothing_but_a_ping_gets_a_reply_from_the_protocol() -> None:
    client, server = handshake()
    server.feed(client.send(Message(ListTables(), recipient="lobby")))
    listing = server.next_command()
    assert listing is not None and server.reply(listing) is None
    server.feed(client.send(Message(Bye(reason="done"), recipient="lobby")))
    bye = server.next_command()
    assert bye is not None and server.reply(bye) is None
    assert server.state is ConnectionState.CLOSED  # the shell closes the stream


def test_a_guest_ping_before_hello_is_answered_by_the_lobby() -> None:
    client, server = Connection(ConnectionRole.CLIENT), Connection(ConnectionRole.SERVER)
    server.feed(client.send(Message(Ping(nonce=1), recipient="lobby")))
    ping = server.next_command()
    assert ping is not None
    reply = server.reply(ping)
    assert reply is not None
    pong = decode(reply)
    assert (pong.sender, pong.recipient) == ("lobby", "guest")


def test_the_route_a_connection_keeps_holds_no_string_of_the_payloads() -> None:
    """A server keeps each connection's last allowed route (checked once for all of a seat's
    moves): with the connection's own party and one copy of the table's party for all its
    seats, not the strings read from a payload (about 120 bytes a seat otherwise)."""
    kept = []
    for name in ("ada", "bea"):
        client, server = Connection(ConnectionRole.CLIENT), Connection(ConnectionRole.SERVER)
        server.feed(client.send(Message(Hello(name=name), recipient="lobby")))
        hello = server.next_command()
        assert hello is not None
        you = "player:" + name
        client.feed(server.send(Message(Welcome(you=you, server="t", protocol=2), recipient=you, re=hello.seq)))
        assert client.next_command() is not None
        recipient = "".join(["table:", "t1"])  # a string of this payload only
        server.feed(client.send(Message(PlayCard(card="7d"), recipient=recipient)))
        play = server.next_command()
        assert play is not None and play.recipient == "table:t1"
        _, sender, to = server._route_ok  # type: ignore[misc]
        assert sender is server.client_party and sender is not play.sender
        kept.append(to)
    assert kept[0] is kept[1]
