"""Which error codes may answer which command (PROTOCOL.md §7 "Every refusal", §8, §9).

:data:`ANY_COMMAND` are the codes any command may get (a bad frame, envelope or body, a
command out of place, a deadline, the rate, the server stopping or failing);
:data:`COMMAND_ERRORS` the ones particular to each command a client sends.  The tests
hold PROTOCOL.md's "Errors" line of each command to this table, and the server's
refusals to it.
"""

from __future__ import annotations

from ..commands import BODY_TYPES, Flow
from ..errors import ErrorCode as E

ANY_COMMAND: frozenset[E] = frozenset({
    E.MALFORMED_FRAME, E.FRAME_TOO_LARGE, E.BAD_ENVELOPE, E.BAD_VERSION, E.UNKNOWN_COMMAND, E.BAD_BODY,
    E.UNEXPECTED_COMMAND, E.NOT_HELLO_YET, E.FORGED_SENDER, E.TIMEOUT, E.RATE_LIMITED, E.SHUTTING_DOWN, E.INTERNAL,
})  # fmt: skip

_PARTICULAR: dict[str, frozenset[E]] = {
    "hello": frozenset({E.NAME_TAKEN, E.BAD_TOKEN, E.BAD_PASSWORD, E.UNAVAILABLE}),
    "create_table": frozenset({E.ALREADY_AT_TABLE, E.BAD_RULES, E.UNKNOWN_BOT, E.TOO_MANY_TABLES, E.BAD_TOKEN,
                               E.UNAVAILABLE}),
    "join_table": frozenset({E.NO_SUCH_TABLE, E.TABLE_FULL, E.ALREADY_AT_TABLE, E.BAD_TOKEN, E.TABLE_ELSEWHERE}),
    "leave_table": frozenset({E.NOT_AT_TABLE}),
    "watch_table": frozenset({E.NO_SUCH_TABLE, E.ALREADY_AT_TABLE, E.TABLE_ELSEWHERE, E.UNAVAILABLE}),
    "unwatch_table": frozenset({E.NOT_AT_TABLE}),
    "play": frozenset({E.NOT_AT_TABLE, E.GAME_NOT_STARTED, E.NOT_YOUR_TURN, E.CARD_NOT_IN_HAND, E.ILLEGAL_CAPTURE,
                       E.ILLEGAL_MOVE}),
    "declare": frozenset({E.NOT_AT_TABLE, E.GAME_NOT_STARTED, E.NOT_YOUR_TURN, E.ILLEGAL_DECLARATION,
                          E.ILLEGAL_MOVE}),
    "chat": frozenset({E.NOT_AT_TABLE, E.UNAVAILABLE}),
    "admin": frozenset({E.BAD_TOKEN, E.NO_SUCH_TABLE}),
    "get_record": frozenset({E.NO_SUCH_TABLE, E.PRIVATE_TABLE}),
    "claim_name": frozenset({E.NAME_TAKEN}),
    "quick_play": frozenset({E.ALREADY_WAITING, E.ALREADY_AT_TABLE}),
    "quick_leave": frozenset({E.NOT_WAITING}),
    "tournament_create": frozenset({E.BAD_SETTINGS, E.NOT_ALLOWED}),
    "tournament_join": frozenset({E.NO_SUCH_TOURNAMENT, E.TOURNAMENT_STARTED, E.TOURNAMENT_FULL, E.ALREADY_REGISTERED,
                                  E.BAD_ENTRANT}),
    "tournament_leave": frozenset({E.NO_SUCH_TOURNAMENT, E.TOURNAMENT_STARTED, E.NOT_REGISTERED}),
    "tournament_start": frozenset({E.NO_SUCH_TOURNAMENT, E.TOURNAMENT_STARTED, E.NOT_ALLOWED, E.TOO_FEW_ENTRANTS}),
    "get_standings": frozenset({E.NO_SUCH_TOURNAMENT}),
}  # fmt: skip

COMMAND_ERRORS: dict[str, frozenset[E]] = {
    body.NAME: _PARTICULAR.get(body.NAME, frozenset()) for body in BODY_TYPES if body.FLOW is not Flow.TO_CLIENT
}
"""Command name -> the codes particular to it (besides :data:`ANY_COMMAND`)."""


def may_refuse(name: str, code: E) -> bool:
    """Whether the server may answer command ``name`` with ``code``."""
    return code in ANY_COMMAND or code in COMMAND_ERRORS.get(name, frozenset())
