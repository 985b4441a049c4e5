"""An abandoned game's leaver (the seat whose person left, or did not come back in time) is
kept with its end in every journal (memory, SQLite, PostgreSQL: the real server, a schema of
its own per test) and read back with the finished game (a ``games`` listing's ``leaver``,
PROTOCOL.md §13) and with the finished table restored after a restart (its ``game_end``).
A database written before the leaver was kept (SQLite format 3, PostgreSQL schema 6) opens,
its games read back with no leaver, and keeps the leaver of the games that end after."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from scopa.engine import Deal, RuleSet
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.journal.commands import (
    AppendAction, CreateTable, FinishedGameOf, FinishedGames, FinishTable, LoadFinishedSince, Request, SetSeat,
    StartTable,
)
from scopa.server.journal.postgres.schema import migrate, migrations
from scopa.server.journal.postgres.storage import PostgresStorage
from scopa.server.journal.sqlite import schema as sqlite_schema
from scopa.server.journal.sqlite.storage import SQLiteStorage
from scopa.server.journal.values import GamePlayer

from pg import pg_url  # noqa: F401 - the fixture
from test_journal_conformance import Kind, batch, close, kind, one  # noqa: F401 - kind: the fixture
from wire_client import WireClient

pytestmark = pytest.mark.integration

DEAL = Deal(tuple(range(40)))
PLAYERS = (GamePlayer(0, "ada", "person", token_digest="aa" * 32), GamePlayer(1, "bea", "person", token_digest="bb" * 32))


def _started(table_id: str) -> list[Request]:
    return [CreateTable(table_id, RuleSet(), 7), SetSeat(table_id, 0, "ada", "aa" * 32),
            SetSeat(table_id, 1, "bea", "bb" * 32), StartTable(table_id), AppendAction.of(table_id, 0, DEAL)]


async def _ends_read_back(db: Any, kept: dict[str, int | None] | None = None) -> None:
    """Table 1 abandoned by seat 1, table 2 played to its target: the leaver of each, as the
    archive and a restart read them (beside the games ``kept`` from before, with theirs)."""
    assert await batch(db, [*_started("1"), *_started("2")]) == [None] * 10
    assert await batch(db, [FinishTable("1", None, (3, 5), "abandoned", PLAYERS, leaver=1),
                            FinishTable("2", 0, (11, 4), "target", PLAYERS)]) == [None, None]
    assert (await one(db, FinishedGameOf("1"))).leaver == 1
    assert (await one(db, FinishedGameOf("2"))).leaver is None
    leavers = {"1": 1, "2": None, **(kept or {})}
    assert {g.id: g.leaver for g in await one(db, FinishedGames())} == leavers
    assert {t.result.id: t.result.leaver for t in await one(db, LoadFinishedSince(0.0))} == leavers


async def test_an_abandoned_games_leaver_is_kept_with_its_end_and_read_back(kind: Kind) -> None:
    db = await kind.open()
    try:
        await _ends_read_back(db)
    finally:
        await close(db)


async def _old_game_then_ends(db: Any) -> None:
    """Game 9, abandoned before the leaver was kept, reads back with none; then the games
    that end now keep theirs (``db`` closed after)."""
    try:
        old = await one(db, FinishedGameOf("9"))
        assert (old.reason, old.leaver, [p.name for p in old.players]) == ("abandoned", None, ["ada", "bea"])
        await _ends_read_back(db, {"9": None})
    finally:
        await close(db)


def _format_3(path: Path) -> None:
    """A file as a server of format 3 left it: this format's relations less the leaver
    column, and one abandoned game finished then (its leaver not kept)."""
    con = sqlite3.connect(path)
    old = (sqlite_schema._SCHEMA + sqlite_schema.ARCHIVE_SCHEMA).replace(
        "record      BLOB,                      -- a finished table's actions, compacted (zlib JSON)\n"
        "    leaver      INTEGER                    -- an abandoned game's seat whose person left "
        "(or did not come back)\n",
        "record      BLOB\n")
    assert "leaver" not in old
    con.executescript(old)
    con.execute("INSERT INTO meta VALUES ('schema_version', '3')")
    con.execute("INSERT INTO tables (id, num, rules, seed, status, created_at, finished_at, totals, reason) "
                "VALUES ('9', 9, ?, 1, 'finished', 1.0, 2.0, '[1, 2]', 'abandoned')", (RuleSet().model_dump_json(),))
    con.executemany("INSERT INTO game_players (table_id, seat, name, kind) VALUES ('9', ?, ?, 'person')",
                    [(0, "ada"), (1, "bea")])
    con.commit()
    con.close()


async def test_a_sqlite_file_from_before_the_leaver_opens_and_keeps_it_after(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _format_3(path)
    db = SQLiteStorage(str(path))
    await _old_game_then_ends(db)
    con = sqlite3.connect(path)
    try:
        assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (
            str(sqlite_schema.SCHEMA_VERSION),)
    finally:
        con.close()


async def test_a_postgres_database_from_before_the_leaver_opens_and_keeps_it_after(pg_url: str) -> None:
    steps = migrations()
    before = steps[:6]
    assert steps[6].name == "007_leaver.sql"
    async with await psycopg.AsyncConnection.connect(pg_url, autocommit=True) as conn:
        await migrate(conn, before)  # the schema as the server before the leaver left it
        await conn.execute("INSERT INTO tables (id, num, rules, seed, status, created_at, finished_at, totals, reason) "
                           "VALUES ('9', 9, %s, 1, 'finished', 1.0, 2.0, '[1, 2]', 'abandoned')",
                           (RuleSet().model_dump_json(),))
        await conn.execute("INSERT INTO game_players (table_id, seat, name, kind) "
                           "VALUES ('9', 0, 'ada', 'person'), ('9', 1, 'bea', 'person')")
    db = PostgresStorage(pg_url)
    await db.open()
    await _old_game_then_ends(db)


@pytest.mark.process
async def test_a_seat_back_after_a_restart_is_told_who_left_the_abandoned_game(tmp_path: Path) -> None:
    """bea's connection drops; gus leaves the game (no bot plays on): abandoned.  The server
    restarts on the same file; bea resumes her seat to learn the end: its ``game_end``,
    restored from the journal, still names gus's seat as the leaver."""
    db = str(tmp_path / "games.db")
    engine = NetworkEngine("127.0.0.1", 0, seed=5, db=db, grace=600.0)
    await engine.start()
    clients: list[WireClient] = []
    try:
        gus = await WireClient.connect(engine.port, "gus")
        bea = await WireClient.connect(engine.port, "bea")
        clients += [gus, bea]
        table = await gus.create(bot_takeover=False)
        joined = await bea.join(table)
        token = joined.body.token
        await gus.recv_until("game_start")
        bea.abort()
        gus.send(wire.LeaveTable(table=table))
        end = await gus.recv_until("game_end")
        assert (end.body.reason, end.body.leaver) == ("abandoned", gus.seat)
        await engine.ratings.settled()
    finally:
        for c in clients:
            c.abort()
        await engine.stop()
    again = NetworkEngine("127.0.0.1", 0, seed=6, db=db, grace=600.0)
    await again.start()
    try:
        back = await WireClient.connect(again.port)
        assert (await back.resume(token, 0, name="bea", table=table)).name == "welcome"
        told = await back.recv_until("game_end")
        assert (told.body.reason, told.body.leaver) == ("abandoned", gus.seat)
        back.abort()
    finally:
        await again.stop()
