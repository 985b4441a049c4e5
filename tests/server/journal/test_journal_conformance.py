"""The journal's contract (server/journal/commands.py), run against every backend: memory, the
SQLite file (with and without its move file) and PostgreSQL (the real server, a schema
of its own per test).  Ordering, an action journaled before it is announced (R7: the
journal replays the game), the same action index journaled once, a gap refused, a
refused answer journaled once, every unfinished table restored, a damaged table skipped
and reported, the schema's version and its ordered migrations."""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from scopa.bots import RandomBot
from scopa.engine import Deal, Forced, Play, PlayMark, RuleSet
from scopa.protocol import commands as wire
from scopa.protocol.convert import card_str
from scopa.server import NetworkEngine
from scopa.server.journal.values import Account, GamePlayer, Rating, StorageError
from scopa.server.journal.commands import (
    AccountOf, AppendAction, AppendTournamentEvent, ClearSeat, CloseTable, CreateTable, ClaimTable, FinishedGameOf,
    FinishTable, LastTableId, LoadActions, LoadDamaged, LoadRefusals, LoadResults, LoadTournamentEvents,
    LoadUnfinished, MarkDamaged, RatingUpdate, Ratings, RecordRefusal, Request, SaveAccount, SetSeat, StartTable,
    TakeTableIds
)
from scopa.server.journal.values import JournalTooNew, TableTaken
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.journal.postgres.schema import migrate, migrations, version_of
from scopa.server.journal.postgres.storage import PostgresStorage
from scopa.server.journal.sqlite.storage import SCHEMA_VERSION, SQLiteStorage
from scopa.server.journal.writer import StorageWriter

from pg import pg_url  # noqa: F401 - the fixture
from wire_client import WireClient

DEAL = Deal(tuple(range(40)))
PLAYS = [Play(0, 0), Play(1, 0), Play(2, 0)]


@dataclass
class Kind:
    """One backend under test: how to open it (again), and how to damage a row behind its back."""

    open: Callable[[], Awaitable[Any]]
    corrupt: Callable[[Any, str, int, str], None]
    reopens: bool = True  # what it keeps outlives the object


def _sqlite_corrupt(path: str) -> Callable[[Any, str, int, str], None]:
    def corrupt(backend: Any, table_id: str, index: int, text: str) -> None:
        backend.take_in_moves()  # the rows of a move file into the file
        con = sqlite3.connect(path)
        con.execute("UPDATE actions SET action=? WHERE table_id=? AND idx=?", (text, table_id, index))
        con.commit()
        con.close()
    return corrupt


def _pg_corrupt(url: str) -> Callable[[Any, str, int, str], None]:
    def corrupt(backend: Any, table_id: str, index: int, text: str) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("UPDATE actions SET action=%s WHERE table_id=%s AND idx=%s", (text, table_id, index))
    return corrupt


def _memory_corrupt(backend: Any, table_id: str, index: int, text: str) -> None:
    backend._tables[table_id].actions[index] = text


@pytest.fixture(params=["memory", "sqlite", "sqlite-move-file", "postgres"])
def kind(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Kind]:
    if request.param == "postgres":
        url = request.getfixturevalue("pg_url")


        async def open_pg() -> PostgresStorage:
            db = PostgresStorage(url)
            await db.open()
            return db
        yield Kind(open_pg, _pg_corrupt(url))
    elif request.param == "memory":
        memory = MemoryStorage()

        async def same() -> MemoryStorage:
            return memory
        yield Kind(same, _memory_corrupt, reopens=False)
    else:
        path = str(tmp_path / "journal.db")
        moves = request.param == "sqlite-move-file"

        async def open_file() -> SQLiteStorage:
            return SQLiteStorage(path, move_file=moves)
        yield Kind(open_file, _sqlite_corrupt(path))


async def _settled(result: Any) -> Any:
    return await result if inspect.isawaitable(result) else result


async def batch(db: Any, requests: list[Request]) -> list[Any]:
    """A backend's ``run_batch``, awaited if it is asynchronous (PostgreSQL)."""
    return await _settled(db.run_batch(requests))  # type: ignore[no-any-return]


async def one(db: Any, request: Request) -> Any:
    """One request's result (its exception raised)."""
    [result] = await batch(db, [request])
    if isinstance(result, BaseException):
        raise result
    return result


async def close(db: Any) -> None:
    await _settled(db.close())


async def _playing(backend: Any, table_id: str, seed: int = 7) -> list[Any]:
    return await batch(backend, [CreateTable(table_id, RuleSet(), seed), SetSeat(table_id, 0, "ada", "aa" * 32),
                                 SetSeat(table_id, 1, "greedy-1", bot="greedy"), StartTable(table_id)])


async def test_a_batch_runs_in_order_and_each_refusal_fails_alone(kind: Kind) -> None:
    db = await kind.open()
    try:
        out = await batch(db, [CreateTable("1", RuleSet(), 7), SetSeat("1", 0, "ada"), ClearSeat("1", 0),
                            SetSeat("1", 0, "bea"), CreateTable("1", RuleSet(), 8),  # refused: exists
                            StartTable("1"), AppendAction.of("1", 0, DEAL), AppendAction.of("9", 0, DEAL),
                            AppendAction.of("1", 1, PLAYS[0]), LoadActions("1"), LoadUnfinished()])
        assert out[:4] == [None] * 4 and isinstance(out[4], StorageError) and "already exists" in str(out[4])
        assert out[5:7] == [None, None] and isinstance(out[7], StorageError) and out[8] is None
        assert out[9] == [DEAL, PLAYS[0]]  # a read sees every write before it in its batch
        [table] = out[10]
        assert table.seed == 7 and table.status == "playing" and table.seats[0].name == "bea"
    finally:
        await close(db)


async def test_the_same_action_index_is_journaled_once_and_a_gap_is_refused(kind: Kind) -> None:
    db = await kind.open()
    try:
        await _playing(db, "1")
        first = [AppendAction.of("1", 0, DEAL), AppendAction.of("1", 1, PLAYS[0])]
        assert await batch(db, first) == [None, None]
        again = await batch(db, [*first, AppendAction.of("1", 2, PLAYS[1])])  # a batch retried, and one more
        assert again == [None, None, None]
        other = (await batch(db, [AppendAction.of("1", 1, PLAYS[2])]))[0]  # another action for a journaled index
        gap = (await batch(db, [AppendAction.of("1", 5, PLAYS[2])]))[0]
        assert isinstance(other, StorageError) and "journaled already" in str(other)
        assert isinstance(gap, StorageError) and "5 given, 3 expected" in str(gap)
        assert await batch(db, [LoadActions("1")]) == [[DEAL, PLAYS[0], PLAYS[1]]]
    finally:
        await close(db)


async def test_a_tournament_event_is_journaled_once_and_read_back_in_order(kind: Kind) -> None:
    db = await kind.open()
    try:
        events = [AppendTournamentEvent("c2", 0, "Created", '{"a": 1}'), AppendTournamentEvent("c1", 0, "Created", "{}"),
                  AppendTournamentEvent("c1", 1, "Registered", '{"b": 2}')]
        assert await batch(db, events) == [None, None, None]
        assert await batch(db, events[1:]) == [None, None]  # a batch retried stores nothing twice
        [other] = await batch(db, [AppendTournamentEvent("c1", 1, "Started", "{}")])  # another event for a seq
        assert isinstance(other, StorageError) and "stored already" in str(other)
        if kind.reopens:
            await close(db)
            db = await kind.open()
        assert await one(db, LoadTournamentEvents()) == [("c1", 0, "Created", "{}"), ("c1", 1, "Registered", '{"b": 2}'),
                                                         ("c2", 0, "Created", '{"a": 1}')]
    finally:
        await close(db)


async def test_every_unfinished_table_is_restored_and_ended_ones_are_not(kind: Kind) -> None:
    db = await kind.open()
    try:
        for tid in ("1", "2", "3", "4"):
            await _playing(db, tid, seed=int(tid))
        await batch(db, [CreateTable("5", RuleSet.build("cirulla", players=4), 2**63 - 1, True, {"grace": 30}),
                      SetSeat("5", 2, "cy", "cc" * 32)])
        await batch(db, [AppendAction.of(t, 0, DEAL) for t in ("1", "2", "3")] + [AppendAction.of("1", 1, PLAYS[0])])
        await batch(db, [FinishTable("2", 0, (11, 4), "target"), CloseTable("3", "everyone left")])
        if kind.reopens:
            await close(db)
            db = await kind.open()
        tables = (await batch(db, [LoadUnfinished()]))[0]
        assert [t.id for t in tables] == ["1", "4", "5"]
        assert tables[0].actions == [DEAL, PLAYS[0]] and tables[1].actions == []
        five = tables[2]
        assert (five.seed, five.private, five.options, five.status) == (2**63 - 1, True, {"grace": 30}, "waiting")
        assert [s.name if s else None for s in five.seats] == [None, None, "cy", None]
        assert await batch(db, [LoadActions("2")]) == [[DEAL]]  # compacted with its end, read back
        assert await one(db, LastTableId()) == 5
    finally:
        await close(db)


async def test_how_each_play_came_about_is_journaled_with_it_and_read_back(kind: Kind) -> None:
    """A play the server made when its seat's time ran out, a bot's play for an away
    person, a scopa (R16): read back with the game, unfinished and finished; a play with
    no mark is written as before (an older journal's rows read the same)."""
    timed, bot = PlayMark(Forced.TIMEOUT, scopa=True), PlayMark(bot=True)
    assert AppendAction.of("1", 1, PLAYS[0]).action == AppendAction.of("1", 1, PLAYS[0], PlayMark()).action == "[\"p\",0,0]"
    db = await kind.open()
    try:
        for tid in ("1", "2"):
            await _playing(db, tid)
            await batch(db, [AppendAction.of(tid, 0, DEAL), AppendAction.of(tid, 1, PLAYS[0], timed),
                             AppendAction.of(tid, 2, PLAYS[1]), AppendAction.of(tid, 3, PLAYS[2], bot)])
        await batch(db, [FinishTable("2", 0, (11, 4), "target")])
        if kind.reopens:
            await close(db)
            db = await kind.open()
        [table] = await one(db, LoadUnfinished())
        assert table.actions == [DEAL, *PLAYS] and table.marks == {1: timed, 3: bot}
        for tid in ("1", "2"):  # the second compacted with its end
            actions = await one(db, LoadActions(tid))
            assert actions == [DEAL, *PLAYS] and actions.marks == {1: timed, 3: bot}
    finally:
        await close(db)


async def test_a_damaged_table_is_skipped_and_reported_and_the_others_restore(kind: Kind) -> None:
    db = await kind.open()
    try:
        for tid in ("1", "2"):
            await _playing(db, tid)
            await batch(db, [AppendAction.of(tid, 0, DEAL), AppendAction.of(tid, 1, PLAYS[0])])
        kind.corrupt(db, "1", 1, "not json at all")
        first, second = await one(db, LoadUnfinished())
        assert first.damage is not None and "action 1" in first.damage and first.actions == []
        assert second.damage is None and second.actions == [DEAL, PLAYS[0]]
        await one(db, MarkDamaged("1", first.damage))
        assert await one(db, LoadDamaged()) == [("1", first.damage)]
        assert [t.id for t in await one(db, LoadUnfinished())] == ["2"]
    finally:
        await close(db)


async def test_a_finished_game_keeps_its_players_and_ratings_in_the_same_command(kind: Kind) -> None:
    db = await kind.open()
    try:
        await _playing(db, "1")
        await batch(db, [AppendAction.of("1", 0, DEAL)])
        players = (GamePlayer(0, "ada", "person", token_digest="aa" * 32), GamePlayer(1, "greedy-1", "bot", "greedy"))
        rating = RatingUpdate("custom", (Rating("ada", 27.0, 7.5, 1, 1),))
        assert await batch(db, [FinishTable("1", 0, (11, 2), "target", players, rating)]) == [None]
        assert (await one(db, FinishedGameOf("1"))).players == players
        assert await one(db, Ratings("custom", ("ada", "bob"))) == {"ada": Rating("ada", 27.0, 7.5, 1, 1)}
        [refused] = await batch(db, [FinishTable("9", 0, (11, 2), "target", players, RatingUpdate("custom", (
            Rating("bob", 30.0, 5.0, 1, 1),)))])
        assert isinstance(refused, StorageError) and await one(db, Ratings("custom", ("bob",))) == {}  # nothing of it kept
        assert await batch(db, [SaveAccount(Account("Ada", b"s", b"h", 2, 8, 1, 1.0))]) == [None]
        assert isinstance((await batch(db, [SaveAccount(Account("ADA", b"s", b"h", 2, 8, 1, 1.0))]))[0], StorageError)
        assert (await one(db, AccountOf("aDa"))).name == "Ada"
    finally:
        await close(db)


async def test_a_refused_answer_is_journaled_once_and_kept_with_its_game(kind: Kind) -> None:
    db = await kind.open()
    try:
        await _playing(db, "1")
        await batch(db, [AppendAction.of("1", 0, DEAL)])
        first = [RecordRefusal("1", 0, 1, "illegal_move", 1), RecordRefusal("1", 0, 1, "bad_body", 2)]
        assert await batch(db, first) == [None, None]
        later = RecordRefusal("1", 1, 2, "illegal_capture")
        out = await batch(db, [*first, AppendAction.of("1", 1, PLAYS[0]), later,  # a batch retried, and more
                               RecordRefusal("9", 0, 0, "illegal_move")])  # no such table
        assert out[:4] == [None] * 4 and isinstance(out[4], StorageError)
        if kind.reopens:
            await close(db)
            db = await kind.open()
        assert await one(db, LoadRefusals("1")) == [*first, later]
        await batch(db, [FinishTable("1", 0, (11, 2), "target")])
        assert await one(db, LoadRefusals("1")) == [*first, later]  # kept with the finished game
        assert await one(db, LoadActions("1")) == [DEAL, PLAYS[0]]
    finally:
        await close(db)


async def test_an_illegal_play_is_refused_and_journaled_with_its_seat_index_and_code(kind: Kind) -> None:
    backend = await kind.open()
    reader = await kind.open() if isinstance(backend, PostgresStorage) else backend
    engine = NetworkEngine("127.0.0.1", 0, seed=5, storage=StorageWriter(backend))
    await engine.start()
    try:
        client = await WireClient.connect(engine.port, "ada")
        table = await client.create(bots=["greedy"])
        turn = await client.recv_until("your_turn")
        not_held = next(card_str(c) for c in range(40) if card_str(c) not in turn.body.view.hand)
        client.send(wire.PlayCard(card=not_held), recipient=f"table:{table}", re=turn.seq)
        error = await client.recv_until("error")
        code = error.body.code.value
        assert code in ("card_not_in_hand", "illegal_move"), code
        await engine.storage.flush()
        actions = await engine.storage.load_actions(table)
        assert await one(reader, LoadRefusals(table)) == [
            RecordRefusal(table, client.seat, len(actions), code, 1)]
        await client.close()
    finally:
        await engine.stop()
        if reader is not backend:
            await close(reader)


class Checking(RandomBot):
    """A player that, at each turn, finds every play it has heard of in the journal."""

    def __init__(self, client: WireClient, reader: Any) -> None:
        super().__init__(seed=3)
        self.client, self.reader, self.checked = client, reader, 0

    async def choose(self, view: Any, legal: Any) -> Any:
        heard = sum(isinstance(c.body, wire.CardPlayed) for c in self.client.inbox)
        stored = await one(self.reader, LoadActions(self.client.table))
        assert sum(isinstance(a, Play) for a in stored) >= heard
        self.checked += 1
        return await super().choose(view, legal)


async def test_an_action_is_journaled_before_anyone_hears_of_it(kind: Kind) -> None:
    backend = await kind.open()
    reader = await kind.open() if isinstance(backend, PostgresStorage) else backend  # SQLite: one writer, as the server
    engine = NetworkEngine("127.0.0.1", 0, seed=5, storage=StorageWriter(backend))
    await engine.start()
    try:
        client = await WireClient.connect(engine.port, "ada")
        await client.create(bots=["greedy"])
        player = Checking(client, reader)
        await client.play_game(player)
        assert player.checked >= 5
        await client.close()
    finally:
        await engine.stop()
        if reader is not backend:
            await close(reader)


async def test_the_schema_version_is_kept_and_a_newer_database_is_refused(kind: Kind, tmp_path: Path) -> None:
    if not kind.reopens:
        return  # nothing kept: no schema
    db = await kind.open()
    await close(db)
    if isinstance(db, PostgresStorage):
        with psycopg.connect(db.url, autocommit=True) as conn:
            assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (
                str(len(migrations())),)
            conn.execute("UPDATE meta SET value=%s WHERE key='schema_version'", (str(len(migrations()) + 1),))
    else:
        con = sqlite3.connect(db.path)
        assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
        con.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
        con.commit()
        con.close()
    with pytest.raises(JournalTooNew, match="newer version of the server"):
        await kind.open()


async def test_postgres_migrations_apply_in_order_from_any_version(pg_url: str) -> None:
    steps = migrations()
    assert [s.version for s in steps] == list(range(1, len(steps) + 1)) and len(steps) >= 2
    async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
        assert await migrate(conn, steps[:1]) == [steps[0].name]  # a database of the first version
        await conn.execute("INSERT INTO tables (id, num, rules, seed, created_at) VALUES ('1', 1, %s, 3, 0)",
                           (RuleSet().model_dump_json(),))
        assert await version_of(conn) == 1
        assert await migrate(conn) == [s.name for s in steps[1:]]  # the rest, in order
        assert await migrate(conn) == []  # nothing twice
        assert await version_of(conn) == len(steps)
    db = PostgresStorage(pg_url)
    try:
        assert [t.id for t in await one(db, LoadUnfinished())] == ["1"]  # what the old version kept is still there
    finally:
        await close(db)


def _every_write(table_id: str) -> list[Request]:
    """One write of every kind a table takes, as a server that thinks it still runs it sends them."""
    return [CreateTable(table_id, RuleSet(), 99), SetSeat(table_id, 0, "mallory", "ee" * 32),
            SetSeat(table_id, 3, "mallory"), ClearSeat(table_id, 1), StartTable(table_id),
            AppendAction.of(table_id, 0, DEAL), AppendAction.of(table_id, 2, PLAYS[2]),
            RecordRefusal(table_id, 5, 0, "illegal_move", 9), FinishTable(table_id, 1, (0, 11), "target"),
            CloseTable(table_id, "closed again"), MarkDamaged(table_id, "damaged later"), ClaimTable(table_id)]


async def _kept(db: Any, table_id: str) -> tuple[Any, ...]:
    """Everything the journal answers about an ended table."""
    return (await one(db, FinishedGameOf(table_id)), await one(db, LoadActions(table_id)),
            await one(db, LoadRefusals(table_id)), await one(db, LoadResults(100)), await one(db, LoadUnfinished()))


async def test_a_table_that_has_ended_takes_no_more_writes_and_keeps_what_it_had(kind: Kind) -> None:
    db = await kind.open()
    try:
        await _playing(db, "1")
        await batch(db, [AppendAction.of("1", 0, DEAL), AppendAction.of("1", 1, PLAYS[0]),
                         RecordRefusal("1", 1, 1, "illegal_move")])
        players = (GamePlayer(0, "ada", "person", token_digest="aa" * 32), GamePlayer(1, "greedy-1", "bot", "greedy"))
        await one(db, FinishTable("1", 0, (11, 2), "target", players))
        await _playing(db, "2")
        await one(db, CloseTable("2", "everyone left"))
        await _playing(db, "3")
        await one(db, MarkDamaged("3", "does not replay"))
        before = {t: await _kept(db, t) for t in ("1", "2", "3")}
        for table_id in ("1", "2", "3"):
            for write in _every_write(table_id):  # each alone, and all in one batch
                [alone] = await batch(db, [write])
                assert isinstance(alone, StorageError), (write, alone)
            out = await batch(db, _every_write(table_id))
            assert all(isinstance(r, StorageError) for r in out), out
            assert isinstance(out[0], TableTaken) and "already exists" in str(out[0])
            assert "takes no more writes" in str(out[1]), out[1]
        if kind.reopens:
            await close(db)
            db = await kind.open()
        assert {t: await _kept(db, t) for t in ("1", "2", "3")} == before
        assert (await one(db, FinishedGameOf("1"))).players == players
        assert await one(db, LoadDamaged()) == [("3", "does not replay")]
    finally:
        await close(db)


async def test_table_ids_are_taken_in_blocks_above_every_stored_id_and_never_twice(kind: Kind) -> None:
    db = await kind.open()
    try:
        assert await one(db, TakeTableIds(5)) == 5  # 1..5
        await _playing(db, "7")  # an id given elsewhere (an imported game)
        assert await one(db, TakeTableIds(3)) == 10  # 8..10: above the stored 7
        assert await one(db, TakeTableIds(3)) == 13  # 11..13: not again, though none of 8..10 is stored
        if kind.reopens:
            await close(db)
            db = await kind.open()
        assert await one(db, TakeTableIds(1)) == 14  # kept with the journal
        await _playing(db, "40")
        assert await batch(db, [TakeTableIds(2), TakeTableIds(2)]) == [42, 44]
        assert await one(db, LastTableId()) == 40  # the tables stored, not the ids handed out
    finally:
        await close(db)


async def test_two_journals_on_one_database_never_take_the_same_ids(pg_url: str) -> None:
    first, second = StorageWriter(PostgresStorage(pg_url)), StorageWriter(PostgresStorage(pg_url))
    try:
        tops = await asyncio.gather(*[db.take_table_ids(10) for _ in range(20) for db in (first, second)])
        blocks = [set(range(top - 9, top + 1)) for top in tops]
        assert len(set().union(*blocks)) == 10 * len(blocks) and max(tops) == 10 * len(blocks)
    finally:
        await first.close()
        await second.close()
