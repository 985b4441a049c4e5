"""A small sans-I/O connection state machine on top of the codec (in the manner of h11).

One :class:`Connection` per TCP stream, on each end.  It frames and decodes, numbers
outgoing commands, and enforces the few rules every connection shares:

* the client's first command is ``hello`` (``ping`` and ``bye`` are allowed before it);
* a command only travels in its own direction (``play`` never comes from the server);
* once welcomed, every command the client sends names its own party as ``sender``;
* after ``bye`` or a fatal ``error`` (sent or received) nothing more is sent;
* a client ignores what it does not know in what the server sends (unknown keys are
  dropped, commands of an unknown name skipped); the server accepts nothing unknown.

The state and direction rules are one table (:mod:`.transitions`), looked up by both
ends; the routes (who sends a command to whom) are :data:`~.parties.ROUTES`.  What goes
out goes through one method, :meth:`Connection.send`, as one of the values of
:data:`Outgoing`.

Game rules (whose turn it is, table membership) are the server's business, not this
module's.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from .codec import ENVELOPE_HEAD_UINT16, FrameDecoder, envelope_head, envelope_tail, pack_body, pack_envelope
from .commands import BODY_BY_NAME, Body, Error, Ping, Pong, Welcome
from .envelope import Command, make_command
from .errors import ErrorCode, ForgedSender, LocalProtocolError, ProtocolError, UnexpectedCommand, UnknownCommand
from .fields import MAX_SEQ
from .framing import MAX_FRAME_SIZE, frame_payload, frame_prefix, pack_prefix
from .parties import GUEST, LOBBY, ROUTES, PartyKind, parse_party, route_allowed
from .transitions import (
    KIND_BY_NAME,
    STATELESS,
    TRANSITIONS,
    WRONG_WAY,
    ConnectionRole,
    ConnectionState,
    Kind,
    Refusal,
    kind_of,
    sendable_states,
    step,
)

# Read on every command in and out, as plain names: an enum member read from its class
# goes through the enum's metaclass (``EnumType.__getattr__``), ten times slower.
_SERVER = ConnectionRole.SERVER
_READY = ConnectionState.READY
_NOT_HELLO_YET = ErrorCode.NOT_HELLO_YET
_ERROR_NAME = Error.NAME
_SMALL_HEADS = tuple(envelope_head(seq) for seq in range(0x100))
"""The packed envelope heads of the first frames' ``seq`` (0 to 255)."""
_UINT16_HEAD_SIZE = len(ENVELOPE_HEAD_UINT16) + 2
_pack_frame_start = struct.Struct(f">I{len(ENVELOPE_HEAD_UINT16)}sH").pack
"""A frame's length prefix and its envelope head up to a ``seq`` of 0x100..0xFFFF:
``_pack_frame_start(size, ENVELOPE_HEAD_UINT16, seq)``."""

__all__ = ["Connection", "ConnectionRole", "ConnectionState", "Message", "Outgoing", "Packed", "Prepared", "prepare"]


@dataclass(frozen=True, slots=True)
class Message:
    """A body to send: the connection numbers it and packs it.  ``sender`` None: this
    end's own party (the client's ``guest`` / ``player:<name>``, the server's ``lobby``)."""

    body: Body
    recipient: str
    sender: str | None = None
    re: int | None = None

    @property
    def name(self) -> str:
        return self.body.NAME


@dataclass(frozen=True, slots=True)
class Packed:
    """A body packed already (``payload``: the msgpack of the data its model dumps to),
    for a body built as plain data on a hot path or kept packed (a table's event log).
    Only commands that never change the connection's state travel so."""

    name: str
    payload: bytes
    recipient: str
    sender: str | None = None
    re: int | None = None


_new_tuple = tuple.__new__


class Prepared(NamedTuple):
    """A command checked and packed once for every connection of ``role`` it goes to (a
    table's broadcast): all but the ``seq`` each connection gives it.  Made by
    :func:`prepare`; :meth:`with_body` gives the same command with another body (the
    table's ``played`` on every move, checked once per table)."""

    name: str
    role: ConnectionRole
    recipient: str
    states: frozenset[ConnectionState]  # the states of a connection it may go out in
    head: bytes  # the packed envelope after seq, up to and including the body's key
    body: bytes

    def with_body(self, body: bytes) -> Prepared:
        # tuple.__new__, not the class's Python-level __new__: every move gives its played a body
        return _new_tuple(Prepared, (*self[:5], body))


Outgoing = Command | Message | Packed | Prepared
"""What :meth:`Connection.send` sends: a whole command (numbered by the caller), a body,
a packed body, or a command prepared for many connections."""


def _packable(name: str) -> Kind:
    kind = KIND_BY_NAME.get(name)
    if kind is None or kind not in STATELESS:
        raise LocalProtocolError(f"{name!r} cannot be sent as a packed body", code=ErrorCode.UNEXPECTED_COMMAND)
    return kind


def prepare(role: ConnectionRole, name: str, payload: bytes, *, recipient: str, sender: str) -> Prepared:
    """Command ``name`` from ``sender`` to ``recipient`` with its body packed already
    (``payload``), for many connections of ``role``: what does not depend on the
    connection (the command's direction and route, that it changes no state) is checked
    here, once (:class:`LocalProtocolError`); its state, by each connection as it sends."""
    kind = _packable(name)
    states = sendable_states(role, kind)
    if not states:
        raise LocalProtocolError(f"a {role.value} never sends {name!r}", code=ErrorCode.UNEXPECTED_COMMAND)
    if not route_allowed(name, sender, recipient):
        raise LocalProtocolError(f"{name!r} never goes from {sender!r} to {recipient!r}",
                                 code=ErrorCode.UNEXPECTED_COMMAND)
    head = envelope_tail(sender=sender, recipient=recipient, re=None, name=name, body=b"")
    return Prepared(name, role, recipient, states, head, payload)


class Connection:
    """One end of a connection: ``feed(bytes)`` / ``next_command()`` in, ``send(outgoing)`` out."""

    __slots__ = ('_decoder', '_next_seq', '_peer_role', '_route_ok', 'client_party', 'max_frame_size', 'role', 'state')

    def __init__(self, role: ConnectionRole, *, max_frame_size: int = MAX_FRAME_SIZE) -> None:
        self.role = role
        self.state = ConnectionState.AWAIT_HELLO
        self.client_party: str | None = None
        """The client's party once welcomed (``player:<name>``), on both ends."""
        self.max_frame_size = max_frame_size
        self._decoder = FrameDecoder(max_frame_size=max_frame_size, lenient=role is ConnectionRole.CLIENT)
        self._next_seq = 1
        self._peer_role = ConnectionRole.SERVER if role is ConnectionRole.CLIENT else ConnectionRole.CLIENT
        self._route_ok: tuple[str, str, str] | None = None  # the last route received that route_allowed allowed

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
        """The transition table for a command of the peer; on the server, also its
        sender (the guest, then the welcomed party) and its route."""
        name, seq, body, peer, state = command.name, command.seq, command.body, self._peer_role, self.state
        # step(peer, state, kind_of(body)) inline: this runs for every command received
        outcome = TRANSITIONS.get((peer, state, KIND_BY_NAME[name] if name != _ERROR_NAME else kind_of(body)),
                                  WRONG_WAY)
        if self.role is _SERVER:
            sender, recipient = command.sender, command.recipient
            # A refusal of its direction or time outranks a forged sender, but before the
            # welcome a forged sender outranks not_hello_yet.
            if isinstance(outcome, Refusal) and outcome.code is not _NOT_HELLO_YET:
                raise outcome.received(name, peer, seq)
            if state is _READY:
                if sender != self.client_party:
                    raise ForgedSender(f"sender {sender!r} is not you ({self.client_party})", seq=seq)
            elif sender != str(GUEST):
                raise ForgedSender(f"before welcome the sender is 'guest', not {sender!r}", seq=seq)
            if isinstance(outcome, Refusal):
                raise outcome.received(name, peer, seq)
            route = (name, sender, recipient)
            if route != self._route_ok:  # a seat's moves all take one route: checked once
                if not route_allowed(*route):
                    allowed = sorted({r.recipient.value for r in ROUTES[name]})
                    raise UnexpectedCommand(f"{name!r} is never sent to {recipient!r} "
                                            f"(it goes to: {', '.join(allowed)})", seq=seq,
                                            name=name, recipient=recipient)
                # kept with the connection's own party and the one copy of the recipient that
                # every connection keeps, not with this payload's strings
                own = self.client_party if state is _READY else sender
                self._route_ok = (sys.intern(name), own or sender, sys.intern(recipient))
        elif isinstance(outcome, Refusal):
            raise outcome.received(name, peer, seq)
        if isinstance(body, Welcome):
            self.client_party = body.you
        self.state = outcome

    # --- sending -------------------------------------------------------------------

    def command(self, body: Body, *, recipient: str, sender: str | None = None, re: int | None = None) -> Command:
        """Wrap ``body`` in an envelope with this end's next ``seq`` (to :meth:`send`
        and keep: a client matches the server's answers to it by its ``seq``).

        ``sender`` defaults to this end's own party: the client's ``guest`` /
        ``player:<name>``, or ``lobby`` on the server (a table's game master passes
        ``table:<id>``).
        """
        try:
            return make_command(body, seq=self._next_seq, sender=self._own_party() if sender is None else sender,
                                recipient=recipient, re=re)
        except ValueError as exc:
            raise LocalProtocolError(f"invalid envelope for {body.NAME!r}: {exc}") from None

    def send(self, outgoing: Outgoing) -> bytes:
        """Check ``outgoing`` against the connection rules and return its frame; the
        connection moves on (its next ``seq``, its state).  Nothing changes when it
        raises :class:`LocalProtocolError`."""
        if outgoing.__class__ is Prepared:
            return self.send_prepared(outgoing)
        if isinstance(outgoing, Packed):
            kind = _packable(outgoing.name)
            return self._frame(kind, None, outgoing.name, outgoing.payload, outgoing.recipient, outgoing.sender,
                               outgoing.re, None)
        if isinstance(outgoing, Message):
            body = outgoing.body
            return self._frame(kind_of(body), body, body.NAME, pack_body(body), outgoing.recipient, outgoing.sender,
                               outgoing.re, None)
        if isinstance(outgoing, Command):
            body = outgoing.body
            if outgoing.name != body.NAME:
                raise LocalProtocolError(f"command name {outgoing.name!r} does not match its "
                                         f"{type(body).__name__} body; build commands with make_command()")
            return self._frame(kind_of(body), body, body.NAME, pack_body(body), outgoing.recipient, outgoing.sender,
                               outgoing.re, outgoing.seq)
        raise TypeError(f"not a command to send: {outgoing!r}")

    def send_prepared(self, prepared: Prepared) -> bytes:
        """:meth:`send` of a :class:`Prepared` (a table's broadcast, a your_turn): the
        same checks and frame, for a caller that knows what it sends."""
        name, role, _, states, tail, body = prepared
        if role is not self.role:
            raise LocalProtocolError(f"{name!r} was prepared for a {role.value}", code=ErrorCode.UNEXPECTED_COMMAND)
        if self.state not in states:
            outcome = step(self.role, self.state, KIND_BY_NAME[name])
            assert isinstance(outcome, Refusal)
            raise outcome.sent(name, self.role)
        seq = self._next_seq
        if 0x100 <= seq <= 0xFFFF:  # most frames: prefix, envelope head and seq packed in one call
            size = _UINT16_HEAD_SIZE + len(tail) + len(body)
            if size <= self.max_frame_size:
                self._next_seq = seq + 1
                return b"".join((_pack_frame_start(size, ENVELOPE_HEAD_UINT16, seq), tail, body))
        if seq > MAX_SEQ:
            raise LocalProtocolError(f"invalid envelope for {name!r}: seq {seq} out of range")
        head = _SMALL_HEADS[seq] if seq < 0x100 else envelope_head(seq)
        size = len(head) + len(tail) + len(body)
        prefix = pack_prefix(size) if size <= self.max_frame_size else frame_prefix(size, self.max_frame_size)
        self._next_seq = seq + 1
        return b"".join((prefix, head, tail, body))

    def _frame(self, kind: Kind, body: Body | None, name: str, payload: bytes, recipient: str, sender: str | None,
               re: int | None, seq: int | None) -> bytes:
        """Check one outgoing command against the transition table and its route, frame
        it and move the connection on (``body``: for the commands that change its state)."""
        outcome = step(self.role, self.state, kind)
        if isinstance(outcome, Refusal):
            raise outcome.sent(name, self.role)
        if sender is None:
            sender = self._own_party()
        if not route_allowed(name, sender, recipient):
            raise LocalProtocolError(f"{name!r} never goes from {sender!r} to {recipient!r}",
                                     code=ErrorCode.UNEXPECTED_COMMAND)
        if seq is None:
            seq = self._next_seq
        if not 0 <= seq <= MAX_SEQ or (re is not None and not 0 <= re <= MAX_SEQ):
            raise LocalProtocolError(f"invalid envelope for {name!r}: seq {seq} / re {re} out of range")
        packed = pack_envelope(seq=seq, sender=sender, recipient=recipient, re=re, name=name, body=payload)
        frame = frame_payload(packed, max_frame_size=self.max_frame_size)  # may raise: state unchanged
        if isinstance(body, Welcome):
            self.client_party = body.you
        self.state = outcome
        self._next_seq = max(self._next_seq, seq + 1)
        return frame

    def _own_party(self) -> str:
        if self.role is ConnectionRole.SERVER:
            return str(LOBBY)
        return self.client_party or str(GUEST)

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
        return self.send(Message(Pong(nonce=body.nonce), recipient, sender, command.seq))

    def error_for(self, exc: ProtocolError, *, recipient: str, sender: str | None = None) -> bytes:
        """The frame of an ``error`` command reporting ``exc`` (``re`` = its seq, if known)."""
        return self.send(Message(Error(code=exc.code, message=exc.message[:500], fatal=exc.fatal), recipient, sender,
                                 exc.seq))
