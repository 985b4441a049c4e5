"""A small sans-I/O connection state machine on top of the codec (in the manner of h11).

One :class:`Connection` per TCP stream, on each end.  It frames and decodes, numbers
outgoing commands, and enforces the few rules every connection shares:

* the client's first command is ``hello`` (``ping`` and ``bye`` are allowed before it);
* a command only travels in its own direction (``play`` never comes from the server);
* once welcomed, every command the client sends names its own party as ``sender``;
* after ``bye`` or a fatal ``error`` (sent or received) nothing more is sent;
* a client ignores what it does not know in what the server sends (unknown keys are
  dropped, commands of an unknown name skipped); the server accepts nothing unknown.

States (the same names on both ends)::

    AWAIT_HELLO --hello--> AWAIT_WELCOME --welcome--> READY --bye--> CLOSED
                 <-error--   (e.g. name_taken: the client may try another hello)

Game rules (whose turn it is, table membership) are the server's business, not this
module's.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import NamedTuple

from .codec import FrameDecoder, envelope_head, envelope_tail, pack_body, pack_envelope
from .commands import BODY_BY_NAME, Body, Bye, Error, Flow, Hello, Ping, Pong, Welcome
from .envelope import Command, make_command
from .errors import (
    ErrorCode,
    ForgedSender,
    LocalProtocolError,
    NotHelloYet,
    ProtocolError,
    UnexpectedCommand,
    UnknownCommand,
)
from .fields import MAX_SEQ
from .framing import MAX_FRAME_SIZE, frame_prefix, frame_payload
from .parties import GUEST, LOBBY, ROUTES, PartyKind, parse_party, route_allowed


class ConnectionRole(StrEnum):
    CLIENT = "client"
    SERVER = "server"


class ConnectionState(StrEnum):
    AWAIT_HELLO = "await_hello"
    AWAIT_WELCOME = "await_welcome"
    READY = "ready"
    CLOSED = "closed"


class Prepared(NamedTuple):
    """A command packed once for many connections (a table's broadcast): everything but
    the ``seq`` each connection gives it.  Made by :meth:`Addressed.prepare` (or
    :func:`prepare`), which checked once what does not depend on the connection; sent
    with :meth:`Connection.send_prepared`."""

    name: str
    role: ConnectionRole
    tail: bytes  # the packed envelope after seq (sender, recipient, re, name, body)


class Addressed(NamedTuple):
    """Command ``name`` from one sender to one recipient, checked against the connection
    rules and packed up to its body, for a sender that sends it again and again (a
    table's ``played`` to everyone, its ``your_turn`` to a seat).  Made by
    :func:`address`."""

    name: str
    role: ConnectionRole
    recipient: str
    head: bytes  # the packed envelope after seq, up to and including the body's key

    def prepare(self, payload: bytes) -> Prepared:
        """This command with its body packed already (``payload``), ready to send."""
        return Prepared(self.name, self.role, self.head + payload)


# Commands allowed before the welcome, besides hello / welcome themselves.
_ANY_TIME = (Ping, Pong, Error, Bye)
_STATEFUL = (Hello, Welcome, Error, Bye)  # commands that move the connection's state
_FLOW_FROM = {ConnectionRole.CLIENT: (Flow.TO_SERVER, Flow.BOTH), ConnectionRole.SERVER: (Flow.TO_CLIENT, Flow.BOTH)}


def address(role: ConnectionRole, name: str, *, recipient: str, sender: str) -> Addressed:
    """Command ``name`` from ``sender`` to ``recipient``, sent by a connection of ``role``
    with a body packed already: the rules of :meth:`Connection.send_payload` are checked
    here, once (:class:`LocalProtocolError` if one is broken), and
    :meth:`Addressed.prepare` gives each body its :class:`Prepared` command."""
    kind = BODY_BY_NAME.get(name)
    if kind is None or kind in _STATEFUL:
        raise LocalProtocolError(f"{name!r} cannot be sent as a packed body", code=ErrorCode.UNEXPECTED_COMMAND)
    if kind.FLOW not in _FLOW_FROM[role]:
        raise LocalProtocolError(f"a {role.value} never sends {name!r}", code=ErrorCode.UNEXPECTED_COMMAND)
    if not route_allowed(name, sender, recipient):
        raise LocalProtocolError(f"{name!r} never goes from {sender!r} to {recipient!r}",
                                 code=ErrorCode.UNEXPECTED_COMMAND)
    return Addressed(name, role, recipient, envelope_tail(sender=sender, recipient=recipient, re=None, name=name,
                                                          body=b""))


def prepare(role: ConnectionRole, name: str, payload: bytes, *, recipient: str, sender: str) -> Prepared:
    """Command ``name`` with its body packed already (``payload``), checked and packed
    once for every connection of ``role`` it goes to (a broadcast): only
    :meth:`Connection.send_prepared` is left to do per connection (see :func:`address`)."""
    return address(role, name, recipient=recipient, sender=sender).prepare(payload)


class Connection:
    """One end of a connection: ``feed(bytes)`` / ``next_command()`` in, ``send(...)`` out."""

    __slots__ = ('_decoder', '_next_seq', '_peer_role', 'client_party', 'max_frame_size', 'role', 'state')

    def __init__(self, role: ConnectionRole, *, max_frame_size: int = MAX_FRAME_SIZE) -> None:
        self.role = role
        self.state = ConnectionState.AWAIT_HELLO
        self.client_party: str | None = None
        """The client's party once welcomed (``player:<name>``), on both ends."""
        self.max_frame_size = max_frame_size
        self._decoder = FrameDecoder(max_frame_size=max_frame_size, lenient=role is ConnectionRole.CLIENT)
        self._next_seq = 1
        self._peer_role = ConnectionRole.SERVER if role is ConnectionRole.CLIENT else ConnectionRole.CLIENT

    # --- receiving -----------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes received from the peer, in any chunking."""
        self._decoder.feed(data)

    receive_data = feed

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a whole command (a frame in progress)."""
        return self._decoder.buffered

    def next_command(self) -> Command | None:
        """The next whole command from the peer (``None``: need more bytes).

        Raises a :class:`RemoteProtocolError` for a bad frame or a command that breaks
        the connection rules; the offending command is dropped and the connection stays
        usable unless the error is ``fatal``.
        """
        while True:
            try:
                command = self._decoder.next_command()
            except UnknownCommand:
                if self.role is ConnectionRole.CLIENT:
                    continue  # a command of a newer server: ignored (PROTOCOL.md §2)
                raise
            if command is not None:
                self._check_received(command)
            return command

    def __iter__(self) -> Iterator[Command]:
        while (command := self.next_command()) is not None:
            yield command

    def close(self) -> None:
        """The peer closed the stream; raises :class:`TruncatedFrame` if it stopped mid-frame."""
        self.state = ConnectionState.CLOSED
        self._decoder.close()

    def _check_received(self, command: Command) -> None:
        body, seq = command.body, command.seq
        if type(body).FLOW not in _FLOW_FROM[self._peer_role]:
            raise UnexpectedCommand(f"{command.name!r} never comes from the {self._peer_role.value}", seq=seq)
        if self.state is ConnectionState.CLOSED:
            raise UnexpectedCommand(f"{command.name!r} after bye", seq=seq)
        if self.role is ConnectionRole.SERVER:
            self._server_receives(command)
        else:
            self._client_receives(command)
        if isinstance(body, Bye) or (isinstance(body, Error) and body.fatal):
            self.state = ConnectionState.CLOSED

    def _server_receives(self, command: Command) -> None:
        body, seq = command.body, command.seq
        if self.state is ConnectionState.READY:
            if isinstance(body, Hello):
                raise UnexpectedCommand("hello was already accepted", seq=seq)
            if command.sender != self.client_party:
                raise ForgedSender(f"sender {command.sender!r} is not you ({self.client_party})", seq=seq)
            self._check_route(command)
            return
        # Before the welcome the client is a guest and may only say hello.
        if command.sender != str(GUEST):
            raise ForgedSender(f"before welcome the sender is 'guest', not {command.sender!r}", seq=seq)
        if not isinstance(body, (Hello, *_ANY_TIME)):
            raise NotHelloYet(f"{command.name!r} before hello", seq=seq)
        self._check_route(command)
        if isinstance(body, Hello):
            self.state = ConnectionState.AWAIT_WELCOME

    @staticmethod
    def _check_route(command: Command) -> None:
        """The command goes to a party it may be sent to (ROUTES, PROTOCOL.md §3)."""
        if not route_allowed(command.name, command.sender, command.recipient):
            allowed = sorted({r.recipient.value for r in ROUTES[command.name]})
            raise UnexpectedCommand(f"{command.name!r} is never sent to {command.recipient!r} "
                                    f"(it goes to: {', '.join(allowed)})", seq=command.seq,
                                    name=command.name, recipient=command.recipient)

    def _client_receives(self, command: Command) -> None:
        body = command.body
        if isinstance(body, Welcome):
            if self.state is not ConnectionState.AWAIT_WELCOME:
                raise UnexpectedCommand("welcome without a hello", seq=command.seq)
            self.client_party = body.you
            self.state = ConnectionState.READY
        elif isinstance(body, Error) and self.state is ConnectionState.AWAIT_WELCOME:
            self.state = ConnectionState.AWAIT_HELLO  # hello refused: another may be tried

    # --- sending -------------------------------------------------------------------

    def command(self, body: Body, *, recipient: str, sender: str | None = None, re: int | None = None) -> Command:
        """Wrap ``body`` in an envelope with this end's next ``seq``.

        ``sender`` defaults to this end's own party: the client's ``guest`` /
        ``player:<name>``, or ``lobby`` on the server (a table's game master passes
        ``table:<id>``).
        """
        if sender is None:
            if self.role is ConnectionRole.SERVER:
                sender = str(LOBBY)
            else:
                sender = self.client_party or str(GUEST)
        try:
            return make_command(body, seq=self._next_seq, sender=sender, recipient=recipient, re=re)
        except ValueError as exc:
            raise LocalProtocolError(f"invalid envelope for {body.NAME!r}: {exc}") from None

    def send(self, command: Command) -> bytes:
        """Check ``command`` against the connection rules and return its frame."""
        return self.send_body(command.body, recipient=command.recipient, sender=command.sender, re=command.re,
                              seq=command.seq, name=command.name)

    def send_body(self, body: Body, *, recipient: str, sender: str | None = None, re: int | None = None,
                  payload: bytes | None = None, seq: int | None = None, name: str | None = None) -> bytes:
        """Wrap ``body`` in an envelope with this end's next ``seq``, check it against the
        connection rules and return its frame: the usual way to send.

        ``payload``: the body packed already by :func:`~scopa.protocol.codec.pack_body`
        (one broadcast, many connections: packed once).  ``sender`` defaults as in
        :meth:`command`.  Nothing changes when it raises :class:`LocalProtocolError`.
        """
        kind = type(body)
        if name is not None and name != kind.NAME:
            raise LocalProtocolError(f"command name {name!r} does not match its {kind.__name__} body; "
                                     "build commands with make_command()")
        return self._frame(kind, body, pack_body(body) if payload is None else payload,
                           recipient=recipient, sender=sender, re=re, seq=seq)

    def send_payload(self, name: str, payload: bytes, *, recipient: str, sender: str | None = None,
                     re: int | None = None) -> bytes:
        """The frame of command ``name`` whose body is already packed (msgpack of the data
        its model dumps to): for a body built as plain data on a hot path, such as the
        server's ``your_turn``.  The connection rules are checked as in :meth:`send_body`;
        a command that changes the connection's state (``hello``, ``welcome``, ``error``,
        ``bye``) must go through :meth:`send_body`."""
        kind = BODY_BY_NAME.get(name)
        if kind is None or kind in _STATEFUL:
            raise LocalProtocolError(f"{name!r} cannot be sent as a packed body", code=ErrorCode.UNEXPECTED_COMMAND)
        return self._frame(kind, None, payload, recipient=recipient, sender=sender, re=re, seq=None)

    def prepare(self, name: str, payload: bytes, *, recipient: str, sender: str) -> Prepared:
        """:func:`prepare` for this end's role."""
        return prepare(self.role, name, payload, recipient=recipient, sender=sender)

    def send_prepared(self, prepared: Prepared) -> bytes:
        """The frame of a :meth:`prepare`-d command on this connection, with its next ``seq``."""
        state = self.state
        if prepared.role is not self.role or state is ConnectionState.CLOSED or (
                state is ConnectionState.AWAIT_HELLO and self.role is ConnectionRole.CLIENT):
            self._refuse_prepared(prepared)
        seq = self._next_seq
        if seq > MAX_SEQ:
            raise LocalProtocolError(f"invalid envelope for {prepared.name!r}: seq {seq} out of range")
        head = envelope_head(seq)
        prefix = frame_prefix(len(head) + len(prepared.tail), self.max_frame_size)
        self._next_seq = seq + 1
        return b"".join((prefix, head, prepared.tail))

    def _refuse_prepared(self, prepared: Prepared) -> None:
        """Why a prepared command may not go out on this connection (raised)."""
        if prepared.role is not self.role:
            raise LocalProtocolError(f"{prepared.name!r} was prepared for a {prepared.role.value}",
                                     code=ErrorCode.UNEXPECTED_COMMAND)
        if self.state is ConnectionState.CLOSED:
            raise LocalProtocolError("the connection is closed", code=ErrorCode.UNEXPECTED_COMMAND)
        raise LocalProtocolError(f"{prepared.name!r} before hello", code=ErrorCode.NOT_HELLO_YET)

    def _frame(self, kind: type[Body], body: Body | None, payload: bytes, *, recipient: str, sender: str | None,
               re: int | None, seq: int | None) -> bytes:
        """Check one outgoing command against the connection rules, frame it and move the
        connection on (``body``: for the commands that change its state)."""
        name = kind.NAME
        if sender is None:
            sender = str(LOBBY) if self.role is ConnectionRole.SERVER else self.client_party or str(GUEST)
        if self.state is ConnectionState.CLOSED:
            raise LocalProtocolError("the connection is closed", code=ErrorCode.UNEXPECTED_COMMAND)
        if kind.FLOW not in _FLOW_FROM[self.role]:
            raise LocalProtocolError(f"a {self.role.value} never sends {name!r}", code=ErrorCode.UNEXPECTED_COMMAND)
        new_state: ConnectionState = self.state
        if self.role is ConnectionRole.CLIENT and self.state is ConnectionState.AWAIT_HELLO:
            if kind is Hello:
                new_state = ConnectionState.AWAIT_WELCOME
            elif not issubclass(kind, _ANY_TIME):
                raise LocalProtocolError(f"{name!r} before hello", code=ErrorCode.NOT_HELLO_YET)
        elif self.role is ConnectionRole.SERVER and kind is Welcome:
            if self.state is not ConnectionState.AWAIT_WELCOME:
                raise LocalProtocolError("welcome without a hello", code=ErrorCode.UNEXPECTED_COMMAND)
            new_state = ConnectionState.READY
        elif self.role is ConnectionRole.SERVER and kind is Error and self.state is ConnectionState.AWAIT_WELCOME:
            new_state = ConnectionState.AWAIT_HELLO  # hello refused
        if not route_allowed(name, sender, recipient):
            raise LocalProtocolError(f"{name!r} never goes from {sender!r} to {recipient!r}",
                                     code=ErrorCode.UNEXPECTED_COMMAND)
        if isinstance(body, Bye) or (isinstance(body, Error) and body.fatal):
            new_state = ConnectionState.CLOSED
        if seq is None:
            seq = self._next_seq
        if not 0 <= seq <= MAX_SEQ or (re is not None and not 0 <= re <= MAX_SEQ):
            raise LocalProtocolError(f"invalid envelope for {name!r}: seq {seq} / re {re} out of range")
        packed = pack_envelope(seq=seq, sender=sender, recipient=recipient, re=re, name=name, body=payload)
        frame = frame_payload(packed, max_frame_size=self.max_frame_size)  # may raise: state unchanged
        if isinstance(body, Welcome):
            self.client_party = body.you
        self.state = new_state
        self._next_seq = max(self._next_seq, seq + 1)
        return frame

    def answering(self, recipient: str | None) -> str:
        """Who answers a command the peer sent to ``recipient``: on the server, that
        table's game master for a command sent to ``table:<id>`` once welcomed, else the
        lobby (PROTOCOL.md §3); on the client, the client itself."""
        if self.role is ConnectionRole.CLIENT:
            return self.client_party or str(GUEST)
        if recipient is not None and self.state is ConnectionState.READY:
            try:
                if parse_party(recipient).kind is PartyKind.TABLE:
                    return recipient
            except ValueError:
                pass
        return str(LOBBY)

    def reply(self, command: Command) -> bytes | None:
        """The protocol's own answer to a command received from the peer, framed: a
        ``pong`` (same nonce, from whoever the ``ping`` was sent to) for a ``ping``;
        nothing for anything else.  A ``bye`` needs no answer: it has closed the
        connection (``state`` is CLOSED), and the shell closes the stream."""
        body = command.body
        if not isinstance(body, Ping) or self.state is ConnectionState.CLOSED:
            return None
        if self.role is ConnectionRole.SERVER:
            sender, recipient = self.answering(command.recipient), self.client_party or str(GUEST)
        else:
            sender, recipient = self.client_party or str(GUEST), command.sender
        return self.send_body(Pong(nonce=body.nonce), recipient=recipient, sender=sender, re=command.seq)

    def error_for(self, exc: ProtocolError, *, recipient: str, sender: str | None = None) -> bytes:
        """The frame of an ``error`` command reporting ``exc`` (``re`` = its seq, if known)."""
        body = Error(code=exc.code, message=exc.message[:500], fatal=exc.fatal)
        return self.send_body(body, recipient=recipient, sender=sender, re=exc.seq)
