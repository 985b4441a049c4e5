"""The SQLite journal's process: ``python -c "from scopa.server.journal.sqlite.child import
main; main()" PATH SYNCHRONOUS``.  It opens the file with its move file (:mod:`.movefile`),
answers the server's frames (:mod:`.pipe`) until its input ends, then closes the
file (taking in what the move file holds)."""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
from typing import Any, BinaryIO, Sequence

from .pipe import READ_SIZE, frame, frames, requests as rebuilt, write_all
from ..values import JournalUnavailable, StorageError
from .appends import CheckAppend, TakeInMoves
from .movefile import MoveLog, moves_written_by_server
from .storage import SQLiteStorage
from ..writer import run_batch

_TOLD = (tuple, CheckAppend, TakeInMoves)  # what the child runs itself, not as journal requests


def _portable(result: Any) -> Any:
    """A result the server can unpickle: another exception than a StorageError becomes one
    with its text."""
    if isinstance(result, (OSError, sqlite3.OperationalError)):
        return JournalUnavailable(f"{type(result).__name__}: {result}")
    if isinstance(result, BaseException) and not isinstance(result, StorageError):
        return StorageError(f"{type(result).__name__}: {result}")
    return result


def serve_file(path: str, synchronous: str, requests: BinaryIO, answers: BinaryIO) -> None:
    """The child: open ``path`` with its move file (:mod:`.movefile`), then run each batch
    that comes on ``requests`` and answer on ``answers`` until ``requests`` ends.  Its first
    answer: None, or with :func:`~.movefile.moves_written_by_server` the move file's identity (device, inode)."""
    told = moves_written_by_server(synchronous)
    try:
        backend = SQLiteStorage(path, synchronous, move_file=True, server_writes=told)
        moves = backend.move_log
        if moves is None:
            raise StorageError(f"{path}: the journal needs a file (not {path!r})")
    except Exception as exc:  # noqa: BLE001 - told to the server, which raises it
        answers.write(frame(_portable(exc)))
        answers.flush()
        return
    answers.write(frame(moves.identity() if told else None))
    answers.flush()
    fd, out = requests.fileno(), answers.fileno()
    received = bytearray()
    stored: dict[int, bytes] = {}  # n -> the answer that n calls are stored (the usual answer), made once
    try:
        while True:
            data = os.read(fd, READ_SIZE)
            if not data:
                return
            received += data
            batches = frames(received)
            if not batches:
                continue
            calls = [call for batch in batches for call in batch]
            results = _run_told(backend, moves, calls) if told else run_batch(backend, rebuilt(calls))
            if not results:
                continue  # rows alone: nothing to answer
            if results.count(None) == len(results):
                answer = stored.get(len(results))
                if answer is None:
                    answer = stored[len(results)] = frame(results)
            else:
                answer = frame([_portable(result) for result in results])
            write_all(out, answer)
            if not told:
                try:
                    backend.take_in_moves(when_full=True)  # after the answer: nobody waits for it
                except StorageError:
                    pass  # the moves stay in the move file; the next call that reads them says why
    finally:
        backend.close()


def _run_told(backend: SQLiteStorage, moves: MoveLog, calls: Sequence[Any]) -> list[Any]:
    """A frame from a server that writes the moves itself: the rows it wrote are noted,
    each :class:`~.appends.CheckAppend` and :class:`~.appends.TakeInMoves` answered,
    each run of other requests run as one batch; the results of all but the rows."""
    out: list[Any] = []
    start, count = 0, len(calls)
    while start < count:
        call = calls[start]
        kind = type(call)
        end = start + 1
        if kind is tuple:
            while end < count and type(calls[end]) is tuple:
                end += 1
            moves.logged(calls[start:end])
        elif kind is CheckAppend:
            try:
                out.append(moves.check(call.table_id, call.index, call.action))
            except StorageError as exc:
                out.append(exc)
        elif kind is TakeInMoves:
            try:
                moves.take_in()
                out.append(None)
            except StorageError as exc:
                out.append(exc)
        else:
            while end < count and type(calls[end]) not in _TOLD:
                end += 1
            out += run_batch(backend, calls[start:end])
        start = end
    return out


def main(argv: Sequence[str] | None = None) -> None:
    path, synchronous = (sys.argv[1:] if argv is None else list(argv))[-2:]
    # Ctrl-C at the terminal reaches the whole process group: the server stops, then
    # ends this child by closing its input, after the last batch.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    serve_file(path, synchronous, sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main()
