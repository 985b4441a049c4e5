"""The moves of the SQLite journal's running games, kept first in a file of their own.

A move is journaled when it is in the *move file* beside the SQLite file (``PATH-moves``):
a ``write()`` of a record of moves before anyone is told of them, by the server itself
(:mod:`.appends`; this side is then told the rows, :meth:`MoveLog.logged`) or,
with ``FULL`` or ``EXTRA``, by the journal's process before it answers.  That is the
same promise as a commit to SQLite's write-ahead log with
``synchronous=NORMAL``: the bytes are in the operating system's page cache, which
survives the server and its journal's process being killed; with ``FULL`` or ``EXTRA``
each record is also flushed to the disk (``fdatasync``) before the answer.

A table that ends takes its pending moves from here straight into its compacted record,
so most moves never become rows of the SQLite file.  The rest go into its ``actions``
table in one transaction (:meth:`MoveLog.take_in`), after which the move file is emptied:
when the file holds :data:`FILE_ROWS` moves (while the server writes the file, it empties
it, once it has stopped writing and the rows are taken in), before a call that reads the
actions of running tables, and when the journal closes (then every row of the file).

A record is an 8-byte header (the payload's length and its CRC-32, big-endian) and a
payload, the JSON list of ``[table_id, index, action]`` rows (``action`` as
:func:`~.storage.encode_action` writes it).  A write that fails halfway (a full disk) is cut
off again.  A record cut short or damaged (a crash in the middle of a write, a power
cut, a flipped byte) costs only itself: reading goes on at the next whole record, and
the damage is logged; a table that lost moves in it shows a gap, and is named as
damaged when the journal is next read.  The move file is never a symbolic link: one is
refused, never followed.  Moves taken in and still in the file when a crash came are taken in again
without harm (a row already stored is left as it is), and those of a table that has
ended since are passed over.

The journal's process holds an exclusive lock (``flock``) on the move file for its whole
life, and a second one is refused; its server opens the same file (the same inode) to
append to it.  Whoever else opens the SQLite file
(:class:`~.storage.SQLiteStorage`) takes in what a stopped server left there, and leaves
the file alone while a server holds it.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import struct
import zlib
import time
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from ..values import StorageError, JournalUnavailable
from ..commands import AppendAction

MOVES_SUFFIX = "-moves"
FILE_ROWS = 65536
"""Moves in the move file (about 2 MB) before those of the running games are taken into
the SQLite file and the file is emptied.  Most moves belong to a game that ends before
then and go straight into its record; a smaller file would put more of them into the
``actions`` table only to delete them again when their game ends."""

_HEADER = struct.Struct("!II")  # payload length, CRC-32 of the payload

LOCK_WAIT_SECONDS = 10.0
"""How long a journal being opened waits for the move file's lock: the process of a
server that was just killed still holds it while it takes in what is left and ends."""

Row = tuple[str, int, str]

log = logging.getLogger("scopa.server")


class ActionStore(Protocol):
    """What the move file needs of the SQLite file (:class:`~.storage.SQLiteStorage`)."""

    path: str

    def insert_actions(self, rows: Sequence[Row], restoring: bool = False) -> None: ...

    def action_indices(self, table_id: str) -> set[int]: ...

    def stored_action(self, table_id: str, index: int) -> str | None: ...

    def moves_lost(self, damage: Sequence[Damage]) -> None:
        """Damaged records were passed over: each running table that lost a move in them
        is marked damaged."""
        ...


def moves_path(path: str) -> str:
    """The move file of the SQLite file ``path``."""
    return path + MOVES_SUFFIX


_ENCODER = json.JSONEncoder(separators=(",", ":"))  # made once: json.dumps with separators makes one a call


_QUOTE, _ESCAPED = '"', '\\"'


def _plain(text: str) -> bool:
    """Whether JSON writes ``text`` as it is, but for its quotes (printable ASCII, no backslash)."""
    return text.isascii() and text.isprintable() and "\\" not in text


def _row_json(table_id: str, index: int, action: str) -> str:
    """A row as JSON, as :data:`_ENCODER` writes it: written out where the texts need no
    escaping but of their quotes (a table's number, an encoded action), the encoder's
    own work being most of a move's cost here."""
    if _plain(table_id) and _plain(action):
        return f'["{table_id.replace(_QUOTE, _ESCAPED)}",{index:d},"{action.replace(_QUOTE, _ESCAPED)}"]'
    return _ENCODER.encode((table_id, index, action))


def moves_written_by_server(synchronous: str) -> bool:
    """Whether the server appends the moves to the move file itself (:mod:`.appends`):
    unless every record must be flushed to the disk first (``FULL``, ``EXTRA``), which
    would block its loop; then the journal's process writes and flushes them."""
    return synchronous.upper() not in ("FULL", "EXTRA")


def write_record(fd: int, data: bytes, end: int, flush: bool = False) -> None:
    """One record appended to the move file ``fd`` (``end`` long), all of it or none: a
    write that fails halfway (a full disk) is cut off again, so the file holds only whole
    records; ``flush``: on the disk (``fdatasync``) before this returns."""
    try:
        written = os.write(fd, data)
        if written < len(data):  # cut short: the rest after it
            view = memoryview(data)[written:]
            while view:
                view = view[os.write(fd, view):]
        if flush:
            os.fdatasync(fd)
    except OSError:
        try:
            os.ftruncate(fd, end)
        except OSError:
            pass  # a reader passes over the cut record and reads on after it
        raise


def record(rows: Sequence[Row]) -> bytes:
    """One record of the move file: the header and the rows."""
    payload = ("[" + ",".join([_row_json(t, i, a) for t, i, a in rows]) + "]").encode()
    return _HEADER.pack(len(payload), zlib.crc32(payload)) + payload


def _record_at(data: bytes, start: int) -> list[Row] | None:
    """The rows of the record at ``start``, if a whole, undamaged one starts there."""
    if len(data) - start < _HEADER.size:
        return None
    size, crc = _HEADER.unpack_from(data, start)
    payload = data[start + _HEADER.size:start + _HEADER.size + size]
    if len(payload) < size or zlib.crc32(payload) != crc:
        return None
    try:
        return [(str(t), int(i), str(a)) for t, i, a in json.loads(payload)]
    except (ValueError, TypeError):
        return None


@dataclass(frozen=True)
class Damage:
    """Bytes of the move file passed over that held whole records (a record cut short at
    the end of the file was never answered, so nothing acknowledged was in it)."""

    start: int
    length: int
    rows: tuple[tuple[str, int], ...]
    """The ``(table_id, index)`` of the rows still legible in those bytes."""

    @property
    def reason(self) -> str:
        return (f"moves lost in a damaged record of the move file ({self.length} bytes at byte {self.start}; "
                "passed over when it was read back)")


_ROW_START = re.compile(rb'\["((?:[^"\\]|\\.){1,64})",(\d{1,9}),"')  # a row of a record's payload: ["id",index,"


def read_rows(data: bytes) -> list[Row]:
    """The rows of every whole, undamaged record of ``data`` (see :func:`read_records`)."""
    return read_records(data)[0]


def read_records(data: bytes) -> tuple[list[Row], list[Damage]]:
    """The rows of every whole, undamaged record of ``data``, and what was damaged: a
    damaged or cut record costs only itself (reading goes on at the next whole record
    after it), and is logged."""
    rows: list[Row] = []
    damage: list[Damage] = []
    start = 0
    while len(data) - start >= _HEADER.size:
        found = _record_at(data, start)
        if found is not None:
            rows += found
            start += _HEADER.size + _HEADER.unpack_from(data, start)[0]
            continue
        after = next((i for i in range(start + 1, len(data) - _HEADER.size + 1) if _record_at(data, i) is not None),
                     len(data))
        log.error("journal: %d bytes of the move file are damaged or cut short and were passed over "
                  "(the moves in them are lost)", after - start)
        cut_short = after == len(data) and start + _HEADER.size + _HEADER.unpack_from(data, start)[0] > len(data)
        if not cut_short:
            legible = ((table.decode(errors="replace"), int(index)) for table, index in
                       _ROW_START.findall(data, start, after))
            damage.append(Damage(start, after - start, tuple(legible)))
        start = after
    return rows, damage


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _restore(fd: int, storage: ActionStore) -> int:
    """Take the rows of the move file ``fd`` (its lock held) into ``storage`` and empty it;
    the number of rows read."""
    rows, damage = read_records(_read_all(fd))
    if rows:
        storage.insert_actions(rows, restoring=True)
    if damage:
        storage.moves_lost(damage)
    os.ftruncate(fd, 0)
    return len(rows)


def restore_moves(storage: ActionStore) -> int:
    """Take into ``storage`` the moves a stopped server left in its move file; nothing if
    there is none or a running server holds it.  The number of rows read."""
    try:
        fd = os.open(moves_path(storage.path), os.O_RDWR | os.O_NOFOLLOW)
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise StorageError(f"{moves_path(storage.path)}: cannot be opened as the journal's own file "
                           f"(a symbolic link is never followed): {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0  # a server is writing it: its moves are its own to take in
        return _restore(fd, storage)
    finally:
        os.close(fd)  # and the lock with it


def _locked(path: str, give_up: float) -> int:
    """The move file ``path``, opened (made if need be) with its lock held; StorageError
    if another process holds it until ``give_up`` (``time.monotonic``)."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            raise StorageError(f"{path}: cannot be opened as the journal's own file "
                               f"(a symbolic link is never followed): {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= give_up:
                raise StorageError(f"{path}: another server is journaling to this file") from None
            time.sleep(0.05)
            continue
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the holder removed it as it closed: lock the file now at ``path``


class MoveLog:
    """The move file of ``storage`` while a server journals to it (its lock held): moves
    are appended to it, and taken into the SQLite file when it holds :data:`FILE_ROWS`
    (:meth:`take_in`), or read from it when their table ends (:meth:`pending_of`)."""

    def __init__(self, storage: ActionStore, synchronous: str = "NORMAL", server_writes: bool = False) -> None:
        self.storage = storage
        self.path = moves_path(storage.path)
        self._sync = not moves_written_by_server(synchronous)
        self.server_writes = server_writes
        """Whether the server appends the records itself (:mod:`.appends`): then this
        side is told each row written (:meth:`logged`), checks what the server cannot
        (:meth:`check`), and never empties the file while the server may write to it."""
        self._fd = _locked(self.path, time.monotonic() + LOCK_WAIT_SECONDS)
        try:
            _restore(self._fd, storage)
        except BaseException:
            os.close(self._fd)
            raise
        self._pending: dict[str, dict[int, str]] = {}  # per table: index -> action, not yet in the SQLite file
        self._indices: dict[str, set[int]] = {}  # per table: the indices stored or pending
        self.rows_in_file = 0  # rows appended since the file was last emptied

    def identity(self) -> tuple[int, int]:
        """The file's device and inode (the server checks that it opened the same one)."""
        st = os.fstat(self._fd)
        return st.st_dev, st.st_ino

    @property
    def full(self) -> bool:
        """Whether the file holds enough rows to be taken in."""
        return self.rows_in_file >= FILE_ROWS

    def append(self, commands: Sequence[AppendAction]) -> list[Any]:
        """Actions, each refused (a StorageError in its place) if its table is unknown, its
        index is past the next one, or another action is journaled for it (the same
        action again is accepted as it is); the new ones in one record."""
        out: list[Any] = []
        rows: list[Row] = []
        for command in commands:
            table_id, index, text = command.table_id, command.index, command.action
            try:
                new = self.check(table_id, index, text) is not None
            except StorageError as exc:
                out.append(exc)
                continue
            if new:
                self._indices[table_id].add(index)  # the next one of its table, from now on
                rows.append((table_id, index, text))
            out.append(None)
        if rows:
            try:
                write_record(self._fd, record(rows), os.fstat(self._fd).st_size, self._sync)
            except OSError as exc:
                failed = JournalUnavailable(f"the journal could not write its moves: {exc}")
                for table_id, index, _ in rows:
                    self._indices[table_id].discard(index)
                return [failed if result is None else result for result in out]
            self.logged(rows)
        return out

    def logged(self, rows: Sequence[Row]) -> None:
        """Rows written to the file (by the server itself, each checked there, in order)."""
        pending, indices = self._pending, self._indices
        for table_id, index, text in rows:
            taken = indices.get(table_id)
            if taken is not None:
                taken.add(index)
            moves = pending.get(table_id)
            if moves is None:
                moves = pending[table_id] = {}
            moves[index] = text
        self.rows_in_file += len(rows)

    def check(self, table_id: str, index: int, text: str) -> int | None:
        """What :meth:`append` would do with an action, without writing it: None if it is
        journaled already as it is, else the index it would take (``index``);
        StorageError if it would be refused."""
        taken = self._taken(table_id)
        if index in taken:
            if self._stored(table_id, index) != text:
                raise StorageError(f"table {table_id}: action {index} is journaled already, as another action")
            return None
        if index != len(taken):
            raise StorageError(f"table {table_id}: action {index} given, {len(taken)} expected")
        return index

    def _taken(self, table_id: str) -> set[int]:
        """The indices of ``table_id`` stored or pending; StorageError if there is no such table."""
        taken = self._indices.get(table_id)
        if taken is None:
            taken = self.storage.action_indices(table_id)
            taken.update(self._pending.get(table_id, ()))
            self._indices[table_id] = taken
        return taken

    def _stored(self, table_id: str, index: int) -> str | None:
        """The action journaled for ``index`` (pending here, or in the SQLite file)."""
        pending = self._pending.get(table_id, {}).get(index)
        return pending if pending is not None else self.storage.stored_action(table_id, index)

    def pending_of(self, table_id: str) -> dict[int, str]:
        """The moves of ``table_id`` not yet in the SQLite file, by index."""
        return self._pending.get(table_id, {})

    def forget(self, table_id: str) -> None:
        """``table_id`` has ended: its pending moves are stored with it (or no longer
        count).  They stay in the file until it is emptied; a crash before that leaves
        them there, and the next opening passes them over, as the rows of an ended table."""
        self._pending.pop(table_id, None)
        self._indices.pop(table_id, None)

    def take_in(self) -> None:
        """Every pending move into the SQLite file (one transaction), and the file emptied.
        If that fails (StorageError) they stay pending, and in the file."""
        rows = [(t, i, a) for t, moves in self._pending.items() for i, a in moves.items()]
        if rows:
            self.storage.insert_actions(rows)
        self._pending = {}
        if self.server_writes:  # the server empties the file, once it has stopped writing to it
            self.rows_in_file = 0
            return
        try:
            os.ftruncate(self._fd, 0)
        except OSError:
            return  # taken in again, harmlessly, when the file is next opened
        self.rows_in_file = 0

    def close(self) -> None:
        """Take in what is pending (with the server writing: every row of the file); the
        file is removed when that worked."""
        try:
            if self.server_writes:  # the file holds rows this side may not have been told of
                self._pending = {}
                _restore(self._fd, self.storage)
            else:
                self.take_in()
            os.unlink(self.path)
        except (StorageError, OSError):
            pass  # kept: the next opening takes it in
        finally:
            os.close(self._fd)
