"""The journal of ``scopa serve --db`` (server/journal/sqlite/process.py): a child process writes
the SQLite file.  A turn's writes share one commit, a reply of any size comes back whole,
a batch larger than the pipe holds goes through, and if the child ends every waiting and
later call fails with a StorageError while the server carries on (R7: an action is
journaled before anyone is told of it)."""

from __future__ import annotations

import asyncio
import logging
import os
import select
import signal
import subprocess
import sys
import sqlite3
from pathlib import Path

import pytest

from scopa.engine import Deal, Play, RuleSet
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.journal.sqlite.storage import (
    SCHEMA_VERSION, JournalTooNew, SQLiteStorage, StorageError, decode_action
)
from scopa.server.journal.sqlite.movefile import moves_path
from scopa.server.journal.sqlite.process import StorageProcess
from scopa.server.journal.commands import AppendAction, CreateTable

from wire_client import WireClient

DEAL = Deal(tuple(range(40)))


def _rows(path: Path) -> list[tuple[str, int, str]]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT table_id, idx, action FROM actions ORDER BY table_id, idx").fetchall()
    finally:
        con.close()


async def test_writes_are_committed_by_the_child_before_their_futures_resolve(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    storage = StorageProcess(str(path))
    try:
        await asyncio.gather(*(storage.write(CreateTable(t, RuleSet(), 7)) for t in ("1", "2")))
        play = Play(3, 0)
        await asyncio.gather(storage.write(AppendAction.of("1", 0, DEAL)), storage.write(AppendAction.of("2", 0, DEAL)),
                             storage.write(AppendAction.of("1", 1, play)))
        assert storage._proc.pid != 0 and storage._proc.poll() is None  # another process did it
        # Journaled: with the child killed at once, the file and its move file hold all three.
        storage._proc.send_signal(signal.SIGKILL)
        storage._proc.wait()
        assert Path(moves_path(str(path))).stat().st_size > 0  # not yet in the SQLite file itself
        reopened = SQLiteStorage(str(path))
        reopened.close()
        rows = _rows(path)
        assert [(t, i) for t, i, _ in rows] == [("1", 0), ("1", 1), ("2", 0)]
        assert decode_action(rows[1][2]) == play
    finally:
        await storage.close()


async def test_closing_the_journal_ends_its_child_with_every_move_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    storage = StorageProcess(str(path))
    try:
        await storage.write(CreateTable("1", RuleSet(), 7))
        await asyncio.gather(storage.write(AppendAction.of("1", 0, DEAL)), storage.write(AppendAction.of("1", 1, Play(3, 0))))
    finally:
        await storage.close()
    assert storage._proc.returncode == 0  # closing its input ends the child cleanly
    assert [(t, i) for t, i, _ in _rows(path)] == [("1", 0), ("1", 1)]
    assert not Path(moves_path(str(path))).exists()  # taken in, and removed


async def test_an_index_written_twice_fails_alone(tmp_path: Path) -> None:
    storage = StorageProcess(str(tmp_path / "j.db"))
    try:
        await storage.write(CreateTable("1", RuleSet(), 7))
        first = storage.write(AppendAction.of("1", 0, DEAL))
        again = storage.write(AppendAction.of("1", 0, Play(9, 0)))  # another action for the same index: refused
        after = storage.write(AppendAction.of("1", 1, Play(3, 0)))
        await first
        with pytest.raises(StorageError):
            await again
        await after
        [stored] = await storage.load_unfinished()
        assert stored.actions == [DEAL, Play(3, 0)]
    finally:
        await storage.close()


async def test_a_batch_larger_than_the_pipe_and_a_large_reply_go_through(tmp_path: Path) -> None:
    storage = StorageProcess(str(tmp_path / "j.db"))
    try:
        tables = [str(n) for n in range(1, 301)]
        written = [storage.write(CreateTable(t, RuleSet(), n)) for n, t in enumerate(tables)]
        written += [storage.write(AppendAction.of(t, i, DEAL if i == 0 else Play(i % 40, 0)))
                    for t in tables for i in range(40)]  # 12,000 calls in one loop turn
        assert storage._turn and not storage._sent
        await asyncio.gather(*written)
        await storage.flush()  # the moves were settled once in the move file; the frames go on
        assert not storage._unsent  # what the pipe did not take at once was written later
        stored = await storage.load_unfinished()  # a reply of hundreds of kilobytes
        assert sorted(s.id for s in stored) == sorted(tables)
        assert all(len(s.actions) == 40 for s in stored)
    finally:
        await storage.close()


async def test_a_file_the_child_cannot_open_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    SQLiteStorage(str(path)).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
    con.commit()
    con.close()
    with pytest.raises(JournalTooNew, match="newer version"):
        StorageProcess(str(path))
    with pytest.raises(StorageError):
        StorageProcess(str(tmp_path / "no such folder" / "j.db"))


async def test_a_child_that_ends_is_started_again_and_the_play_waits_for_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=4, db=str(tmp_path / "j.db"))
    await engine.start()
    try:
        storage = engine.storage
        assert isinstance(storage, StorageProcess)
        a = await WireClient.connect(engine.port, "ada")
        table = await a.create(bots=["random"])
        turn = (await a.recv_until("your_turn")).body
        storage._proc.send_signal(signal.SIGKILL)
        storage._proc.wait()
        with caplog.at_level(logging.WARNING, logger="scopa.server"):
            a.send(wire.PlayCard(card=turn.legal[0].card, capture=turn.legal[0].capture), recipient=f"table:{table}")
            played = await a.recv_until("played", "game_end")  # journaled by the new child, then announced
            assert played.name == "played"
        assert any("journal's process ended" in r.getMessage() for r in caplog.records)
        assert any("started again" in r.getMessage() for r in caplog.records)
        journaled = await storage.load_actions(table)
        assert len(journaled) >= 2 and isinstance(journaled[1], Play)  # the deal, ada's play (and the bot's)
        await a.close()
    finally:
        await engine.stop()


async def test_the_child_ignores_ctrl_c_so_the_server_can_flush_on_its_way_out(tmp_path: Path) -> None:
    storage = StorageProcess(str(tmp_path / "j.db"))
    try:
        storage._proc.send_signal(signal.SIGINT)  # what a terminal's Ctrl-C sends the whole group
        await storage.write(CreateTable("1", RuleSet(), 7))
        assert storage._proc.poll() is None
    finally:
        await storage.close()
    assert storage._proc.returncode == 0


def test_the_child_ends_when_its_server_is_killed(tmp_path: Path) -> None:
    """A server killed with SIGKILL cannot close the child's input; the kernel does, and
    the child ends by itself (no orphan holding the file)."""
    server = subprocess.run(
        [sys.executable, "-c", "import os, signal, sys\n"
         "from scopa.server.journal.sqlite.process import StorageProcess\n"
         "storage = StorageProcess(sys.argv[1])\n"
         "print(storage._proc.pid, flush=True)\n"
         "os.kill(os.getpid(), signal.SIGKILL)\n", str(tmp_path / "j.db")],
        capture_output=True, text=True, timeout=60)
    assert server.returncode == -signal.SIGKILL
    child = int(server.stdout.split()[0])
    try:
        ended = os.pidfd_open(child)
    except ProcessLookupError:
        return  # already gone
    try:
        readable, _, _ = select.select([ended], [], [], 60)  # readable once the process has ended
        assert readable, "the journal's process outlived its server"
    finally:
        os.close(ended)
