"""The connection's transition table: what each end may send in each state, what the
receiving end refuses, and that a prepared broadcast is the same frame as the plain path."""

from __future__ import annotations

import itertools

import pytest

from scopa.protocol import (
    Bye,
    ChatMessage,
    Connection,
    ConnectionRole,
    ConnectionState,
    Error,
    ErrorCode,
    Hello,
    Kind,
    ListTables,
    LocalProtocolError,
    Message,
    Packed,
    Ping,
    RemoteProtocolError,
    Welcome,
    decode,
    encode,
    make_command,
    prepare,
)
from scopa.protocol.codec import pack_body
from scopa.protocol.commands import Body
from scopa.protocol.transitions import STATELESS, TRANSITIONS, kind_of

pytestmark = pytest.mark.unit

C, S = ConnectionRole.CLIENT, ConnectionRole.SERVER
AH, AW, R, X = ConnectionState.AWAIT_HELLO, ConnectionState.AWAIT_WELCOME, ConnectionState.READY, ConnectionState.CLOSED
UNEXPECTED, NOT_HELLO_YET = ErrorCode.UNEXPECTED_COMMAND, ErrorCode.NOT_HELLO_YET

BODIES: dict[Kind, Body] = {
    Kind.HELLO: Hello(name="ada"),
    Kind.WELCOME: Welcome(you="player:ada", server="s", protocol=2),
    Kind.REQUEST: ListTables(),
    Kind.EVENT: ChatMessage(author="player:bob", text="hi"),
    Kind.PING: Ping(nonce=1),
    Kind.ERROR: Error(code=ErrorCode.BAD_BODY, message="no"),
    Kind.FATAL: Error(code=ErrorCode.RATE_LIMITED, message="bye now", fatal=True),
    Kind.BYE: Bye(reason="done"),
}
SENDS = {C: {Kind.HELLO, Kind.REQUEST, Kind.PING, Kind.ERROR, Kind.FATAL, Kind.BYE},
         S: {Kind.WELCOME, Kind.EVENT, Kind.PING, Kind.ERROR, Kind.FATAL, Kind.BYE}}
RECIPIENT = {C: "lobby", S: "player:ada"}  # a recipient every command of the role may go to

# Written out, apart from the table: what either end refuses (besides everything after
# bye and every command of the other role, refused as unexpected) ...
REFUSED = {(C, AH, Kind.REQUEST): NOT_HELLO_YET, (C, AW, Kind.REQUEST): NOT_HELLO_YET,
           (C, R, Kind.HELLO): UNEXPECTED, (S, AH, Kind.WELCOME): UNEXPECTED, (S, R, Kind.WELCOME): UNEXPECTED}
# ... and where a command that goes through moves the connection.
MOVES = {(C, AH, Kind.HELLO): AW, (S, AW, Kind.WELCOME): R, (S, AW, Kind.ERROR): AH}

CELLS = list(itertools.product(ConnectionRole, ConnectionState, Kind))


def _refusal(role: ConnectionRole, state: ConnectionState, kind: Kind) -> ErrorCode | None:
    if state is X or kind not in SENDS[role]:
        return UNEXPECTED
    return REFUSED.get((role, state, kind))


def _after(role: ConnectionRole, state: ConnectionState, kind: Kind) -> ConnectionState:
    if kind in (Kind.FATAL, Kind.BYE):
        return X
    return MOVES.get((role, state, kind), state)


def _at(role: ConnectionRole, state: ConnectionState) -> Connection:
    """A connection of ``role`` brought to ``state`` by a real exchange with its peer."""
    client, server = Connection(C), Connection(S)
    if state is not AH:
        server.feed(client.send(Message(Hello(name="ada"), "lobby")))
        assert server.next_command() is not None
    if state in (R, X):
        client.feed(server.send(Message(BODIES[Kind.WELCOME], "player:ada")))
        assert client.next_command() is not None
    if state is X:
        server.feed(client.send(Message(Bye(reason="done"), "lobby")))
        assert server.next_command() is not None
    conn = client if role is C else server
    assert conn.state is state
    return conn


def test_the_table_has_a_cell_for_every_state_and_kind_a_role_sends() -> None:
    assert set(TRANSITIONS) == {(role, state, kind) for role, state, kind in CELLS if kind in SENDS[role]}
    assert STATELESS == {Kind.REQUEST, Kind.EVENT, Kind.PING}


@pytest.mark.parametrize(("role", "state", "kind"), CELLS)
def test_what_an_end_may_send_in_each_state(role: ConnectionRole, state: ConnectionState, kind: Kind) -> None:
    conn = _at(role, state)
    body = BODIES[kind]
    assert kind_of(body) is kind
    refused = _refusal(role, state, kind)
    if refused is not None:
        with pytest.raises(LocalProtocolError) as info:
            conn.send(Message(body, RECIPIENT[role]))
        assert info.value.code is refused
        assert conn.state is state  # nothing changed
        return
    frame = conn.send(Message(body, RECIPIENT[role]))
    assert decode(frame).body == body
    assert conn.state is _after(role, state, kind)


@pytest.mark.parametrize(("role", "state", "kind"), CELLS)
def test_what_the_receiving_end_refuses_in_each_state(role: ConnectionRole, state: ConnectionState,
                                                      kind: Kind) -> None:
    """``role`` sends; its peer, in ``state``, receives."""
    peer = _at(S if role is C else C, state)
    sender = ("player:ada" if state is R else "guest") if role is C else "lobby"
    body = BODIES[kind]
    peer.feed(encode(make_command(body, seq=7, sender=sender, recipient=RECIPIENT[role])))
    refused = _refusal(role, state, kind)
    if refused is not None:
        with pytest.raises(RemoteProtocolError) as info:
            peer.next_command()
        assert info.value.code is refused and info.value.seq == 7
        assert peer.state is state
        return
    command = peer.next_command()
    assert command is not None and command.body == body
    assert peer.state is _after(role, state, kind)


@pytest.mark.parametrize(("role", "state", "kind"), [cell for cell in CELLS if cell[2] in STATELESS])
def test_a_prepared_broadcast_goes_out_exactly_when_the_plain_path_does_with_the_same_bytes(
        role: ConnectionRole, state: ConnectionState, kind: Kind) -> None:
    body = BODIES[kind]
    sender = "lobby" if role is S else ("player:ada" if state is R else "guest")
    plain: list[bytes | ErrorCode] = []
    for outgoing in (Message(body, RECIPIENT[role], sender), Packed(body.NAME, pack_body(body), RECIPIENT[role], sender)):
        conn = _at(role, state)
        try:
            plain.append(conn.send(outgoing))
        except LocalProtocolError as exc:
            plain.append(exc.code)
        assert conn.state is state
    assert plain[0] == plain[1]
    try:
        prepared = prepare(role, body.NAME, pack_body(body), recipient=RECIPIENT[role], sender=sender)
    except LocalProtocolError as exc:  # the wrong way or route: refused once, up front
        assert exc.code is UNEXPECTED and isinstance(plain[0], ErrorCode)
        return
    conn = _at(role, state)
    try:
        assert conn.send(prepared) == plain[0]
    except LocalProtocolError as exc:
        assert exc.code == plain[0]
    assert conn.state is state


def test_a_prepared_broadcast_is_numbered_by_each_connection_and_refused_by_the_other_role() -> None:
    body = BODIES[Kind.EVENT]
    prepared = prepare(S, body.NAME, pack_body(body), recipient="player:ada", sender="lobby")
    a, b = _at(S, R), _at(S, R)
    b.send(Message(Ping(nonce=2), "player:ada"))
    assert (decode(a.send(prepared)).seq, decode(b.send(prepared)).seq) == (2, 3)
    with pytest.raises(LocalProtocolError) as info:
        _at(C, R).send(prepared)
    assert info.value.code is UNEXPECTED


@pytest.mark.parametrize("kind", sorted(set(Kind) - STATELESS))
def test_a_command_that_moves_the_connection_is_never_sent_packed(kind: Kind) -> None:
    body = BODIES[kind]
    role = C if kind in SENDS[C] else S
    conn = _at(role, AW)
    with pytest.raises(LocalProtocolError) as info:
        conn.send(Packed(body.NAME, pack_body(body), RECIPIENT[role]))
    assert info.value.code is UNEXPECTED and conn.state is AW
    with pytest.raises(LocalProtocolError):
        prepare(role, body.NAME, pack_body(body), recipient=RECIPIENT[role], sender="lobby")
