"""The server's :class:`~.journal.Journal` for its SQLite file (``scopa serve --db``): the
file is written by a child process, so a commit never competes with the event loop for
the interpreter lock.

Every call is queued at once, in call order, with a future for its result.  At the end
of the event-loop turn the turn's calls (of every table) go to the child as one frame on
its standard input; the child runs every frame that has arrived since its last answer
(:meth:`~.storage.SQLiteStorage.run_batch`: the moves appended to the journal's move
file in one write, :mod:`.movelog`; other calls in one transaction) and writes back one
frame of results, which settle the futures in order.  So a busy server journals many
moves at once, the loop never waits on the disk, and while a write is slow only what
waits for it waits: a table's next announcement (its game master awaits the journaling
of the action), not the lobby or a ping.

A frame is a 4-byte big-endian length and a pickle: from the server, a list of
requests (:mod:`.journal`'s commands and queries; None: a barrier, answered None; a
tuple: an :class:`~.journal.AppendAction` as its three fields, :func:`_calls`, since
every move crosses the pipe and a tuple costs a third of the dataclass to pickle and to
rebuild); from the child, first
None (the file is open) or the exception that refused it, then one list of results per
batch, an exception standing for a call that failed.  If the child ends, every call
waiting on it and every later one fails with :class:`~.archive.StorageError`.

The child is ``python -c "from scopa.server.writer_process import main; main()" PATH
SYNCHRONOUS``.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import pickle
import signal
import sqlite3
import struct
import subprocess
import sys
from typing import Any, BinaryIO, Sequence

from .journal_values import StorageError
from .journal_values import JournalUnavailable
from .journal import AppendAction, AsyncJournalBackend, Journal, JournalBackend, Request, is_postgres
from .movelog import Row
from .storage import SQLiteStorage
from .writer import QueuedStorage, StorageWriter, Pending, run_batch

log = logging.getLogger("scopa.server")

_LENGTH = struct.Struct("!I")
_READ_SIZE = 1 << 16


def _frame(value: object) -> bytes:
    body = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


def _calls(requests: Sequence[Request | None]) -> list[Request | Row | None]:
    """The requests as a frame carries them: each action as its three fields."""
    return [(r.table_id, r.index, r.action) if type(r) is AppendAction else r
            for r in requests]


_new = object.__new__
_set_table, _set_index, _set_action = (vars(AppendAction)[field].__set__ for field in ("table_id", "index", "action"))


def _requests(calls: Sequence[Request | Row | None]) -> list[Request | None]:
    """:func:`_calls` undone: the frame's actions as :class:`~.journal.AppendAction` again,
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


def _frames(buffer: bytearray) -> list[Any]:
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


def _read_first(fd: int) -> Any:
    """The child's first frame, read blocking (it opens the file); EOFError if it ended."""
    buffer = bytearray()
    while not (frames := _frames(buffer)):
        data = os.read(fd, _READ_SIZE)
        if not data:
            raise EOFError
        buffer += data
    return frames[0]


class StorageProcess(QueuedStorage):
    """A :class:`~.journal.Journal` over a :class:`~.storage.SQLiteStorage` in a child
    process.  ``command``: the child's program (default: this module), which gets the
    path and the synchronous mode as its last two arguments."""

    def __init__(self, path: str, synchronous: str = "NORMAL", command: Sequence[str] | None = None) -> None:
        super().__init__()
        self.path = path
        self._argv = [*(command or (sys.executable, "-c", f"from {__name__} import main; main()")), path, synchronous]
        self._sent: collections.deque[Pending] = collections.deque()  # sent, in order, not yet answered
        self._held: list[Pending] = []  # queued while a frame was unanswered: they go with the next one
        self._ended: StorageError | None = None  # the child is gone, and why
        self.batches = 0
        """Frames sent to the child so far (each one batch of calls)."""
        self._start_child()

    def _start_child(self) -> None:
        """Start the child and wait until it has opened the file (or raise why it could not)."""
        self._proc = subprocess.Popen(self._argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._proc.stdin is not None and self._proc.stdout is not None
        try:
            first = _read_first(self._proc.stdout.fileno())
        except EOFError:
            self._proc.stdin.close()
            status = self._proc.wait()
            raise JournalUnavailable(f"{self.path}: the journal's process ended as it started (exit status {status})") \
                from None
        if first is not None:
            self._proc.stdin.close()
            self._proc.wait()
            raise first
        self._out = self._proc.stdin.fileno()
        self._in = self._proc.stdout.fileno()
        os.set_blocking(self._out, False)
        os.set_blocking(self._in, False)
        self._unsent = bytearray()  # what the pipe did not take yet
        self._received = bytearray()
        self._ended = None
        if self._loop is not None:
            self._attach(self._loop)

    def _restart(self) -> bool:
        """After the child ended: a new one (what the old one stored is all there is; what
        it did not answer is tried again).  Whether it started."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.close()
        self._proc.wait()
        self._proc.stdout.close()
        try:
            self._start_child()
        except StorageError as exc:
            self._ended = JournalUnavailable(str(exc))
            return False
        log.warning("storage: the journal's process was started again")
        return True

    # ------------------------------------------------------------------ flow

    async def close(self) -> None:
        if self._closed:
            return
        if self._ended is None:
            try:
                await self.flush()
            except StorageError:
                pass  # the child ended: nothing more to write
        self._closed = True
        self._stop_watching()
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.close()  # the child closes the file and ends
        await asyncio.to_thread(self._proc.wait)
        self._proc.stdout.close()

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.add_reader(self._in, self._readable)

    def _end_turn(self) -> None:
        """End of the loop turn: the turn's calls go to the child in one frame (a child
        that has ended is started again first)."""
        turn, self._turn = self._turn, []
        if not turn:
            return
        if self._sent and self._ended is None:
            self._held.extend(turn)  # one frame at a time: under load each carries more calls
            return
        if self._ended is not None and not self._restart():
            self._settled(turn, [self._ended] * len(turn))
            return
        self._sent.extend(turn)
        self.batches += 1
        data = _frame(_calls([request for request, _ in turn]))
        if self._unsent:
            self._unsent += data
            return
        try:
            written = os.write(self._out, data)
        except BlockingIOError:
            written = 0
        except OSError as exc:
            self._end(f"the journal's process cannot be written to: {exc}")
            return
        if written < len(data):
            self._unsent += data[written:]
            assert self._loop is not None
            self._loop.add_writer(self._out, self._writable)

    def _writable(self) -> None:
        try:
            written = os.write(self._out, self._unsent)
        except BlockingIOError:
            return
        except OSError as exc:
            self._end(f"the journal's process cannot be written to: {exc}")
            return
        del self._unsent[:written]
        if not self._unsent:
            assert self._loop is not None
            self._loop.remove_writer(self._out)

    def _readable(self) -> None:
        try:
            data = os.read(self._in, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:
            self._end(f"the journal's process cannot be read: {exc}")
            return
        if not data:
            self._end(f"the journal's process ended (exit status {self._proc.poll()})")
            return
        self._received += data
        for results in _frames(self._received):
            self._settled([self._sent.popleft() for _ in results], results)
        if self._held and not self._sent:
            self._turn[:0], self._held = self._held, []
            self._end_turn()

    def _end(self, why: str) -> None:
        """The child is gone: every call waiting on it fails, and every later one."""
        if self._ended is not None:
            return
        self._ended = JournalUnavailable(why)
        if not self._closed:
            log.error("storage: %s", why)
        self._stop_watching()
        waiting, self._sent = [*self._sent, *self._held], collections.deque()
        self._held = []
        self._settled(waiting, [self._ended] * len(waiting))

    def _stop_watching(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._in)
            if self._unsent:
                self._loop.remove_writer(self._out)


def open_storage(db: str | None = None,
                 storage: Journal | JournalBackend | AsyncJournalBackend | None = None) -> Journal | None:
    """The server's journal: ``storage`` (a backend is put behind a :class:`~.writer.StorageWriter`),
    or ``db`` (``scopa serve --db``): a PostgreSQL URL (its backend on the event loop), else
    an SQLite file behind a :class:`StorageProcess`; None (no persistence) with neither."""
    if storage is None and db:
        if is_postgres(db):
            from .postgres import PostgresStorage  # psycopg only for a PostgreSQL journal

            return StorageWriter(PostgresStorage(db))
        return StorageProcess(db)
    if isinstance(storage, (JournalBackend, AsyncJournalBackend)):
        return StorageWriter(storage)
    return storage


# ---------------------------------------------------------------------- the child


def _portable(result: Any) -> Any:
    """A result the server can unpickle: another exception than a StorageError becomes one
    with its text."""
    if isinstance(result, (OSError, sqlite3.OperationalError)):
        return JournalUnavailable(f"{type(result).__name__}: {result}")
    if isinstance(result, BaseException) and not isinstance(result, StorageError):
        return StorageError(f"{type(result).__name__}: {result}")
    return result


def serve_file(path: str, synchronous: str, requests: BinaryIO, answers: BinaryIO) -> None:
    """The child: open ``path`` with its move file (:mod:`.movelog`), then run each batch
    that comes on ``requests`` and answer on ``answers`` until ``requests`` ends."""
    try:
        backend = SQLiteStorage(path, synchronous, move_file=True)
    except Exception as exc:  # noqa: BLE001 - told to the server, which raises it
        answers.write(_frame(_portable(exc)))
        answers.flush()
        return
    answers.write(_frame(None))
    answers.flush()
    fd, out = requests.fileno(), answers.fileno()
    received = bytearray()
    stored: dict[int, bytes] = {}  # n -> the answer that n calls are stored (the usual answer), made once
    try:
        while True:
            data = os.read(fd, _READ_SIZE)
            if not data:
                return
            received += data
            batches = _frames(received)
            if not batches:
                continue
            results = run_batch(backend, _requests([call for batch in batches for call in batch]))
            if results.count(None) == len(results):
                answer = stored.get(len(results))
                if answer is None:
                    answer = stored[len(results)] = _frame(results)
            else:
                answer = _frame([_portable(result) for result in results])
            _write_all(out, answer)
            try:
                backend.take_in_moves(when_full=True)  # after the answer: nobody waits for it
            except StorageError:
                pass  # the moves stay in the move file; the next call that reads them says why
    finally:
        backend.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def main(argv: Sequence[str] | None = None) -> None:
    path, synchronous = (sys.argv[1:] if argv is None else list(argv))[-2:]
    # Ctrl-C at the terminal reaches the whole process group: the server stops, then
    # ends this child by closing its input, after the last batch.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    serve_file(path, synchronous, sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main()
