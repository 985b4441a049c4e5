"""Persistence (issue 6): journal before acknowledgement, restore after a stop, and the
crash test (the server process killed with SIGKILL at random points and restarted)."""

from __future__ import annotations

import asyncio

from scopa.client.bots import RandomBot
from scopa.engine import CARDS, Play, replay
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.storage import MemoryStorage, SQLiteStorage, StorageError, decode_action

from wire_client import WireClient


class FailingStorage(MemoryStorage):
    """Refuses to journal the ``fail_at``-th Play (counting from 1)."""

    def __init__(self, fail_at: int) -> None:
        super().__init__()
        self.fail_at = fail_at
        self.plays = 0

    def append_action(self, table_id, index, action) -> None:  # type: ignore[override]
        if isinstance(action, Play):
            self.plays += 1
            if self.plays == self.fail_at:
                raise StorageError("disk full (test)")
        super().append_action(table_id, index, action)


async def test_a_play_that_cannot_be_journaled_is_never_announced() -> None:
    storage = FailingStorage(fail_at=7)
    engine = NetworkEngine("127.0.0.1", 0, seed=11, storage=storage)
    await engine.start()
    try:
        a = await WireClient.connect(engine.port, "ada")
        table = await a.create(bots=["greedy"])
        events = await a.play_game(RandomBot(seed=2))
        played = [c.body for c in events if isinstance(c.body, wire.Played)]
        assert events[-1].body.reason == "abandoned"  # the table ends; nothing unjournaled was told
        [stored] = [t for t in storage._tables.values()]
        journaled = [x for x in map(decode_action, stored.actions) if isinstance(x, Play)]
        assert len(journaled) == 6 and len(played) == 6
        assert [p.card for p in played] == [str(CARDS[x.card]) for x in journaled]
        # The in-memory game applied the 7th play, but it was not acknowledged to anyone.
        assert sum(isinstance(x, Play) for x in engine.tables[table].master.actions) == 7
        assert stored.status == "finished" and stored.result is not None and stored.result.reason == "abandoned"
        await a.close()
    finally:
        await engine.stop()


async def test_bot_game_restored_from_a_cut_journal_runs_to_the_end(tmp_path) -> None:
    """A journal cut mid-game (as a crash leaves it) is replayed from its seed and the
    table plays on to the end; the stored log replays to the final state."""
    path = str(tmp_path / "bots.db")
    full = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, storage=full)
    await engine.start()
    a = await WireClient.connect(engine.port, "ada")
    tid = await a.create(bots=["random", "greedy"], sit=False)
    master = engine.tables[tid].master
    await engine.tables[tid].task
    await a.close()
    await engine.stop()
    [record] = [t for t in full._tables.values()]
    assert record.status == "finished"

    # Cut the journal after 17 actions: a playing table of four bots.
    db = SQLiteStorage(path)
    db.create_table(tid, master.rules, master.seed)
    for seat, st in record.seats.items():
        db.set_seat(tid, seat, st.name, bot=st.bot)
    db.start_table(tid)
    cut = [decode_action(x) for x in record.actions[:17]]
    for i, act in enumerate(cut):
        db.append_action(tid, i, act)
    db.close()

    again = NetworkEngine("127.0.0.1", 0, seed=6, db=path)
    await again.start()
    try:
        table = again.tables[tid]
        await table.task
        st = table.master.state
        assert table.master.actions[:17] == cut and st.phase.value == "over"
        again_state = replay(table.rules, table.master.first_dealer, table.master.actions)
        assert again_state.totals == st.totals and again_state.history == st.history
        # Ids go on after the restored one.
        b = await WireClient.connect(again.port, "bob")
        assert int(await b.create(bots=["random"])) == int(tid) + 1
        await b.close()
    finally:
        await again.stop()
    check = SQLiteStorage(path)
    [result] = [r for r in check.load_results() if r.id == tid]
    assert check.load_unfinished() == [] or all(t.id != tid for t in check.load_unfinished())
    assert list(result.totals) == st.totals and result.winner == st.winner
    assert check.load_actions(tid) == table.master.actions  # journaled on from action 17
    assert check.integrity_check() == "ok"
    check.close()
