"""The server's log as JSON lines (``scopa serve --log-format json``), for a log store.

Each record is one object on one line: ``time`` (UTC, ISO 8601), ``level``, ``event``
(what happened, a stable name: ``table.game_started``, ``cluster.member_took_over_tables``),
``table`` and ``member`` when the event has them, and ``message`` (the text line as the
text format writes it), plus ``exception`` with a traceback.

The log calls stay plain ``log.info("table %s: game started ...", table_id, ...)``: the
event is named from the call's format string (its subsystem, ``table``, ``cluster``,
``journal`` ..., and its first words, placeholders left out), the table from the
argument that follows ``table %s`` in it.  A cluster member's every line carries its
advertised address as ``member`` (from the moment it has joined).  A call may give any
of them itself (``extra={"event": ..., "table": ..., "member": ...}``).

>>> event_of("table %s: game started (%s) with %s")
'table.game_started'
>>> event_of("cluster: member %s took over tables %s")
'cluster.member_took_over_tables'
>>> event_of("listening on %s:%s")
'listening_on'
>>> event_of("table %s: seat %s (%s) is away; waiting %ss")
'table.seat_is_away'
>>> named_argument("journal: table %s stored again", ("12",), "table")
'12'
"""

from __future__ import annotations

import json
import logging
import re
from datetime import datetime, timezone
from collections.abc import Callable
from typing import Any

_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]")
_SUBSYSTEM = re.compile(r"^([a-z]+)(?: %s)?: ")  # "table %s: ", "cluster: ", "journal: "
_STOP = re.compile(r"[(:;,!?]")
WORDS = 5  # at most this many words name an event


def event_of(template: str) -> str:
    """A stable name for the event a log call's format string says."""
    found = _SUBSYSTEM.match(template)
    subsystem, rest = (found.group(1), template[found.end():]) if found else ("", template)
    words = _first_words(rest)
    if len(words) < 2:  # "seat %s (%s) is away": the words around the parentheses
        words = _first_words(re.sub(r"\([^)]*\)", "", rest)) or ["message"]
    name = "_".join(words)
    return f"{subsystem}.{name}" if subsystem else name


def _first_words(text: str) -> list[str]:
    """The words of ``text`` before its first stop, placeholders left out."""
    head = _STOP.split(_PLACEHOLDER.sub("", text), maxsplit=1)[0]
    return re.findall(r"[a-z0-9]+", head.lower())[:WORDS]


def named_argument(template: str, args: Any, what: str) -> str | None:
    """The argument that follows ``WHAT %s`` in a format string (``table``), if any."""
    if not isinstance(args, tuple):
        return None
    found = re.search(rf"\b{what} %s", template)
    if found is None:
        return None
    index = len(_PLACEHOLDER.findall(template[:found.start()].replace("%%", "")))
    return str(args[index]) if index < len(args) else None


class JsonFormatter(logging.Formatter):
    """One JSON object a line; ``member``: this server's address in its cluster, once
    it has one (:func:`follow_member`)."""

    def __init__(self) -> None:
        super().__init__()
        self.member: Callable[[], str] = lambda: ""

    def format(self, record: logging.LogRecord) -> str:
        template = str(record.msg)
        given = record.__dict__
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds")
                    .replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "event": given.get("event") or event_of(template),
        }
        table = given.get("table") or named_argument(template, record.args, "table")
        if table is not None:
            entry["table"] = str(table)
        member = given.get("member") or self.member()
        if member:
            entry["member"] = str(member)
        entry["logger"] = record.name
        entry["message"] = record.getMessage()
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


FORMATS = ("text", "json")


def follow_member(member: Callable[[], str]) -> None:
    """The JSON lines of this process carry ``member()`` (when not empty) as their member."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler.formatter, JsonFormatter):
            handler.formatter.member = member


def configure(log_format: str) -> None:
    """Log the server's events to stderr in ``log_format`` (``text``: ``HH:MM:SS
    message``, as before; ``json``)."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
