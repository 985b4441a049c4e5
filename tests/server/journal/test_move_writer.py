"""The server appends the moves to the SQLite journal's move file itself
(server/journal/sqlite/appends.py): a move is settled once its record is written there, without
waiting for the journal's process (R7: an action is journaled before anyone is told of
it), but never before an earlier write of its table is stored; a full move file is
taken into the SQLite file and emptied; and what the server wrote is kept whatever
happens to the server or to the journal's process."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.engine import Deal, Play, RuleSet
from scopa.server.journal.sqlite import appends as move_writer
from scopa.server.journal.commands import AppendAction, CreateTable, SetSeat
from scopa.server.journal.values import StorageError
from scopa.server.journal.sqlite.movefile import moves_path, read_rows
from scopa.server.journal.sqlite.process import StorageProcess

DEAL = Deal(tuple(range(40)))


def _rows(path: Path) -> list[tuple[str, int]]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT table_id, idx FROM actions ORDER BY table_id, idx").fetchall()
    finally:
        con.close()


async def _table_with_its_deal(storage: StorageProcess, table: str) -> None:
    await storage.write(CreateTable(table, RuleSet(), 7))
    await storage.write(AppendAction.of(table, 0, DEAL))  # its first move: checked by the journal's process


async def test_a_move_is_settled_once_in_the_move_file_while_the_journals_process_is_stopped(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    storage = StorageProcess(str(path))
    try:
        await _table_with_its_deal(storage, "1")
        os.kill(storage._proc.pid, signal.SIGSTOP)
        try:
            await asyncio.wait_for(storage.write(AppendAction.of("1", 1, Play(3, 0))), 30)
            rows = read_rows(Path(moves_path(str(path))).read_bytes())
            assert ("1", 1, AppendAction.of("1", 1, Play(3, 0)).action) in rows
            gap = storage.write(AppendAction.of("1", 5, Play(4, 0)))  # refused here, as the process would
            with pytest.raises(StorageError, match="action 5 given, 2 expected"):
                await asyncio.wait_for(gap, 30)
        finally:
            os.kill(storage._proc.pid, signal.SIGCONT)
    finally:
        await storage.close()
    assert _rows(path) == [("1", 0), ("1", 1)]


async def test_a_move_waits_for_an_earlier_write_of_its_table(tmp_path: Path) -> None:
    storage = StorageProcess(str(tmp_path / "j.db"))
    try:
        await _table_with_its_deal(storage, "1")
        await _table_with_its_deal(storage, "2")
        os.kill(storage._proc.pid, signal.SIGSTOP)
        try:
            seat = storage.write(SetSeat("1", 0, "ada"))
            gated = storage.write(AppendAction.of("1", 1, Play(3, 0)))
            free = storage.write(AppendAction.of("2", 1, Play(3, 0)))
            await asyncio.wait_for(free, 30)  # another table's move does not wait
            assert not gated.done() and not seat.done()
        finally:
            os.kill(storage._proc.pid, signal.SIGCONT)
        settled_after_seat: list[bool] = []
        gated.add_done_callback(lambda _: settled_after_seat.append(seat.done()))
        await asyncio.wait_for(gated, 30)
        assert settled_after_seat == [True]
    finally:
        await storage.close()


async def test_a_full_move_file_is_taken_into_the_sqlite_file_and_emptied(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(move_writer, "FILE_ROWS", 50)
    path = tmp_path / "j.db"
    storage = StorageProcess(str(path))
    try:
        await _table_with_its_deal(storage, "1")
        for index in range(1, 80):
            await storage.write(AppendAction.of("1", index, Play(index % 40, 0)))
        await storage.flush()
        assert len(_rows(path)) >= 50  # the running table's moves, taken in as the file filled
        left = read_rows(Path(moves_path(str(path))).read_bytes())
        assert len(left) < 50 and all(index >= 50 for _, index, _ in left)  # emptied, then written on
        [stored] = await storage.load_unfinished()
        assert len(stored.actions) == 80
    finally:
        await storage.close()
    assert len(_rows(path)) == 80


def test_moves_the_journals_process_was_never_told_of_are_kept_when_the_server_is_killed(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    server = subprocess.run(
        [sys.executable, "-c", "import asyncio, os, signal, sys\n"
         "from scopa.engine import Deal, Play, RuleSet\n"
         "from scopa.server.journal.commands import AppendAction, CreateTable\n"
         "from scopa.server.journal.sqlite.process import StorageProcess\n"
         "async def main():\n"
         "    storage = StorageProcess(sys.argv[1])\n"
         "    await storage.write(CreateTable('1', RuleSet(), 7))\n"
         "    await storage.write(AppendAction.of('1', 0, Deal(tuple(range(40)))))\n"
         "    for i in range(1, 30):\n"
         "        await storage.write(AppendAction.of('1', i, Play(i, 0)))\n"
         "    print(storage._proc.pid, len(storage._out), flush=True)\n"
         "    os.kill(os.getpid(), signal.SIGKILL)\n"
         "asyncio.run(main())\n", str(path)],
        capture_output=True, text=True, timeout=60)
    assert server.returncode == -signal.SIGKILL, server.stderr
    child, untold = (int(word) for word in server.stdout.split())
    assert untold > 0  # rows written to the move file, not yet sent to the journal's process
    try:
        ended = os.pidfd_open(child)
    except ProcessLookupError:
        ended = None
    if ended is not None:
        try:
            readable, _, _ = select.select([ended], [], [], 60)  # the child takes in the file as it ends
            assert readable, "the journal's process outlived its server"
        finally:
            os.close(ended)
    assert _rows(path) == [("1", i) for i in range(30)]


async def test_with_full_synchronous_the_journals_process_writes_the_moves(tmp_path: Path) -> None:
    """Each record flushed to the disk before its answer: never on the server's event loop."""
    path = tmp_path / "j.db"
    storage = StorageProcess(str(path), "FULL")
    try:
        assert storage._writer is None
        await _table_with_its_deal(storage, "1")
        os.kill(storage._proc.pid, signal.SIGSTOP)
        try:
            move = storage.write(AppendAction.of("1", 1, Play(3, 0)))
            await asyncio.sleep(0)
            assert not move.done()  # it waits for the journal's process
        finally:
            os.kill(storage._proc.pid, signal.SIGCONT)
        await asyncio.wait_for(move, 30)
        assert [i for _, i, _ in read_rows(Path(moves_path(str(path))).read_bytes())] == [0, 1]
    finally:
        await storage.close()
    assert _rows(path) == [("1", 0), ("1", 1)]
