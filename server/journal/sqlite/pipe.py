"""The pipe between the server and its SQLite journal's process (:mod:`.process`,
:mod:`.child`).

A frame is a 4-byte big-endian length and a pickle.  From the server: a list of
requests (:mod:`scopa.server.journal.commands`'s commands and queries; None: a barrier, answered None; a
tuple: a row ``(table_id, index, action)``, which is an :class:`~.journal.AppendAction`
for the process to check and write (:func:`calls`: a tuple costs a third of the
dataclass to pickle and to rebuild), or, with :func:`~.movefile.moves_written_by_server`, a row the server
has written to the move file itself; :class:`~.appends.CheckAppend` and
:class:`~.appends.TakeInMoves`: the move file's own questions).  From the process:
first None (the file is open; with :func:`~.movefile.moves_written_by_server`, the move file's device and
inode) or the exception that refused it, then one list of results for the requests
that get one (all but the rows the server wrote), an exception standing for a call that
failed.
"""

from __future__ import annotations

import os
import pickle
import struct
from typing import Any, Sequence

from ..commands import AppendAction, Request
from .movefile import Row

_LENGTH = struct.Struct("!I")
READ_SIZE = 1 << 16


def frame(value: object) -> bytes:
    body = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


def calls(requests: Sequence[Request | None]) -> list[Request | Row | None]:
    """The requests as a frame carries them: each action as its three fields."""
    return [(r.table_id, r.index, r.action) if type(r) is AppendAction else r
            for r in requests]


_new = object.__new__
_set_table, _set_index, _set_action = (vars(AppendAction)[field].__set__ for field in ("table_id", "index", "action"))


def requests(calls: Sequence[Request | Row | None]) -> list[Request | None]:
    """:func:`calls` undone: the frame's actions as :class:`~.journal.AppendAction` again,
    built through its slots (a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, twice the time)."""
    out: list[Request | None] = []
    for call in calls:
        if type(call) is tuple:
            action = _new(AppendAction)
            _set_table(action, call[0])
            _set_index(action, call[1])
            _set_action(action, call[2])
            out.append(action)
        else:
            out.append(call)  # type: ignore[arg-type]
    return out


def frames(buffer: bytearray) -> list[Any]:
    """The complete frames at the start of ``buffer``, removed from it."""
    out: list[Any] = []
    start = 0
    while len(buffer) - start >= _LENGTH.size:
        (size,) = _LENGTH.unpack_from(buffer, start)
        end = start + _LENGTH.size + size
        if end > len(buffer):
            break
        out.append(pickle.loads(buffer[start + _LENGTH.size:end]))
        start = end
    del buffer[:start]
    return out


def read_first(fd: int) -> Any:
    """The child's first frame, read blocking (it opens the file); EOFError if it ended."""
    buffer = bytearray()
    while not (got := frames(buffer)):
        data = os.read(fd, READ_SIZE)
        if not data:
            raise EOFError
        buffer += data
    return got[0]


def write_all(fd: int, data: bytes) -> None:
    """All of ``data`` to the blocking ``fd``."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
