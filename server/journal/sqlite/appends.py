"""The server's own writes to the SQLite journal's move file (:mod:`.movefile`).

With ``synchronous=NORMAL`` (the default) a move is journaled once its record is in the
move file: a ``write()`` that has returned, in the page cache, which survives the server
and its journal's process being killed.  So the server appends the moves to the file
itself and settles them at once: a table's next move as it is journaled, or, when
something queued must come first, the loop turn's moves in one ``write()`` at its end.
A move does not wait for the journal's process (:mod:`.process`; but see below), which is told the
rows written with the next frame it gets anyway, keeps them for the SQLite file (a
table's record when it ends, or all of them when the file is full) and runs everything
else.

What the journal's process would refuse is refused here first: an index past a table's
next one.  A move of a table whose next index this side does not know yet (its first
move since the server started) or of an index journaled before (the same action again,
accepted, or another, refused) is checked by the journal's process
(:class:`CheckAppend`) before it is written, if it is.  A move is not settled while an earlier
write of its table (a seat, the start) is unanswered, so nothing is announced on a
move whose table the journal has not stored.

When the file holds :data:`~.movefile.FILE_ROWS` rows the server stops writing, asks the
journal's process to take every row it was told into the SQLite file
(:class:`TakeInMoves`), and empties the file once that is committed.  With ``FULL`` or
``EXTRA`` every record is flushed to the disk before its answer, which would block the
event loop: then the journal's process writes the file itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum

from ..values import StorageError
from .movefile import FILE_ROWS, Row, record, write_record


@dataclass(frozen=True, slots=True)
class CheckAppend:
    """Ask the journal's process what it makes of an action (:meth:`~.movefile.MoveLog.check`):
    None (journaled already as it is), the index it would take, or why it is refused."""

    table_id: str
    index: int
    action: str


@dataclass(frozen=True, slots=True)
class TakeInMoves:
    """Ask the journal's process to take the rows it was told into the SQLite file
    (:meth:`~.movefile.MoveLog.take_in`); the server empties the file when that is answered."""


class Verdict(Enum):
    """What the server makes of an action by itself."""

    NEW = "new"  # the table's next action: to be written
    ASK = "ask"  # the journal's process must say (an unknown table, an action journaled before)


ROWS_PER_FRAME = 2048
"""Rows written and not yet told to the journal's process that make a frame by themselves
(else they go with the next request it must answer)."""


class MoveWriter:
    """The move file of ``path`` (an SQLite journal's), opened by the server for appending
    after its journal's process opened it (with the lock held) as the file of ``identity``
    (device, inode)."""

    def __init__(self, path: str, identity: tuple[int, int]) -> None:
        self.path = path
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
        except OSError as exc:
            raise StorageError(f"{path}: cannot be opened as the journal's own file: {exc.strerror or exc}") from None
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != tuple(identity):
            os.close(fd)
            raise StorageError(f"{path}: not the move file the journal's process holds")
        self._fd = fd
        self._size = st.st_size  # the file's length: only this side writes it while it is open
        self.identity = identity
        self._next: dict[str, int] = {}  # per table: the index of its next action
        self.rows_in_file = 0
        self._take_in_at = FILE_ROWS

    def verdict(self, table_id: str, index: int) -> Verdict | StorageError:
        """An action, as far as this side knows its table (a NEW one is counted as written:
        :meth:`write` undoes that if it fails)."""
        following = self._next.get(table_id)
        if following is None:
            return Verdict.ASK
        if index == following:
            self._next[table_id] = following + 1
            return Verdict.NEW
        if index > following or index < 0:
            return StorageError(f"table {table_id}: action {index} given, {following} expected")
        return Verdict.ASK  # one journaled before: the journal's process compares it

    def learn(self, table_id: str, following: int) -> bool:
        """The journal's process says ``following`` is the next index of ``table_id`` (kept
        if this side knew nothing of it): whether this side agrees."""
        return self._next.setdefault(table_id, following) == following

    def forget(self, table_id: str) -> None:
        """``table_id`` has ended: its next move, if any, is checked by the journal's process."""
        self._next.pop(table_id, None)

    def write(self, rows: list[Row]) -> None:
        """One record of ``rows`` (each found NEW by :meth:`verdict`), all of it or none:
        if the write fails (OSError, a full disk) nothing of it stays in the file and the
        rows are not counted as written."""
        data = record(rows)
        try:
            write_record(self._fd, data, self._size)
        except OSError:
            self._unwritten(rows)
            raise
        self._size += len(data)
        self.rows_in_file += len(rows)

    def _unwritten(self, rows: list[Row]) -> None:
        """The rows :meth:`verdict` counted were not written after all."""
        for table_id, index, _ in rows:
            following = self._next.get(table_id)
            if following is not None and index < following:
                self._next[table_id] = index

    @property
    def full(self) -> bool:
        """Whether the file holds enough rows to be taken in and emptied."""
        return self.rows_in_file >= self._take_in_at

    def emptied(self) -> None:
        """Every row of the file is in the SQLite file: empty it (if that fails, the rows
        are taken in again, harmlessly, when the file is next opened)."""
        self._take_in_at = FILE_ROWS
        try:
            os.ftruncate(self._fd, 0)
            self._size = 0
        except OSError:
            pass
        self.rows_in_file = 0

    def not_emptied(self) -> None:
        """The rows could not be taken in: try again after a quarter of a file more."""
        self._take_in_at = self.rows_in_file + FILE_ROWS // 4

    def restored(self) -> None:
        """A new journal's process took in the whole file and emptied it."""
        self._take_in_at = FILE_ROWS
        self.rows_in_file = 0
        self._size = os.fstat(self._fd).st_size

    def close(self) -> None:
        os.close(self._fd)
