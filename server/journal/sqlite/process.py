"""The server's :class:`~.journal.Journal` for its SQLite file (``scopa serve --db``): the
file is written by a child process (:mod:`.child`), so a commit never competes
with the event loop for the interpreter lock.

Every call is queued at once, in call order, with a future for its result.  At the end
of the event-loop turn the turn's moves are appended to the journal's move file here
(:mod:`.appends`) and settled; the turn's other calls (of every table) go to the
child as one frame on its standard input (:mod:`.pipe`), with the rows written
since the last frame.  The child runs every frame that has arrived since its last answer
(other calls in one transaction) and writes back one frame of results, which settle the
futures in order.  So a busy server journals many moves at once, the loop never waits
on the disk, and while a write is slow only what waits for it waits: a table's next
announcement (its game master awaits the journaling of the action), not the lobby or a
ping.  With ``synchronous=FULL`` the child writes the moves too (each record flushed to
the disk before its answer).  If the child ends, it is started again; every call
waiting on it is tried again, and fails with :class:`~scopa.server.journal.values.JournalUnavailable`
while it cannot be.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import os
import subprocess
import sys
import time
from typing import Any, Sequence

from ...core import ctrl_c_held, metrics
from ..commands import ENDS, AppendAction, Command, Journal, Request, table_of
from .pipe import READ_SIZE, calls, frame, frames, read_first
from ..values import JournalUnavailable, StorageError
from .appends import ROWS_PER_FRAME, CheckAppend, MoveWriter, TakeInMoves, Verdict
from .movefile import Row, moves_path
from ..writer import QueuedStorage, Pending

__all__ = ["StorageProcess"]

log = logging.getLogger("scopa.server")

_CHILD = "from scopa.server.journal.sqlite.child import main; main()"
Sent = tuple["Request | CheckAppend | TakeInMoves | None", "asyncio.Future[Any]"]
"""A request for the child (a journal request, or one of the move file's) and its future."""


class StorageProcess(QueuedStorage):
    """A :class:`~.journal.Journal` over a :class:`~.storage.SQLiteStorage` in a child
    process.  ``command``: the child's program (default: :mod:`.child`), which gets the
    path and the synchronous mode as its last two arguments.

    With :func:`~.movefile.moves_written_by_server` the moves are written to the move file here
    (:class:`~.appends.MoveWriter`) and settled at once; the child is told them with
    the next frame that carries a request (or :data:`~.appends.ROWS_PER_FRAME` of them)."""

    def __init__(self, path: str, synchronous: str = "NORMAL", command: Sequence[str] | None = None) -> None:
        super().__init__()
        self.path = path
        self._argv = [*(command or (sys.executable, "-c", _CHILD)), path, synchronous]
        self._writer: MoveWriter | None = None  # the move file, if the child says the server writes it
        self._sent: collections.deque[Sent] = collections.deque()  # sent, in order, not yet answered
        self._out: list[Any] = []  # the next frame: requests (and rows written here), in order
        self._out_pending: list[Sent] = []  # the requests of ``_out`` the child answers, in order
        self._front: list[Pending] = []  # moves the child has checked: first in the next turn
        self._deferred: list[Pending] = []  # queued while the move file is being emptied
        self._taking_in = False  # a TakeInMoves is unanswered: nothing is written to the file
        self._open: dict[str, int] = {}  # per table: its writes other than moves not yet settled
        self._gated: dict[str, list[Pending]] = {}  # per table: moves written, settled once those are
        self._asking: dict[str, list[Pending]] = {}  # per table with a CheckAppend unanswered: its later moves
        self._stored_now: asyncio.Future[None] | None = None  # settled: what every move written at once gets
        self._ended: StorageError | None = None  # the child is gone, and why
        self.batches = 0
        """Frames sent to the child so far (each one batch of calls)."""
        self._sent_at = 0.0  # when the unanswered frame was sent (time.perf_counter)
        self._start_child()

    def _start_child(self) -> None:
        """Start the child and wait until it has opened the file (or raise why it could not)."""
        with ctrl_c_held():  # the terminal's Ctrl-C is the server's: it ends this child itself
            self._proc = subprocess.Popen(self._argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._proc.stdin is not None and self._proc.stdout is not None
        try:
            first = read_first(self._proc.stdout.fileno())
        except EOFError:
            self._proc.stdin.close()
            status = self._proc.wait()
            raise JournalUnavailable(f"{self.path}: the journal's process ended as it started (exit status {status})") \
                from None
        if isinstance(first, BaseException):
            self._proc.stdin.close()
            self._proc.wait()
            raise first
        if first is not None:  # the move file's identity: the server writes it
            self._open_writer(first)
        self._out_fd = self._proc.stdin.fileno()
        self._in = self._proc.stdout.fileno()
        os.set_blocking(self._out_fd, False)
        os.set_blocking(self._in, False)
        self._unsent = bytearray()  # what the pipe did not take yet
        self._received = bytearray()
        self._ended = None
        if self._loop is not None:
            self._attach(self._loop)

    def _open_writer(self, identity: tuple[int, int]) -> None:
        """The move file the child holds (it took in and emptied what was there), opened here."""
        if self._writer is not None and self._writer.identity == tuple(identity):
            self._writer.restored()
            return
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        try:
            self._writer = MoveWriter(moves_path(self.path), identity)
        except StorageError:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            self._proc.wait()
            raise

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
        if self._writer is not None:
            self._writer.close()
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.close()  # the child closes the file and ends
        await asyncio.to_thread(self._proc.wait)
        self._proc.stdout.close()

    def write(self, command: Command) -> asyncio.Future[None]:
        if self._writer is None:  # the child writes the moves: everything in call order
            return self._submit(command)
        if type(command) is AppendAction:
            return self._write_now(command, self._writer) or self._submit(command)
        future = self._submit(command)
        table = table_of(command)
        if table is not None:  # the table's moves are not settled before it is
            self._open[table] = self._open.get(table, 0) + 1
            future.add_done_callback(functools.partial(self._settled_write, table, type(command) in ENDS))
        return future

    def _write_now(self, move: AppendAction, writer: MoveWriter) -> asyncio.Future[None] | None:
        """A table's next move written to the move file at once, when nothing queued could
        have to come before it: a future already settled (one for all such moves, so its
        table goes on without waiting for the loop's next turn); None if it must be queued."""
        loop = self._loop
        if loop is None or self._turn or self._front or self._taking_in or self._waiting or self._closed \
                or self._ended is not None or move.table_id in self._open or move.table_id in self._asking:
            return None
        if writer.verdict(move.table_id, move.index) is not Verdict.NEW:
            return None  # nothing counted: the queue's turn says what it is
        row = (move.table_id, move.index, move.action)
        try:
            writer.write([row])
        except OSError:
            return None  # queued: tried again there, and refused for now if the disk is full
        self._out.append(row)
        future = self._stored_now
        if future is None:
            future = self._stored_now = loop.create_future()
            future.set_result(None)
        if writer.full:
            self._take_in(writer)
            self._send()
        elif len(self._out) >= ROWS_PER_FRAME:
            self._send()
        return future

    def queued(self) -> int:
        return len(self._turn) + len(self._front) + len(self._deferred) + len(self._out_pending) + len(self._sent)

    def _take_in(self, writer: MoveWriter) -> None:
        """The move file is full: nothing more is written to it until the child has taken
        in every row it was told (:class:`~.appends.TakeInMoves`) and it is emptied."""
        assert self._loop is not None
        self._taking_in = True
        self._out.append(TakeInMoves())
        self._out_pending.append((TakeInMoves(), self._loop.create_future()))

    def _settled_write(self, table: str, ends: bool, future: asyncio.Future[Any]) -> None:
        if ends and not future.cancelled() and future.exception() is None and self._writer is not None:
            self._writer.forget(table)
        left = self._open[table] - 1
        if left:
            self._open[table] = left
            return
        del self._open[table]
        gated = self._gated.pop(table, None)
        if gated:
            self._settled(gated, [None] * len(gated))

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.add_reader(self._in, self._readable)

    def _end_turn(self) -> None:
        """End of the loop turn: the turn's moves written to the move file (with a writer
        here), the rest to the child in one frame (a child that has ended is started again
        first)."""
        turn, self._turn = self._turn, []
        if self._front:
            turn[:0], self._front = self._front, []
        if not turn:
            return
        if self._ended is not None and not self._restart():
            self._settled(turn, [self._ended] * len(turn))
            return
        if self._taking_in:
            self._deferred.extend(turn)
            return
        if self._writer is None:  # the child writes the moves
            self._out += calls([request for request, _ in turn])
            self._out_pending += turn
        else:
            self._write_moves(turn, self._writer)
        self._send()

    def _write_moves(self, turn: list[Pending], writer: MoveWriter) -> None:
        """The turn's moves that are new written in one record and settled (once their
        table's earlier writes are); the rest (and moves to check) for the child."""
        rows: list[Row] = []
        written: list[Pending] = []
        told: list[Any] = []
        done: list[Pending] = []
        results: list[Any] = []
        for pending in turn:
            request = pending[0]
            if type(request) is not AppendAction:
                told.append(request)
                self._out_pending.append(pending)
                continue
            verdict = writer.verdict(request.table_id, request.index)
            if verdict is Verdict.NEW:
                row = (request.table_id, request.index, request.action)
                rows.append(row)
                told.append(row)
                written.append(pending)
            elif verdict is Verdict.ASK:
                later = self._asking.get(request.table_id)
                if later is not None:  # after the answer to the one asked about
                    later.append(pending)
                    continue
                self._asking[request.table_id] = []
                check = CheckAppend(request.table_id, request.index, request.action)
                told.append(check)
                self._out_pending.append((check, pending[1]))
            else:
                done.append(pending)
                results.append(verdict)
        if rows:
            try:
                writer.write(rows)
            except OSError as exc:
                told = [item for item in told if type(item) is not tuple]
                failed = JournalUnavailable(f"the journal could not write its moves: {exc}")
                done += written
                results += [failed] * len(written)
                written = []
        self._out += told
        now: list[Pending] = []
        for pending in written:
            table = pending[0].table_id  # type: ignore[union-attr]
            if table in self._open:
                self._gated.setdefault(table, []).append(pending)
                if self._waiting:
                    self._stored_again(table)
            else:
                now.append(pending)
        if self._waiting:
            self._settled(now, [None] * len(now))
        else:
            for _, future in now:
                if not future.done():  # done: its waiter was cancelled
                    future.set_result(None)
        if done:
            self._settled(done, results)
        if writer.full:
            self._take_in(writer)

    def _send(self) -> None:
        """``_out`` to the child as one frame, unless a frame is unanswered (one at a time:
        under load each carries more calls) or it holds only rows, and few of them."""
        if self._sent or not self._out or (not self._out_pending and len(self._out) < ROWS_PER_FRAME):
            return
        items, self._out = self._out, []
        self._sent.extend(self._out_pending)
        self._out_pending = []
        self.batches += 1
        self._sent_at = time.perf_counter()
        data = frame(items)
        if self._unsent:
            self._unsent += data
            return
        try:
            written = os.write(self._out_fd, data)
        except BlockingIOError:
            written = 0
        except OSError as exc:
            self._end(f"the journal's process cannot be written to: {exc}")
            return
        if written < len(data):
            self._unsent += data[written:]
            assert self._loop is not None
            self._loop.add_writer(self._out_fd, self._writable)

    def _writable(self) -> None:
        try:
            written = os.write(self._out_fd, self._unsent)
        except BlockingIOError:
            return
        except OSError as exc:
            self._end(f"the journal's process cannot be written to: {exc}")
            return
        del self._unsent[:written]
        if not self._unsent:
            assert self._loop is not None
            self._loop.remove_writer(self._out_fd)

    def _readable(self) -> None:
        try:
            data = os.read(self._in, READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:
            self._end(f"the journal's process cannot be read: {exc}")
            return
        if not data:
            self._end(f"the journal's process ended (exit status {self._proc.poll()})")
            return
        self._received += data
        for results in frames(self._received):
            metrics.JOURNAL_WRITE_SECONDS.observe(time.perf_counter() - self._sent_at)
            self._answered([self._sent.popleft() for _ in results], results)
        self._send()

    def _answered(self, pending: Sequence[Sent], results: Sequence[Any]) -> None:
        """The child's results: a checked move is written here in the next turn, an emptying
        of the move file is done; the rest settle their futures."""
        plain: list[Pending] = []
        plain_results: list[Any] = []
        for (request, future), result in zip(pending, results):
            if isinstance(request, CheckAppend):
                original = AppendAction(request.table_id, request.index, request.action)
                later = self._asking.pop(request.table_id, [])
                if result is None or isinstance(result, BaseException):
                    plain.append((original, future))
                    plain_results.append(result)
                else:  # the table's next index: written in the next turn (unless this side knows better)
                    assert self._writer is not None
                    if self._writer.learn(request.table_id, result):
                        self._front.append((original, future))
                    else:
                        plain.append((original, future))
                        plain_results.append(StorageError(f"table {request.table_id}: action {request.index} "
                                                          "is not the next one"))
                self._front += later
            elif isinstance(request, TakeInMoves):
                self._taken_in(result)
            else:
                plain.append((request, future))
                plain_results.append(result)
        if self._front:  # checked moves, and what waited for the move file's emptying: the next turn
            assert self._loop is not None
            self._loop.call_soon(self._end_turn)
        if plain:
            self._settled(plain, plain_results)

    def _taken_in(self, result: Any) -> None:
        """The child's answer to :class:`~.appends.TakeInMoves`: the move file emptied
        (if the rows are in the SQLite file), and what waited for it goes on."""
        self._taking_in = False
        assert self._writer is not None
        if result is None:
            self._writer.emptied()
        else:
            if self._ended is None:
                log.warning("storage: the moves could not be taken into the SQLite file for now (%s)", result)
            self._writer.not_emptied()
        self._front[:0], self._deferred = self._deferred, []  # next turn (:meth:`_answered`)

    def _end(self, why: str) -> None:
        """The child is gone: every call waiting on it fails, and every later one (the
        rows written here are in the move file, which the next child takes in)."""
        if self._ended is not None:
            return
        self._ended = JournalUnavailable(why)
        if not self._closed:
            log.error("storage: %s", why)
        self._stop_watching()
        waiting: list[Sent] = [*self._sent, *self._out_pending]
        self._sent = collections.deque()
        self._out, self._out_pending = [], []
        self._answered(waiting, [self._ended] * len(waiting))

    def _stop_watching(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._in)
            if self._unsent:
                self._loop.remove_writer(self._out_fd)

