"""The connection's state machine as one table (in the manner of h11's ``_state.py``).

Every command is of one :class:`Kind` (what it does to a connection's state); the table
:data:`TRANSITIONS` gives, for the role that sends it, the connection's state and the
kind, the state after it or the :class:`Refusal` of it.  Both ends of a connection
look it up: the end that sends a command before it goes out, the end that receives it
as it comes in.  A (role, kind) pair that is not in the table at all is a command that
travels the wrong way (``play`` never comes from the server).

States (the same names on both ends)::

    AWAIT_HELLO --hello--> AWAIT_WELCOME --welcome--> READY --bye--> CLOSED
                 <-error--   (e.g. name_taken: the client may try another hello)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum

from .commands import BODY_BY_NAME, Body, Bye, Error, Flow, Hello, Ping, Pong, Welcome
from .errors import ErrorCode, LocalProtocolError, NotHelloYet, RemoteProtocolError, UnexpectedCommand


class ConnectionRole(StrEnum):
    CLIENT = "client"
    SERVER = "server"


class ConnectionState(StrEnum):
    AWAIT_HELLO = "await_hello"
    AWAIT_WELCOME = "await_welcome"
    READY = "ready"
    CLOSED = "closed"


class Kind(StrEnum):
    """What a command is to the connection's state."""

    HELLO = "hello"
    WELCOME = "welcome"
    REQUEST = "request"  # any other command a client sends
    EVENT = "event"  # any other command a server sends
    PING = "ping"  # ping and pong: at any time, changing nothing
    ERROR = "error"  # an error that is not fatal
    FATAL = "fatal"  # a fatal error
    BYE = "bye"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a command may not travel now: its error code and a message (``{name}``: the
    command's name, ``{role}``: the role of its sender).  The end that would send it
    raises it as a :class:`LocalProtocolError`, the end that receives it as the
    :class:`RemoteProtocolError` of its code."""

    code: ErrorCode
    reason: str

    def message(self, name: str, role: ConnectionRole) -> str:
        return self.reason.format(name=name, role=role.value)

    def received(self, name: str, role: ConnectionRole, seq: int | None) -> RemoteProtocolError:
        """The error of the receiving end (``role``: the sender's)."""
        error = NotHelloYet if self.code is ErrorCode.NOT_HELLO_YET else UnexpectedCommand
        return error(self.message(name, role), seq=seq)

    def sent(self, name: str, role: ConnectionRole) -> LocalProtocolError:
        """The error of the sending end (``role``: its own)."""
        return LocalProtocolError(self.message(name, role), code=self.code)


Outcome = ConnectionState | Refusal

WRONG_WAY = Refusal(ErrorCode.UNEXPECTED_COMMAND, "{name!r} never comes from the {role}")
"""The refusal of a command whose role and kind are not in the table."""
_BEFORE_HELLO = Refusal(ErrorCode.NOT_HELLO_YET, "{name!r} before hello")
_HELLO_AGAIN = Refusal(ErrorCode.UNEXPECTED_COMMAND, "hello was already accepted")
_NO_HELLO = Refusal(ErrorCode.UNEXPECTED_COMMAND, "welcome without a hello")
_CLOSED = Refusal(ErrorCode.UNEXPECTED_COMMAND, "{name!r} after bye")

_C, _S = ConnectionRole.CLIENT, ConnectionRole.SERVER
_AH, _AW, _R, _X = (ConnectionState.AWAIT_HELLO, ConnectionState.AWAIT_WELCOME, ConnectionState.READY,
                    ConnectionState.CLOSED)
_K = Kind

TRANSITIONS: dict[tuple[ConnectionRole, ConnectionState, Kind], Outcome] = {
    # what a client sends
    (_C, _AH, _K.HELLO): _AW, (_C, _AH, _K.REQUEST): _BEFORE_HELLO, (_C, _AH, _K.PING): _AH,
    (_C, _AH, _K.ERROR): _AH, (_C, _AH, _K.FATAL): _X, (_C, _AH, _K.BYE): _X,
    (_C, _AW, _K.HELLO): _AW, (_C, _AW, _K.REQUEST): _BEFORE_HELLO, (_C, _AW, _K.PING): _AW,
    (_C, _AW, _K.ERROR): _AW, (_C, _AW, _K.FATAL): _X, (_C, _AW, _K.BYE): _X,
    (_C, _R, _K.HELLO): _HELLO_AGAIN, (_C, _R, _K.REQUEST): _R, (_C, _R, _K.PING): _R,
    (_C, _R, _K.ERROR): _R, (_C, _R, _K.FATAL): _X, (_C, _R, _K.BYE): _X,
    # what a server sends
    (_S, _AH, _K.WELCOME): _NO_HELLO, (_S, _AH, _K.EVENT): _AH, (_S, _AH, _K.PING): _AH,
    (_S, _AH, _K.ERROR): _AH, (_S, _AH, _K.FATAL): _X, (_S, _AH, _K.BYE): _X,
    (_S, _AW, _K.WELCOME): _R, (_S, _AW, _K.EVENT): _AW, (_S, _AW, _K.PING): _AW,
    (_S, _AW, _K.ERROR): _AH, (_S, _AW, _K.FATAL): _X, (_S, _AW, _K.BYE): _X,  # an error refuses the hello
    (_S, _R, _K.WELCOME): _NO_HELLO, (_S, _R, _K.EVENT): _R, (_S, _R, _K.PING): _R,
    (_S, _R, _K.ERROR): _R, (_S, _R, _K.FATAL): _X, (_S, _R, _K.BYE): _X,
}
"""(role of the sender, state, kind) -> the state after the command, or its refusal."""

_SENT_BY = {_C: (_K.HELLO, _K.REQUEST, _K.PING, _K.ERROR, _K.FATAL, _K.BYE),
            _S: (_K.WELCOME, _K.EVENT, _K.PING, _K.ERROR, _K.FATAL, _K.BYE)}
TRANSITIONS.update({(role, _X, kind): _CLOSED for role, kinds in _SENT_BY.items() for kind in kinds})


def _kind_of_type(kind: type[Body]) -> Kind | None:
    if kind is Hello:
        return Kind.HELLO
    if kind is Welcome:
        return Kind.WELCOME
    if kind is Bye:
        return Kind.BYE
    if kind is Error:
        return None  # fatal or not: see kind_of
    if kind in (Ping, Pong):
        return Kind.PING
    return Kind.REQUEST if kind.FLOW is Flow.TO_SERVER else Kind.EVENT


KIND_BY_NAME: dict[str, Kind] = {name: k for name, t in BODY_BY_NAME.items() if (k := _kind_of_type(t)) is not None}
"""The kind of every command name but ``error`` (whose kind depends on its body)."""


def kind_of(body: Body) -> Kind:
    """The kind of one command's body."""
    if isinstance(body, Error):
        return Kind.FATAL if body.fatal else Kind.ERROR
    return KIND_BY_NAME[body.NAME]


def step(role: ConnectionRole, state: ConnectionState, kind: Kind) -> Outcome:
    """The state after a command of ``kind`` sent by ``role`` in ``state``, or its refusal."""
    return TRANSITIONS.get((role, state, kind), WRONG_WAY)


@functools.cache
def sendable_states(role: ConnectionRole, kind: Kind) -> frozenset[ConnectionState]:
    """The states in which ``role`` may send a command of ``kind`` that leaves the
    state as it is (what a command packed once for many connections is checked against
    on each of them; one set per role and kind, shared by every command prepared)."""
    found = set()
    for state in ConnectionState:
        if step(role, state, kind) is state:
            found.add(state)
    return frozenset(found)


STATELESS: frozenset[Kind] = frozenset(
    kind for kind in Kind
    if all(isinstance(o := step(role, state, kind), Refusal) or o is state
           for role in ConnectionRole for state in ConnectionState))
"""The kinds that never change a connection's state: the only ones that may be sent with
their body packed already (the state of the others depends on the body)."""
