"""The server's asynchronous storage (server/journal/writer.py): writes of one event-loop turn
share one commit (a blocking backend's in a worker thread), a refused write fails alone, a read sees every
write queued before it, and a commit stuck on a slow disk holds up only the table that
waits for it (R7: an action is journaled before anyone is told of it)."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, Sequence

import pytest

from scopa.engine import CARDS, Deal, Play, RuleSet
from scopa.protocol import commands as wire
from scopa.protocol.convert import action_to_wire, legal_from_wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.journal.sqlite.storage import SQLiteStorage, StorageError, decode_action
from scopa.server.journal.writer import StorageWriter
from scopa.server.journal.backends import open_storage
from scopa.server.journal.commands import AppendAction, CreateTable, FinishTable, Request, SetSeat, StartTable

from wire_client import WireClient

SAFETY = 30.0  # seconds: a safety net for thread waits only; every wait normally ends on an event


class GatedStorage(MemoryStorage):
    """A backend on a slow disk the test controls: while ``gate`` is clear, a commit
    waits for it (``stuck`` says one is waiting).  Each batch's calls are kept."""

    blocks = True

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.gate.set()
        self.stuck = threading.Event()
        self.batches: list[list[str]] = []

    def run_batch(self, requests: Sequence[Request]) -> list[Any]:
        if not self.gate.is_set():
            self.stuck.set()
            self.gate.wait(SAFETY)
        self.batches.append([type(request).__name__ for request in requests])
        return super().run_batch(requests)


DEAL = Deal(tuple(range(40)))


async def test_the_writes_of_one_loop_turn_share_one_commit() -> None:
    backend = GatedStorage()
    writer = StorageWriter(backend)
    written = [writer.write(CreateTable(tid, RuleSet(), 7)) for tid in ("1", "2", "3")]
    written += [writer.write(AppendAction.of(tid, 0, DEAL)) for tid in ("1", "2", "3")]
    await asyncio.gather(*written)
    assert backend.batches == [["CreateTable"] * 3 + ["AppendAction"] * 3]
    assert [len(t.actions) for t in await writer.load_unfinished()] == [1, 1, 1]
    await writer.close()


async def test_a_refused_write_fails_alone_in_its_batch(tmp_path, caplog: pytest.LogCaptureFixture) -> None:
    writer = StorageWriter(SQLiteStorage(str(tmp_path / "j.db")))
    for tid in ("1", "2"):
        writer.write(CreateTable(tid, RuleSet(), 7))
        writer.write(StartTable(tid))
    await asyncio.gather(writer.write(AppendAction.of("1", 0, DEAL)), writer.write(AppendAction.of("2", 0, DEAL)))
    caplog.set_level(logging.ERROR, logger="scopa.server")
    # One turn: another action for index 0 between two sound ones of two tables.
    again, other, next_one = (writer.write(AppendAction.of("1", 0, Play(9, 0))), writer.write(AppendAction.of("2", 1, Play(3, 0))),
                              writer.write(AppendAction.of("1", 1, Play(5, 0))))
    results = await asyncio.gather(again, other, next_one, return_exceptions=True)
    assert isinstance(results[0], StorageError) and results[1:] == [None, None]
    assert await writer.load_actions("1") == [DEAL, Play(5, 0)]
    assert await writer.load_actions("2") == [DEAL, Play(3, 0)]
    [logged] = caplog.records  # one line for the refused write
    assert "AppendAction (table 1) failed" in logged.getMessage()
    await writer.close()


async def test_a_read_sees_every_write_queued_before_it(tmp_path) -> None:
    writer = StorageWriter(SQLiteStorage(str(tmp_path / "j.db")))
    writer.write(CreateTable("41", RuleSet(), 7))  # not awaited: the read below is queued after it
    writer.write(StartTable("41"))
    writer.write(AppendAction.of("41", 0, DEAL))
    writer.write(FinishTable("41", 1, [11, 4], "target"))
    assert await writer.last_table_id() == 41
    assert await writer.load_actions("41") == [DEAL]  # compacted by finish_table, read back
    [result] = await writer.load_results()
    assert result.id == "41" and result.totals == (11, 4)
    await writer.close()
    closed = writer.write(SetSeat("41", 0, "late"))
    with pytest.raises(StorageError):
        await closed


async def test_an_instant_backend_is_written_before_the_call_returns() -> None:
    backend = MemoryStorage()
    writer = open_storage(storage=backend)
    assert isinstance(writer, StorageWriter)
    done = writer.write(CreateTable("5", RuleSet(), 1))
    assert done.done() and "5" in backend._tables
    refused = writer.write(CreateTable("5", RuleSet(), 1))
    assert isinstance(refused.exception(), StorageError)
    await writer.close()


async def test_a_stuck_commit_holds_up_only_the_table_waiting_for_it() -> None:
    """While the journal write of ada's play is stuck on the disk, the server goes on
    serving everyone (a new client's hello, the lobby, pings); ada's play is announced
    only once the write has been committed."""
    storage = GatedStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=3, storage=storage, clock=FakeClock())
    await engine.start()
    try:
        ada = await WireClient.connect(engine.port, "ada")
        table = await ada.create(bots=["greedy"])
        turn = await ada.recv_until("your_turn")
        assert isinstance(turn.body, wire.YourTurn)
        action = legal_from_wire(turn.body)[0]
        storage.gate.clear()  # the disk stalls from here
        before = len(ada.inbox)
        ada.send(action_to_wire(action), recipient=f"table:{table}", re=turn.seq)
        assert await asyncio.to_thread(storage.stuck.wait, SAFETY)  # the server is committing ada's play

        bob = await WireClient.connect(engine.port, "bob")
        assert bob.party == "player:bob"
        bob.send(wire.ListTables())
        listing = await bob.recv_until("tables")
        assert isinstance(listing.body, wire.Tables) and [t.id for t in listing.body.tables] == [table]
        bob.send(wire.Ping(nonce=7))
        assert (await bob.recv_until("pong")).body == wire.Pong(nonce=7)
        ada.send(wire.Ping(nonce=8))
        await ada.recv_until("pong")  # whatever the server sent ada before this pong has arrived
        assert [c.name for c in ada.inbox[before:]] == ["pong"]  # ada's play is not announced yet

        storage.gate.set()  # the disk comes back
        played = await ada.recv_until(wire.CardPlayed.NAME)
        assert isinstance(played.body, wire.CardPlayed) and played.body.seat == ada.seat
        assert isinstance(action, Play) and played.body.card == str(CARDS[action.card])
        assert [c.name for c in ada.inbox[before:]][:2] == ["pong", wire.CardPlayed.NAME]
        await bob.close()
        await ada.close()
    finally:
        storage.gate.set()
        await engine.stop()
    [stored] = storage._tables.values()
    assert action in [decode_action(a) for a in stored.actions]  # the play was journaled


async def test_a_game_whose_last_action_is_journaled_but_not_its_result_ends_on_restart(tmp_path) -> None:
    """The game_end is announced once the last action is durable; the result is written
    after it.  A server killed in between leaves a "playing" table whose actions reach
    the end: the next start finishes it with the result the actions give."""
    from scopa.bots import GreedyBot, RandomBot
    from scopa.engine import LocalGame

    journal: list = []
    record = await LocalGame(RuleSet(), [RandomBot(seed=3), GreedyBot()], 9, journal=journal.append).run()
    path = str(tmp_path / "j.db")
    db = SQLiteStorage(path)
    db.writes.create_table("3", RuleSet(), 9)
    db.writes.set_seat("3", 0, "random-bot-0", bot="random")
    db.writes.set_seat("3", 1, "greedy-bot-1", bot="greedy")
    db.writes.start_table("3")
    for i, action in enumerate(journal):
        db.writes.append_action("3", i, action)
    db.close()
    engine = NetworkEngine("127.0.0.1", 0, seed=1, db=path)
    await engine.start()
    try:
        table = engine.tables["3"]
        assert table.task is not None
        await table.task
        assert engine.storage is not None
        assert await engine.storage.load_unfinished() == []
        [result] = await engine.results()
        assert (result.id, result.winner, result.totals) == ("3", record.winner, record.totals)
        assert await engine.storage.load_actions("3") == journal
    finally:
        await engine.stop()


async def test_a_backend_that_breaks_fails_its_batch_and_the_writer_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    class Breaks(GatedStorage):
        broken = True

        def run_batch(self, requests: Sequence[Request]) -> list[Any]:
            if self.broken:
                self.broken = False
                raise RuntimeError("a bug in the backend (test)")
            return super().run_batch(requests)

    caplog.set_level(logging.ERROR, logger="scopa.server")
    writer = StorageWriter(Breaks())
    with pytest.raises(StorageError, match="a bug in the backend"):
        await writer.write(CreateTable("1", RuleSet(), 7))
    await writer.write(CreateTable("1", RuleSet(), 7))  # the next batch is written
    assert await writer.last_table_id() == 1
    assert len(caplog.records) == 1
    await writer.close()
