"""The protocol described from its models, for docs/PROTOCOL.md, the schemas and the tests:
one example of every command (``example_commands``, ``example_record``), the JSON Schemas
(``protocol_schema``, ``client_schema``, ``render``, ``normalised``, ``SERVER_FILE``,
``CLIENT_FILE``) and which error codes may answer which command (``ANY_COMMAND``,
``COMMAND_ERRORS``, ``may_refuse``).

Must never: be needed to speak the protocol (nothing in the wire core imports it).
"""

from __future__ import annotations

from .examples import example_commands, example_record
from .schema import CLIENT_FILE, SERVER_FILE, client_schema, normalised, protocol_schema, render
from .refusals import ANY_COMMAND, COMMAND_ERRORS, may_refuse

__all__ = [
    "ANY_COMMAND",
    "CLIENT_FILE",
    "COMMAND_ERRORS",
    "SERVER_FILE",
    "client_schema",
    "example_commands",
    "example_record",
    "may_refuse",
    "normalised",
    "protocol_schema",
    "render",
]
