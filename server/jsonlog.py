"""The server's log as JSON lines (``scopa serve --log-format json``), for a log store.

Each record is one object on one line: ``time`` (UTC, ISO 8601), ``level``, ``event``
(what happened, a stable name: ``table.game_started``, ``cluster.member_took_over_tables``),
``table`` and ``member`` when the event has them, and ``message`` (the text line as the
text format writes it), plus ``exception`` with a traceback.

The log calls stay plain ``log.info("table %s: game started ...", table_id, ...)``: the
event is named from the call's format string (its subsystem, ``table``, ``cluster``,
``journal`` ..., and its first words, placeholders left out), the table from the
argument that follows ``table %s`` in it, the member from the one after ``member %s``.
A call may give them itself (``extra={"event": ..., "table": ..., "member": ...}``).  A
cluster member's every line carries its own address as ``member`` unless the event
names another.

>>> event_of("table %s: game started (%s) with %s")
'table.game_started'
>>> event_of("cluster: member %s took over tables %s")
'cluster.member_took_over_tables'
>>> event_of("listening on %s:%s")
'listening_on'
>>> named_argument("journal: table %s stored again", ("12",), "table")
'12'
"""

from __future__ import annotations

import json
import logging
import re
from datetime import datetime, timezone
from typing import Any

_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]")
_SUBSYSTEM = re.compile(r"^([a-z]+)(?: %s)?: ")  # "table %s: ", "cluster: ", "journal: "
_STOP = re.compile(r"[(:;,.!?]")
WORDS = 5  # at most this many words name an event


def event_of(template: str) -> str:
    """A stable name for the event a log call's format string says."""
    found = _SUBSYSTEM.match(template)
    subsystem, rest = (found.group(1), template[found.end():]) if found else ("", template)
    text = _PLACEHOLDER.sub("", rest)
    text = _STOP.split(text, maxsplit=1)[0]
    words = re.findall(r"[a-z0-9]+", text.lower())[:WORDS] or ["message"]
    name = "_".join(words)
    return f"{subsystem}.{name}" if subsystem else name


def named_argument(template: str, args: Any, what: str) -> str | None:
    """The argument that follows ``WHAT %s`` in a format string (``table``, ``member``), if any."""
    if not isinstance(args, tuple):
        return None
    found = re.search(rf"\b{what} %s", template)
    if found is None:
        return None
    index = len(_PLACEHOLDER.findall(template[:found.start()].replace("%%", "")))
    return str(args[index]) if index < len(args) else None


class JsonFormatter(logging.Formatter):
    """One JSON object a line; ``member``: this server's address in its cluster, once
    it has one (set by whoever knows it)."""

    def __init__(self) -> None:
        super().__init__()
        self.member: str | None = None

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
        member = given.get("member") or named_argument(template, record.args, "member") or self.member
        if member is not None:
            entry["member"] = str(member)
        entry["logger"] = record.name
        entry["message"] = record.getMessage()
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


FORMATS = ("text", "json")


def configure(log_format: str) -> JsonFormatter | None:
    """Log the server's events to stderr in ``log_format`` (``text``: ``HH:MM:SS
    message``, as before; ``json``); the JSON formatter, to be told the member's address."""
    handler = logging.StreamHandler()
    formatter: JsonFormatter | None = None
    if log_format == "json":
        formatter = JsonFormatter()
        handler.setFormatter(formatter)
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return formatter
