"""The SQLite journal's move file (server/journal/sqlite/movefile.py): a move is journaled when its record
is in the file (R7: before the game master tells anyone of it); a record cut short by a
crash is left out, moves taken in twice are stored once, the moves of an ended table are
passed over, and a file a running journal holds is left to it."""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import json

import pytest
from hypothesis import given, strategies as st

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import Deal, LocalGame, Phase, Play, RuleSet
from scopa.server import NetworkEngine
from scopa.server.journal.sqlite import movefile as movelog
from scopa.server.journal.sqlite.movefile import moves_path, read_rows, record
from scopa.server.journal.sqlite.storage import SQLiteStorage, StorageError, decode_action, encode_action
from scopa.server.journal.sqlite.process import StorageProcess
from scopa.server.journal.commands import AppendAction, CreateTable, FinishTable, SetSeat, StartTable

DEAL = Deal(tuple(range(40)))
PLAYS = [Play(c, 0) for c in (3, 7, 12, 25)]


_TEXT = st.one_of(st.text(max_size=40), st.text(alphabet='"\\[],:0129 aps\t\x7f', max_size=40))


@given(st.lists(st.tuples(_TEXT, st.integers(0, 10**6), _TEXT), min_size=1, max_size=6))
def test_a_record_holds_its_rows_as_json_writes_them(rows: list[tuple[str, int, str]]) -> None:
    data = record(rows)
    assert data[8:] == json.dumps(rows, separators=(",", ":")).encode()  # quotes, backslashes, any text
    assert read_rows(data) == rows


def _stored(path: Path, table: str = "1") -> list[int]:
    con = sqlite3.connect(path)
    try:
        return [i for (i,) in con.execute("SELECT idx FROM actions WHERE table_id=? ORDER BY idx", (table,))]
    finally:
        con.close()


def _playing(path: Path, tables: tuple[str, ...] = ("1",)) -> None:
    db = SQLiteStorage(str(path))
    for t in tables:
        db.writes.create_table(t, RuleSet(), 7)
        db.writes.start_table(t)
    db.close()


def _rows(actions: list, table: str = "1", first: int = 0) -> list[tuple[str, int, str]]:
    return [(table, first + i, encode_action(a)) for i, a in enumerate(actions)]


def test_a_record_cut_short_by_a_crash_is_left_out_and_the_whole_ones_are_taken_in(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    _playing(path)
    whole = record(_rows([DEAL, PLAYS[0]])) + record(_rows(PLAYS[1:3], first=2))
    cut = record(_rows([PLAYS[3]], first=4))
    Path(moves_path(str(path))).write_bytes(whole + cut[:-3])
    assert read_rows(whole + cut[:-3]) == read_rows(whole)
    damaged = bytearray(whole + cut)
    damaged[-2] ^= 0xFF  # a byte of the last payload changed: its checksum fails
    assert read_rows(bytes(damaged)) == read_rows(whole)

    db = SQLiteStorage(str(path))  # opening takes in what a stopped server left
    try:
        [table] = db.reads.load_unfinished()
        assert table.actions == [DEAL, *PLAYS[:3]]
    finally:
        db.close()
    assert Path(moves_path(str(path))).stat().st_size == 0


def test_moves_taken_in_twice_are_stored_once(tmp_path: Path) -> None:
    """A crash after the moves were committed to the SQLite file and before the move file
    was emptied: they are taken in again, harmlessly."""
    path = tmp_path / "j.db"
    _playing(path)
    db = SQLiteStorage(str(path))
    for i, action in enumerate([DEAL, *PLAYS[:2]]):
        db.writes.append_action("1", i, action)
    db.close()
    Path(moves_path(str(path))).write_bytes(record(_rows([DEAL, *PLAYS])))
    db = SQLiteStorage(str(path))
    try:
        assert _stored(path) == [0, 1, 2, 3, 4]
        assert db.reads.load_actions("1") == [DEAL, *PLAYS]
    finally:
        db.close()


def test_the_moves_of_an_ended_table_left_in_the_move_file_are_passed_over(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    _playing(path, ("1", "2"))
    db = SQLiteStorage(str(path), move_file=True)
    db.run_batch([AppendAction.of("1", i, a) for i, a in enumerate([DEAL, *PLAYS])]
                 + [AppendAction.of("2", 0, DEAL)])
    db.writes.finish_table("1", 0, [11, 4], "target")  # its record is written from the move file
    kept = Path(moves_path(str(path))).read_bytes()  # as a crash would leave it
    db.close()
    Path(moves_path(str(path))).write_bytes(kept)
    again = SQLiteStorage(str(path))
    try:
        assert _stored(path, "1") == [] and _stored(path, "2") == [0]
        assert again.reads.load_actions("1") == [DEAL, *PLAYS]
        assert [t.id for t in again.reads.load_unfinished()] == ["2"]
    finally:
        again.close()


def test_moves_go_into_the_sqlite_file_when_the_move_file_is_full(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movelog, "FILE_ROWS", 3)
    path = tmp_path / "j.db"
    _playing(path, ("1", "2"))
    db = SQLiteStorage(str(path), move_file=True)
    try:
        assert db.run_batch([AppendAction("1", 0, encode_action(DEAL)),
                             AppendAction.of("1", 1, PLAYS[0])]) == [None, None]
        db.take_in_moves(when_full=True)
        assert _stored(path) == [] and Path(moves_path(str(path))).stat().st_size > 0  # not full yet
        db.writes.append_action("1", 2, PLAYS[1])
        db.take_in_moves(when_full=True)
        assert _stored(path) == [0, 1, 2] and Path(moves_path(str(path))).stat().st_size == 0
        db.writes.append_action("1", 3, PLAYS[2])
        assert db.reads.load_actions("1") == [DEAL, *PLAYS[:3]]  # a read takes in what is pending
    finally:
        db.close()
    assert not Path(moves_path(str(path))).exists()


def test_a_move_of_an_unknown_table_or_an_index_journaled_before_fails_alone(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    _playing(path)
    db = SQLiteStorage(str(path), move_file=True)
    try:
        db.writes.append_action("1", 0, DEAL)
        out = db.run_batch([AppendAction.of("1", 0, PLAYS[1]), AppendAction.of("9", 0, DEAL),
                            AppendAction.of("1", 1, PLAYS[0]), AppendAction("1", "2", "[]")])
        assert out[2] is None
        assert all(isinstance(e, StorageError) for e in (out[0], out[1], out[3]))
        with pytest.raises(StorageError, match="journaled already"):
            db.writes.append_action("1", 1, PLAYS[1])
        db.writes.append_action("1", 1, PLAYS[0])  # the same action again: accepted, journaled once
        assert [decode_action(a) for _, _, a in read_rows(Path(moves_path(str(path))).read_bytes())] \
            == [DEAL, PLAYS[0]]
    finally:
        db.close()


def test_full_synchronous_flushes_each_record_to_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flushed: list[int] = []
    real = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: (flushed.append(fd), real(fd))[1])
    for mode, expected in (("NORMAL", 0), ("FULL", 2)):
        path = tmp_path / f"{mode}.db"
        _playing(path)
        db = SQLiteStorage(str(path), mode, move_file=True)
        flushed.clear()
        db.run_batch([AppendAction.of("1", 0, DEAL), AppendAction.of("1", 1, PLAYS[0])])
        db.writes.append_action("1", 2, PLAYS[1])
        assert len(flushed) == expected, mode
        db.close()


async def test_a_running_journal_keeps_its_move_file_and_a_second_server_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movelog, "LOCK_WAIT_SECONDS", 0.2)  # a second server waits this long, then gives up
    path = tmp_path / "j.db"
    storage = StorageProcess(str(path))
    try:
        await storage.write(CreateTable("1", RuleSet(), 7))
        await storage.write(StartTable("1"))
        await asyncio.gather(*(storage.write(AppendAction.of("1", i, a)) for i, a in enumerate([DEAL, *PLAYS])))
        size = Path(moves_path(str(path))).stat().st_size
        reader = SQLiteStorage(str(path))  # e.g. a tool reading the file while the server runs
        reader.close()
        assert Path(moves_path(str(path))).stat().st_size == size and _stored(path) == []
        with pytest.raises(StorageError, match="another server"):
            SQLiteStorage(str(path), move_file=True)  # what a second server's journal process opens
        await storage.write(FinishTable("1", 0, [11, 2], "target"))
        assert await storage.load_actions("1") == [DEAL, *PLAYS]
    finally:
        await storage.close()


def test_a_journal_opened_as_the_last_one_closes_writes_to_the_file_that_stays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal of a server restarted at once after a kill opens the move file while
    the old journal's process still holds it; that one then removes it as it ends."""
    path = tmp_path / "j.db"
    _playing(path)
    first = SQLiteStorage(str(path), move_file=True)
    first.writes.append_action("1", 0, DEAL)
    real = fcntl.flock
    closed: list[bool] = []

    def flock(fd: int, operation: int) -> None:
        if not closed:  # between the new journal's open and its lock, the old one ends
            closed.append(True)
            first.close()
        real(fd, operation)

    monkeypatch.setattr(fcntl, "flock", flock)
    second = SQLiteStorage(str(path), move_file=True)
    try:
        second.writes.append_action("1", 1, PLAYS[0])
        assert closed and _stored(path) == [0]
        assert read_rows(Path(moves_path(str(path))).read_bytes()) == _rows([PLAYS[0]], first=1)
    finally:
        second.close()


def test_a_table_ended_in_a_batch_leaves_no_rows_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movelog, "FILE_ROWS", 1)
    path = tmp_path / "j.db"
    _playing(path, ("1", "2"))
    db = SQLiteStorage(str(path), move_file=True)
    try:
        out = db.run_batch([*(AppendAction.of("1", i, a) for i, a in enumerate([DEAL, *PLAYS])),
                            FinishTable("1", 1, (3, 11), "target"), AppendAction.of("2", 0, DEAL)])
        assert out == [None] * 7
        db.take_in_moves(when_full=True)  # the file is full: what is pending goes into the SQLite file
        assert _stored(path, "1") == [] and _stored(path, "2") == [0]
        assert db.reads.load_actions("1") == [DEAL, *PLAYS]
    finally:
        db.close()


def test_a_damaged_first_record_costs_only_itself_and_its_table_is_named(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "j.db"
    _playing(path, ("1", "2", "3"))
    first = record(_rows([DEAL], table="1"))
    rest = record(_rows([DEAL, PLAYS[0]], table="2") + _rows([PLAYS[0]], table="1", first=1)) \
        + record(_rows([DEAL, PLAYS[0], PLAYS[1]], table="3"))
    damaged = bytearray(first + rest)
    damaged[12] ^= 0x01  # one flipped byte in the first record's payload
    Path(moves_path(str(path))).write_bytes(bytes(damaged))
    db = SQLiteStorage(str(path))
    try:
        one, two, three = db.reads.load_unfinished()
        assert two.actions == [DEAL, PLAYS[0]] and three.actions == [DEAL, PLAYS[0], PLAYS[1]]  # later records kept
        assert one.damage is not None and "action 0 is missing" in one.damage  # the damaged one, named
    finally:
        db.close()
    assert "damaged or cut short" in caplog.text


def test_a_write_that_fails_halfway_leaves_no_part_of_its_record(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.db"
    _playing(path)
    db = SQLiteStorage(str(path), move_file=True)
    try:
        db.writes.append_action("1", 0, DEAL)
        real = os.write
        monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data)[:5]) if len(data) > 5 else
                            (_ for _ in ()).throw(OSError(28, "No space left on device")))
        [failed] = db.run_batch([AppendAction.of("1", 1, PLAYS[0])])
        monkeypatch.setattr(os, "write", real)
        assert "No space left" in str(failed)
        assert db.run_batch([AppendAction.of("1", 1, PLAYS[1])]) == [None]  # space again: the next write
        assert read_rows(Path(moves_path(str(path))).read_bytes()) == _rows([DEAL, PLAYS[1]])
    finally:
        db.close()


def test_a_move_file_that_is_a_symbolic_link_is_refused_and_its_target_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    _playing(path)
    target = tmp_path / "precious.txt"
    target.write_text("not the journal's")
    os.symlink(target, moves_path(str(path)))
    for opening in (lambda: SQLiteStorage(str(path)), lambda: SQLiteStorage(str(path), move_file=True)):
        with pytest.raises(StorageError, match="symbolic link"):
            opening()
    assert target.read_text() == "not the journal's"


async def _bot_actions(seed: int) -> list:
    journal: list = []
    await LocalGame(RuleSet(), [RandomBot(seed=seed), GreedyBot()], seed, journal=journal.append).run()
    return journal


async def test_a_damaged_record_of_the_move_file_is_listed_and_every_other_game_resumes(tmp_path: Path) -> None:
    """A byte of the move file flipped while the journal's process is dead: at the restart
    the table whose moves were in that record (its last ones: no gap shows it) is marked
    damaged and listed by ``scopa admin damaged --db``; the other games resume to their end."""
    path = tmp_path / "j.db"
    games = {t: await _bot_actions(seed) for t, seed in (("1", 11), ("2", 22), ("3", 33))}
    cut = 9
    storage = StorageProcess(str(path))
    for t in games:
        await asyncio.gather(storage.write(CreateTable(t, RuleSet(), {"1": 11, "2": 22, "3": 33}[t])),
                             storage.write(SetSeat(t, 0, "random-bot-0", bot="random")),
                             storage.write(SetSeat(t, 1, "greedy-bot-1", bot="greedy")), storage.write(StartTable(t)))
    for t, actions in games.items():  # each table's moves in records of their own
        await asyncio.gather(*(storage.write(AppendAction.of(t, i, a)) for i, a in enumerate(actions[:cut - 1])))
        await storage.write(AppendAction.of(t, cut - 1, actions[cut - 1]))
    os.kill(storage._proc.pid, signal.SIGKILL)  # the journal's process dies: its moves stay in the move file
    await asyncio.to_thread(storage._proc.wait)
    try:
        await storage.close()
    except StorageError:
        pass
    data = bytearray(Path(moves_path(str(path))).read_bytes())
    last_of_two = data.index(b'["2",%d,"' % (cut - 1))  # table 2's last record: one move
    data[last_of_two + 8] ^= 0x01  # a byte of its action: the record's checksum fails
    Path(moves_path(str(path))).write_bytes(bytes(data))

    engine = NetworkEngine("127.0.0.1", 0, seed=5, db=str(path))
    await engine.start()
    try:
        assert list(engine.damaged) == ["2"] and "damaged record of the move file" in engine.damaged["2"]
        assert "2" not in engine.tables
        for t in ("1", "3"):
            table = engine.tables[t]
            assert table.master is not None and table.master.actions[:cut] == games[t][:cut]
            assert table.task is not None
            await table.task  # its bots play it to the end
            assert table.master.state.phase is Phase.OVER
    finally:
        await engine.stop()
    listed = subprocess.run([sys.executable, "-c", "from scopa.cli import main; raise SystemExit(main())",
                             "admin", "damaged", "--db", str(path)], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    [line] = listed.stdout.splitlines()
    assert line.startswith("table 2: moves lost in a damaged record of the move file"), line
