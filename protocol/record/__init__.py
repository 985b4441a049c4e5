"""The game record (docs/RECORDS.md): one JSON document holding a whole finished game, and
its replay through the engine.

Owns the format (``Record``, ``RecordPlayer``, ``PlayerKind``, ``Strategy``, ``RecordRound``,
``RecordPlay``, ``RecordDeclaration``, ``RecordAction``, ``RecordResult``,
``RECORD_FORMAT``), building one from a finished game (``build_record``, ``deck_order``,
``action_from_record``), text in and out (``parse_record``, ``dumps_record``,
``RecordError``, ``MAX_RECORD_FILE_BYTES``, ``record_schema``, ``schema_text``) and the
replay (``replay_steps``, ``Step``, ``check_record``, ``plain_log``, ``RecordMismatch``);
its models are built on first use, or all at once by ``build_record_models``.

Must never: read or write a file (the client's and the server's), or import the wire
commands (they carry a record; a record does not know them).
"""

from __future__ import annotations

from .document import (
    MAX_RECORD_FILE_BYTES,
    RECORD_FORMAT,
    PlayerKind,
    Record,
    RecordAction,
    RecordDeclaration,
    RecordError,
    RecordPlay,
    RecordPlayer,
    RecordResult,
    RecordRound,
    Strategy,
    action_from_record,
    build_record_models,
    build_record,
    deck_order,
    dumps_record,
    parse_record,
    record_schema,
    schema_text,
)
from .replay import RecordMismatch, Step, check_record, plain_log, replay_steps

__all__ = [
    "MAX_RECORD_FILE_BYTES",
    "PlayerKind",
    "RECORD_FORMAT",
    "Record",
    "RecordAction",
    "RecordDeclaration",
    "RecordError",
    "RecordMismatch",
    "RecordPlay",
    "RecordPlayer",
    "RecordResult",
    "RecordRound",
    "Step",
    "Strategy",
    "action_from_record",
    "build_record_models",
    "build_record",
    "check_record",
    "deck_order",
    "dumps_record",
    "parse_record",
    "plain_log",
    "record_schema",
    "replay_steps",
    "schema_text",
]
