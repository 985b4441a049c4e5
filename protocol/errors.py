"""Error codes and the exceptions of the protocol layer.

Every error that crosses the wire carries one :class:`ErrorCode`: a closed set, the
same in every language.  Inside Python, failures of the protocol layer itself are
:class:`ProtocolError` subclasses (one per code they stand for), so a caller can write
``except ProtocolError as exc: send(error_body(exc))`` and never see a raw
``ValidationError``, msgpack exception, ``KeyError`` or ``RecursionError``.

Hierarchy (in the manner of h11: who broke the rules decides the branch)::

    ProtocolError                    .code .message .seq .fatal
    ├── RemoteProtocolError          the peer sent something we cannot accept
    │   ├── MalformedFrame           malformed_frame   (not msgpack, not a map, ...)
    │   │   └── TruncatedFrame       malformed_frame   (stream ended inside a frame)
    │   ├── FrameTooLarge            frame_too_large   (fatal: the stream is lost)
    │   ├── BadEnvelope              bad_envelope      (v/seq/sender/... missing or wrong)
    │   ├── BadVersion               bad_version
    │   ├── UnknownCommand           unknown_command
    │   ├── BadBody                  bad_body          (body fields missing/extra/wrong type)
    │   ├── UnexpectedCommand        unexpected_command (wrong direction or state)
    │   ├── NotHelloYet              not_hello_yet
    │   └── ForgedSender             forged_sender
    └── LocalProtocolError           we were about to send something invalid

Game and lobby codes (``not_your_turn``, ``table_full``, ...) are never raised by this
package: the server decides them and sends them in an ``error`` command.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Every error code that may appear in an ``error`` command (closed set)."""

    # framing and decoding (raised by this package)
    MALFORMED_FRAME = "malformed_frame"
    FRAME_TOO_LARGE = "frame_too_large"
    BAD_ENVELOPE = "bad_envelope"
    BAD_VERSION = "bad_version"
    UNKNOWN_COMMAND = "unknown_command"
    BAD_BODY = "bad_body"
    # connection state (raised by Connection)
    UNEXPECTED_COMMAND = "unexpected_command"
    NOT_HELLO_YET = "not_hello_yet"
    FORGED_SENDER = "forged_sender"
    # lobby (decided by the server)
    NAME_TAKEN = "name_taken"
    BAD_TOKEN = "bad_token"
    NO_SUCH_TABLE = "no_such_table"
    PRIVATE_TABLE = "private_table"
    TABLE_FULL = "table_full"
    NOT_AT_TABLE = "not_at_table"
    ALREADY_AT_TABLE = "already_at_table"
    BAD_RULES = "bad_rules"
    UNKNOWN_BOT = "unknown_bot"
    TOO_MANY_TABLES = "too_many_tables"
    BAD_PASSWORD = "bad_password"
    TABLE_ELSEWHERE = "table_elsewhere"
    # a move (decided by the game master)
    GAME_NOT_STARTED = "game_not_started"
    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    ILLEGAL_CAPTURE = "illegal_capture"
    ILLEGAL_MOVE = "illegal_move"
    ILLEGAL_DECLARATION = "illegal_declaration"
    # quick play and tournaments (§16)
    ALREADY_WAITING = "already_waiting"
    NOT_WAITING = "not_waiting"
    NO_SUCH_TOURNAMENT = "no_such_tournament"
    BAD_SETTINGS = "bad_settings"
    TOURNAMENT_STARTED = "tournament_started"
    TOURNAMENT_FULL = "tournament_full"
    ALREADY_REGISTERED = "already_registered"
    NOT_REGISTERED = "not_registered"
    BAD_ENTRANT = "bad_entrant"
    NOT_ALLOWED = "not_allowed"
    TOO_FEW_ENTRANTS = "too_few_entrants"
    # service
    RATE_LIMITED = "rate_limited"
    TIMEOUT = "timeout"
    SHUTTING_DOWN = "shutting_down"
    UNAVAILABLE = "unavailable"
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A protocol failure with its wire :class:`ErrorCode`.

    ``seq`` is the sequence number of the offending command when it could be read (so an
    ``error`` reply can name it in ``re``); ``fatal`` means the byte stream can no longer
    be trusted and the connection should be closed after reporting the error.
    """

    code: ErrorCode = ErrorCode.INTERNAL
    fatal: bool = False

    def __init__(self, message: str, *, seq: int | None = None, fatal: bool | None = None,
                 name: str | None = None, recipient: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.seq = seq
        self.name = name
        """The offending command's name, when it could be read (e.g. ``play`` for a bad body)."""
        self.recipient = recipient
        """The party the offending command was sent to, when it could be read."""
        if fatal is not None:
            self.fatal = fatal

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.value!r}, {self.message!r}, seq={self.seq})"


class RemoteProtocolError(ProtocolError):
    """The peer sent bytes or a command that break the protocol."""


class LocalProtocolError(ProtocolError):
    """We tried to send something the protocol forbids (a bug on our side)."""

    def __init__(self, message: str, *, code: ErrorCode = ErrorCode.INTERNAL, seq: int | None = None) -> None:
        super().__init__(message, seq=seq)
        self.code = code


class MalformedFrame(RemoteProtocolError):
    code = ErrorCode.MALFORMED_FRAME


class TruncatedFrame(MalformedFrame):
    """The byte stream ended in the middle of a frame."""

    fatal = True


class FrameTooLarge(RemoteProtocolError):
    code = ErrorCode.FRAME_TOO_LARGE
    fatal = True


class BadEnvelope(RemoteProtocolError):
    code = ErrorCode.BAD_ENVELOPE


class BadVersion(RemoteProtocolError):
    code = ErrorCode.BAD_VERSION


class UnknownCommand(RemoteProtocolError):
    code = ErrorCode.UNKNOWN_COMMAND


class BadBody(RemoteProtocolError):
    code = ErrorCode.BAD_BODY


class UnexpectedCommand(RemoteProtocolError):
    code = ErrorCode.UNEXPECTED_COMMAND


class NotHelloYet(RemoteProtocolError):
    code = ErrorCode.NOT_HELLO_YET


class ForgedSender(RemoteProtocolError):
    code = ErrorCode.FORGED_SENDER
