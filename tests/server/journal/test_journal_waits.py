"""A write the journal cannot store for now (a full disk, a lost connection) makes only
the table that needs it wait: the play is not announced until it is stored, the journal
tries again and says so in the log, and the game goes on to its normal end (R7: the
journal replays the game) instead of being abandoned."""

from __future__ import annotations

import errno
import logging
import subprocess
from pathlib import Path
from typing import Iterator

import psycopg
import pytest

from scopa.bots import RandomBot
from scopa.engine import Play
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.journal.values import JournalUnavailable, decode_action
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.journal.sqlite.process import StorageProcess

from pg import pg_url  # noqa: F401 - the fixture
from wire_client import WireClient


class FullDisk(MemoryStorage):
    """The disk fills as the ``full_at``-th play is journaled and has room again after
    ``attempts`` tries."""

    def __init__(self, full_at: int, attempts: int) -> None:
        super().__init__()
        self.full_at, self.attempts, self.plays, self.refused = full_at, attempts, 0, 0

    def append_encoded(self, table_id: str, index: int, encoded: str) -> None:  # type: ignore[override]
        if isinstance(decode_action(encoded), Play) and index >= len(self._tables[table_id].actions):
            if self.plays + 1 == self.full_at and self.refused < self.attempts:
                self.refused += 1
                raise JournalUnavailable("database or disk is full (test)")
            self.plays += 1
        super().append_encoded(table_id, index, encoded)


async def test_a_play_the_journal_cannot_store_waits_and_the_game_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    storage = FullDisk(full_at=5, attempts=3)
    caplog.set_level(logging.INFO, logger="scopa.server")
    engine = NetworkEngine("127.0.0.1", 0, seed=11, storage=storage)
    await engine.start()
    try:
        client = await WireClient.connect(engine.port, "ada")
        table = await client.create(bots=["greedy"])
        events = await client.play_game(RandomBot(seed=2))
        end = events[-1].body
        assert isinstance(end, wire.GameEnd) and end.reason != "abandoned" and end.winner is not None
        stored = [a for a in map(decode_action, storage._tables[table].actions)]
        played = [c.body for c in events if isinstance(c.body, wire.CardPlayed)]
        assert len(played) == sum(isinstance(a, Play) for a in stored)  # every announced play, stored once
        assert storage.refused == 3 and storage._tables[table].status == "finished"
        told = [c.body for c in client.inbox if isinstance(c.body, wire.SaveWaiting)]
        assert [t.waiting for t in told] == [True, False] and "disk is full" in told[0].reason
    finally:
        await engine.stop()
    text = caplog.text
    assert f"table(s) {table} wait" in text and f"table {table} stored again" in text
    assert "Traceback" not in text and "abandoned" not in text


class KillsTheJournal(RandomBot):
    """Plays at random; before its ``at``-th play, the journal's process is killed (SIGKILL)."""

    def __init__(self, engine: NetworkEngine, at: int) -> None:
        super().__init__(seed=4)
        self.engine, self.at, self.turns = engine, at, 0

    async def choose(self, view, legal):  # type: ignore[no-untyped-def]
        self.turns += 1
        if self.turns == self.at:
            proc = self.engine.storage._proc  # type: ignore[union-attr]
            proc.kill()
            proc.wait()
        return await super().choose(view, legal)


async def test_the_journal_process_killed_is_started_again_and_no_result_is_contradicted(
        tmp_path, caplog: pytest.LogCaptureFixture) -> None:
    path = str(tmp_path / "j.db")
    caplog.set_level(logging.INFO, logger="scopa.server")
    engine = NetworkEngine("127.0.0.1", 0, seed=11, db=path)
    await engine.start()
    try:
        client = await WireClient.connect(engine.port, "ada")
        table = await client.create(bots=["greedy"])
        events = await client.play_game(KillsTheJournal(engine, at=3))
        end = events[-1].body
        assert isinstance(end, wire.GameEnd) and end.reason != "abandoned"
        again = await WireClient.connect(engine.port, "bob")
        other = await again.create(bots=["greedy"])
        assert int(other) == int(table) + 1  # table ids go on
    finally:
        await engine.stop()
    assert "the journal's process was started again" in caplog.text and "Traceback" not in caplog.text
    reopened = NetworkEngine("127.0.0.1", 0, seed=12, db=path)
    await reopened.start()
    try:
        [result] = [r for r in await reopened.results() if r.id == table]
        assert (result.winner, list(result.totals)) == (end.winner, list(end.totals))  # what ada was told
        played = [c.body for c in events if isinstance(c.body, wire.CardPlayed)]
        assert sum(isinstance(a, Play) for a in await reopened.storage.load_actions(table)) == len(played)
    finally:
        await reopened.stop()


class CutsTheConnection(RandomBot):
    """Plays at random; before its ``at``-th play, the server's PostgreSQL connection is
    ended by the database (as a restart or a network cut would)."""

    def __init__(self, engine: NetworkEngine, url: str, at: int) -> None:
        super().__init__(seed=6)
        self.engine, self.url, self.at, self.turns = engine, url, at, 0

    async def choose(self, view, legal):  # type: ignore[no-untyped-def]
        self.turns += 1
        if self.turns == self.at:
            name = self.engine.storage.backend.name  # type: ignore[union-attr]  # its connections' application_name
            with psycopg.connect(self.url, autocommit=True) as admin:
                ended = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name=%s",
                                      (name,)).fetchall()
            assert ended == [(True,)]
        return await super().choose(view, legal)


async def test_a_lost_postgres_connection_stalls_only_the_writes_and_the_game_goes_on(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="scopa.server")
    engine = NetworkEngine("127.0.0.1", 0, seed=11, db=pg_url)
    await engine.start()
    try:
        client = await WireClient.connect(engine.port, "ada")
        table = await client.create(bots=["greedy"])
        events = await client.play_game(CutsTheConnection(engine, pg_url, at=3))
        end = events[-1].body
        assert isinstance(end, wire.GameEnd) and end.reason != "abandoned"
        played = [c.body for c in events if isinstance(c.body, wire.CardPlayed)]
        assert sum(isinstance(a, Play) for a in await engine.storage.load_actions(table)) == len(played)
        [result] = [r for r in await engine.results() if r.id == table]
        assert (result.winner, list(result.totals)) == (end.winner, list(end.totals))
    finally:
        await engine.stop()
    assert "cannot store for now" in caplog.text and "Traceback" not in caplog.text


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs of the test's own (CI runs as root), unmounted afterwards."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    assert mounted.returncode == 0, f"this test mounts a small tmpfs (as root): {mounted.stderr.strip()}"
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


class FillsTheDisk(RandomBot):
    """Plays at random; before its ``at``-th play, a file fills the disk to its last byte."""

    def __init__(self, filler: Path, at: int) -> None:
        super().__init__(seed=8)
        self.filler, self.at, self.turns = filler, at, 0

    async def choose(self, view, legal):  # type: ignore[no-untyped-def]
        self.turns += 1
        if self.turns == self.at:
            with open(self.filler, "wb", buffering=0) as f:
                for size in (1 << 16, 1 << 12, 1):
                    try:
                        while True:
                            f.write(b"\0" * size)
                    except OSError as exc:
                        assert exc.errno == errno.ENOSPC
        return await super().choose(view, legal)


class RoomAgain(logging.Handler):
    """Once the journal says it waits, the disk has room again."""

    def __init__(self, filler: Path) -> None:
        super().__init__(logging.WARNING)
        self.filler, self.lifted = filler, False

    def emit(self, record: logging.LogRecord) -> None:
        if "cannot store for now" in record.getMessage() and not self.lifted:
            self.lifted = True
            self.filler.unlink()


async def test_a_full_disk_makes_the_table_wait_and_loses_no_move(small_disk: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    path = str(small_disk / "j.db")
    filler = small_disk / "filler"
    engine = NetworkEngine("127.0.0.1", 0, seed=11, storage=StorageProcess(path))
    room = RoomAgain(filler)
    logging.getLogger("scopa.server").addHandler(room)
    await engine.start()
    try:
        client = await WireClient.connect(engine.port, "ada")
        table = await client.create(bots=["greedy"])
        events = await client.play_game(FillsTheDisk(filler, at=3))
        end = events[-1].body
        assert room.lifted and isinstance(end, wire.GameEnd) and end.reason != "abandoned"
        told = [c.body.waiting for c in client.inbox if isinstance(c.body, wire.SaveWaiting)]
        assert told == [True, False]
        played = [c.body for c in events if isinstance(c.body, wire.CardPlayed)]
        assert sum(isinstance(a, Play) for a in await engine.storage.load_actions(table)) == len(played)
        assert "could not write its moves" in caplog.text  # a play was refused by the disk, then stored
        assert "Traceback" not in caplog.text
    finally:
        logging.getLogger("scopa.server").removeHandler(room)
        await engine.stop()
