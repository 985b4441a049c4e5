"""A server that one cheap client cannot wear down: caps on bot-only and waiting tables,
a paged listing whose cost is its page, a byte-capped outgoing queue, private tables
that stay private, sanitised text, case-insensitive names, and the smaller faults
(resuming at a waiting table, watch-then-join, flapping spectators).

Caps are checked through the server's own command handler with a recording session
(every command of a burst handled before any game can move, as when they arrive in one
read); everything else over loopback sockets."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from scopa.protocol import Message, Outgoing
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.table.seats import Seats
from scopa.server.table.table import Table

from wire_client import WireClient
from paths import ROOT

def uncapped() -> Limits:
    """No caps on tables, connections or the command rate (a test makes many tables)."""
    return Limits(max_waiting_tables_per_client=None, max_waiting_tables=None, max_connections_per_address=None,
                  max_waiting_tables_per_address=None, commands_per_second=None)


class RecordingSession:
    """Stands for a connection in the server's handlers: records what it is sent."""

    def __init__(self, conn_id: int, name: str) -> None:
        self.id = conn_id
        self.name = name
        self.table_id: str | None = None
        self.sent: list[wire.Body] = []
        self.peer = "test"
        self.address = "127.0.0.1"
        self.closed = False

    @property
    def party(self) -> str:
        return f"player:{self.name}"

    def send(self, outgoing: Outgoing) -> None:
        assert isinstance(outgoing, Message), outgoing
        self.sent.append(outgoing.body)

    def tell(self, body: wire.Body, re: int | None = None) -> None:
        self.send(Message(body, self.party, "lobby", re))

    def error(self, code: ErrorCode, message: str, re: int | None = None, **_: Any) -> None:
        self.sent.append(wire.Error(code=code, message=message[:500]))

    def replies(self, *names: str) -> list[wire.Body]:
        return [b for b in self.sent if b.NAME in names]


async def _until(condition: Any, what: str) -> None:
    """Wait (on the event loop, a few seconds at most) for the server to get there."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {what}")


@pytest.fixture
async def engine() -> AsyncIterator[NetworkEngine]:
    server = NetworkEngine("127.0.0.1", 0, seed=12)
    await server.start()
    yield server
    await server.stop()


# ------------------------------------------------------------------ bot-only games


async def test_bot_only_games_are_capped_per_client_and_per_server() -> None:
    server = NetworkEngine("127.0.0.1", 0, seed=1, limits=Limits(max_bot_tables=3))
    await server.start()
    try:
        a, b = RecordingSession(1, "ann"), RecordingSession(2, "ben")
        burst = wire.CreateTable(fill_with_bots=["greedy", "random"], sit=False)
        for i in range(3):  # one burst: no game can end in between
            server.router.route(a, burst, i, "lobby")  # type: ignore[arg-type]
        for i in range(3):
            server.router.route(b, burst, i, "lobby")  # type: ignore[arg-type]
        assert len(a.replies("table_created")) == 2  # Limits.max_bot_tables_per_client default: 2
        [refused] = a.replies("error")
        assert refused.code == ErrorCode.TOO_MANY_TABLES and "2" in refused.message
        assert len(b.replies("table_created")) == 1  # the server's cap of 3
        assert all(e.code == ErrorCode.TOO_MANY_TABLES for e in b.replies("error"))
        assert server.tables.bot_game_count == 3
        assert len([t for t in server.tables.values() if t.state is wire.TableState.PLAYING]) == 3
    finally:
        await server.stop()


def test_the_default_caps() -> None:
    limits = Limits()
    assert (limits.max_bot_tables_per_client, limits.max_bot_tables) == (2, 16)
    assert (limits.max_waiting_tables_per_client, limits.max_waiting_tables) == (4, 500)
    assert limits.max_queued_bytes == 256 * 1024


async def test_a_finished_bot_game_frees_its_place(engine: NetworkEngine) -> None:
    c = await WireClient.connect(engine.port, "solo")
    for _ in range(3):  # more than the per-client cap, one after the other
        c.send(wire.CreateTable(fill_with_bots=["greedy", "greedy"], sit=False))
        created = (await c.recv_until("table_created", "error")).body
        assert isinstance(created, wire.TableCreated), created
        await engine.tables[created.table.id].task
    await c.close()


async def test_a_finished_bot_only_game_keeps_no_event_log(engine: NetworkEngine) -> None:
    c = await WireClient.connect(engine.port, "solo")
    c.send(wire.CreateTable(fill_with_bots=["greedy", "random"], sit=False))
    created = (await c.recv_until("table_created", "error")).body
    assert isinstance(created, wire.TableCreated), created
    table = engine.tables[created.table.id]
    await table.task
    # Nobody holds a seat token, so nobody can resume to read the end: nothing is kept.
    assert table.state is wire.TableState.FINISHED
    assert len(table.events.kept) == 0
    await c.close()


# ------------------------------------------------------------------ waiting tables


async def test_waiting_tables_are_capped_per_client_and_per_server() -> None:
    server = NetworkEngine("127.0.0.1", 0, seed=2, limits=Limits(max_waiting_tables=6))
    await server.start()
    try:
        a, b = RecordingSession(1, "ann"), RecordingSession(2, "ben")
        spam = wire.CreateTable(options={"players": 3}, fill_with_bots=["greedy"], sit=False)
        for i in range(5):
            server.router.route(a, spam, i, "lobby")  # type: ignore[arg-type]
        assert len(a.replies("table_created")) == 4
        assert [e.code for e in a.replies("error")] == [ErrorCode.TOO_MANY_TABLES]
        for i in range(4):
            server.router.route(b, spam, i, "lobby")  # type: ignore[arg-type]
        assert len(b.replies("table_created")) == 2  # 6 waiting on the server
        assert server.tables.waiting_count == 6
    finally:
        await server.stop()


async def test_a_clients_empty_waiting_tables_close_when_it_leaves(engine: NetworkEngine) -> None:
    spammer = await WireClient.connect(engine.port, "spammer")
    host = await WireClient.connect(engine.port, "host")
    ids = []
    for _ in range(3):
        spammer.send(wire.CreateTable(options={"players": 3}, fill_with_bots=["greedy"], sit=False))
        ids.append((await spammer.recv_until("table_created")).body.table.id)
    kept = await host.create()  # a person sits here: it stays
    spammer.send(wire.CreateTable(options={"players": 3}, sit=False))
    ids.append((await spammer.recv_until("table_created")).body.table.id)
    mine = ids[-1]
    guest = await WireClient.connect(engine.port, "guest1")
    assert (await guest.join(mine)).name == "joined"  # a person sat at the spammer's 4th table
    await spammer.close()
    await _until(lambda: "spammer" not in engine.names, "the spammer's disconnection")
    assert all(t not in engine.tables for t in ids[:3])
    assert mine in engine.tables and kept in engine.tables
    await host.close()
    await guest.close()


# ------------------------------------------------------------------ the listing


async def test_the_listing_is_paged_filtered_and_costs_its_page(monkeypatch: pytest.MonkeyPatch) -> None:
    server = NetworkEngine("127.0.0.1", 0, seed=3, limits=uncapped())
    await server.start()
    try:
        owner = RecordingSession(1, "owner")
        for i in range(4000):
            players = 3 if i % 4 == 0 else 2
            server.router.route(owner, wire.CreateTable(options={"players": players}, sit=False), i, "lobby")  # type: ignore[arg-type]
        server.router.route(owner, wire.CreateTable(sit=False, private=True), 9999, "lobby")  # type: ignore[arg-type]
        calls = [0]
        info = Table.info

        def counted(self: Table) -> wire.TableInfo:
            calls[0] += 1
            return info(self)

        monkeypatch.setattr(Table, "info", counted)
        c = await WireClient.connect(server.port, "reader")
        seen: list[str] = []
        after = None
        pages = 0
        while True:
            c.send(wire.ListTables(state=wire.TableState.WAITING, players=3, after=after))
            page = (await c.recv_until("tables")).body
            pages += 1
            assert len(page.tables) <= 50 and page.total == 1000
            assert all(t.rules.players == 3 and t.state is wire.TableState.WAITING for t in page.tables)
            seen += [t.id for t in page.tables]
            after = page.next
            if after is None:
                break
        assert pages == 20 and len(seen) == 1000 == len(set(seen))
        assert seen == sorted(seen, key=int) and not any(server.tables[t].private for t in seen)
        calls[0] = 0
        c.send(wire.ListTables(limit=10))
        page = (await c.recv_until("tables")).body
        assert len(page.tables) == 10 and page.total == 4000  # the private table is not listed
        assert calls[0] == 10  # cost: the page, not the 4001 tables
        await c.close()
    finally:
        await server.stop()


async def test_the_index_follows_tables_that_start_and_finish(engine: NetworkEngine) -> None:
    a = await WireClient.connect(engine.port, "ann")
    a.send(wire.CreateTable(bot_takeover=False))  # ann leaving ends the game
    table = (await a.recv_until("table_created")).body.table.id
    await a.recv_until("joined")
    a.send(wire.ListTables(state=wire.TableState.WAITING))
    assert [t.id for t in (await a.recv_until("tables")).body.tables] == [table]
    b = await WireClient.connect(engine.port, "bob")
    await b.join(table)
    await a.recv_until("game_start")
    a.send(wire.ListTables(state=wire.TableState.WAITING))
    assert (await a.recv_until("tables")).body.tables == []
    a.send(wire.ListTables(state=wire.TableState.PLAYING))
    assert [t.id for t in (await a.recv_until("tables")).body.tables] == [table]
    a.send(wire.LeaveTable(table=table))
    await a.recv_until("left")
    a.send(wire.ListTables(state=wire.TableState.FINISHED))
    assert [t.id for t in (await a.recv_until("tables")).body.tables] == [table]
    await a.close()
    await b.close()


# ------------------------------------------------------------------ a client that does not read


async def test_a_client_that_does_not_read_is_dropped_at_256_kilobytes() -> None:
    server = NetworkEngine("127.0.0.1", 0, seed=4, limits=uncapped())
    await server.start()
    try:
        owner = RecordingSession(1, "owner")
        for i in range(50):  # a full page of tables: each listing is about 16 KB
            server.router.route(owner, wire.CreateTable(options={"players": 3}, sit=False), i, "lobby")  # type: ignore[arg-type]
        deaf = await WireClient.connect(server.port, "deaf")
        [sess] = [s for s in server.sessions.values() if s.name == "deaf"]
        for _ in range(400):  # 400 frames (far below max_queued_frames), about 6 MB
            deaf.send(wire.ListTables())
        await _until(lambda: sess.dropped, "the deaf client dropped")
        assert sess.queued_bytes <= 256 * 1024 + 64 * 1024
        assert "deaf" not in server.names or server.names["deaf"] is not sess
        # Everyone else is served as before.
        other = await WireClient.connect(server.port, "other")
        seq = other.send(wire.Ping(nonce=5))
        assert (await other.recv_until("pong")).re == seq
        await other.close()
        deaf.abort()
    finally:
        await server.stop()


# ------------------------------------------------------------------ create_table options


@pytest.mark.parametrize("options", [{"preset": "scopa"}, {"cls": 1}, {"self": True}, {"players": "many"},
                                     {"target": 10**12}, {"options": None}])
async def test_hostile_create_table_options_get_bad_rules(engine: NetworkEngine, options: dict[str, Any]) -> None:
    c = await WireClient.connect(engine.port, "fuzzy")
    seq = c.send(wire.CreateTable(options=options))
    err = await c.recv_until("error", "table_created")
    assert err.name == "error" and err.re == seq and err.body.code == "bad_rules" and err.body.message
    assert not err.body.fatal
    seq = c.send(wire.Ping(nonce=1))  # the connection is still there
    assert (await c.recv_until("pong")).re == seq
    await c.close()


# ------------------------------------------------------------------ private tables


async def test_a_private_table_needs_its_invite_code(engine: NetworkEngine) -> None:
    a = await WireClient.connect(engine.port, "ann")
    a.send(wire.CreateTable(private=True))
    created = (await a.recv_until("table_created")).body
    table, invite = created.table.id, created.invite
    assert invite is not None and len(invite) >= 24
    a.send(wire.CreateTable(private=True, sit=False))
    other = (await a.recv_until("table_created")).body.invite
    assert other is not None and other != invite
    b = await WireClient.connect(engine.port, "bob")
    for attempt in (None, "wrong-invite-code", other):
        b.send(wire.JoinTable(table=table, invite=attempt))
        err = (await b.recv_until("error", "joined")).body
        assert isinstance(err, wire.Error) and err.code == ErrorCode.NO_SUCH_TABLE
        assert err.message == f"there is no table {table!r}"  # the same words as for a missing table
    b.send(wire.JoinTable(table="424242"))
    assert (await b.recv_until("error")).body.message == "there is no table '424242'"
    b.send(wire.ListTables())
    assert table not in [t.id for t in (await b.recv_until("tables")).body.tables]
    b.send(wire.JoinTable(table=table, invite=invite))
    assert (await b.recv_until("joined", "error")).name == "joined"
    await a.close()
    await b.close()


# ------------------------------------------------------------------ text and names


async def test_control_characters_are_stripped_from_chat_and_client(engine: NetworkEngine,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="scopa.server")
    a = await WireClient.connect(engine.port)
    a.send(wire.Hello(name="ann", client="evil\x1b]0;owned\x07\x1b[2J 1.0"))
    await a.recv_until("welcome")
    b = await WireClient.connect(engine.port, "bob")
    a.send(wire.Chat(text="\x1b[2J\x1b]0;title\x07hi\x1b]52;c;ZXZpbA==\x07 there\u202e!\r\nnext"), recipient="lobby")
    msg = (await b.recv_until("chat_message")).body
    assert msg.text == "[2J]0;titlehi]52;c;ZXZpbA== there! next"
    assert not any(ord(ch) < 32 or 0x7f <= ord(ch) < 0xa0 for ch in msg.text)
    seq = a.send(wire.Chat(text="\x1b\x07\x00"), recipient="lobby")
    err = await a.recv_until("error")
    assert err.re == seq and err.body.code == "bad_body"
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "evil" in logged and "\x1b" not in logged and "\x07" not in logged
    await a.close()
    await b.close()


async def test_names_are_unique_regardless_of_case_and_bot_names_are_reserved(engine: NetworkEngine) -> None:
    a = await WireClient.connect(engine.port, "Ada")
    for name in ("ada", "ADA", "greedy-bot-1", "RANDOM-BOT-0", "greedy-bot-12"):
        c = await WireClient.connect(engine.port)
        reply = await c.hello(name)
        assert reply.name == "error" and reply.body.code == "name_taken", name
        await c.close()
    c = await WireClient.connect(engine.port)
    assert (await c.hello("greedy-bot")).name == "welcome"  # not a server bot's name
    await a.close()
    await c.close()


# ------------------------------------------------------------------ smaller faults


async def test_resuming_a_seat_at_a_waiting_table_keeps_the_seat(engine: NetworkEngine) -> None:
    a = await WireClient.connect(engine.port, "ann")
    table = await a.create()
    assert a.token is not None
    again = await WireClient.connect(engine.port)
    assert (await again.resume(a.token, a.last_event, "ann")).name == "welcome"
    joined = await again.recv_until("joined", "left")
    assert joined.name == "joined" and joined.body.resumed and joined.body.seat == a.seat
    b = await WireClient.connect(engine.port, "bob")
    await b.join(table)
    nxt = await again.recv_until("game_start", "left")
    assert nxt.name == "game_start"  # no `left`, no ghost seat: the game starts with ann
    assert [s.name for s in nxt.body.seats] == ["ann", "bob"]
    await again.close()
    await b.close()


async def test_watching_then_joining_delivers_each_event_once(engine: NetworkEngine) -> None:
    a = await WireClient.connect(engine.port, "ann")
    table = await a.create()
    s = await WireClient.connect(engine.port, "sam")
    s.send(wire.WatchTable(table=table))
    await s.recv_until("snapshot")
    await s.join(table)
    await s.recv_until("game_start")
    await s.recv_until("round_start")
    seq = s.send(wire.Ping(nonce=3))
    while (cmd := await s.recv()).name != "pong":
        assert cmd.name not in ("game_start", "round_start"), "an event came twice"
    assert cmd.re == seq
    assert engine.tables[table].broadcaster.spectators == []
    await a.close()
    await s.close()


async def test_flapping_spectators_cost_a_seated_player_one_update_per_interval() -> None:
    clock = FakeClock()
    server = NetworkEngine("127.0.0.1", 0, seed=5, clock=clock, limits=Limits(commands_per_second=None))
    await server.start()
    try:
        a = await WireClient.connect(server.port, "ann")
        table = await a.create()
        seq = a.send(wire.Ping(nonce=1))
        while (cmd := await a.recv()).name != "pong":
            pass
        s = await WireClient.connect(server.port, "flap")
        for _ in range(500):
            s.send(wire.WatchTable(table=table))
            s.send(wire.UnwatchTable(table=table))
        for _ in range(500):
            await s.recv_until("left")
        seq = a.send(wire.Ping(nonce=2))
        updates = []
        while (cmd := await a.recv()).name != "pong":
            updates.append(cmd.body)
        assert cmd.re == seq
        assert 1 <= len(updates) <= 2 and all(u.NAME == "table_update" for u in updates)
        clock.advance(1.0)  # the interval is over: one update with the final count
        last = await a.recv_until("table_update")
        assert last.body.table.spectators == 0
        await a.close()
        await s.close()
    finally:
        await server.stop()


# ------------------------------------------------------------------ every limit documented and settable


def test_every_limit_is_in_the_readme_and_settable_from_scopa_serve() -> None:
    from dataclasses import fields
    from pathlib import Path

    from scopa.cli.admin import limit_options
    from scopa.cli import build_parser

    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("### Limits"):readme.index("### The operator")]
    for f in fields(Limits):
        option = "--" + f.name.replace("_", "-")
        assert f"`{f.name}`" in table or f"`{option}`" in table, f.name
    args = build_parser().parse_args(["serve", "--max-bot-tables", "3", "--max-waiting-tables", "none",
                                      "--limit", "ping_interval=12.5", "--limit", "max_queued_frames=99"])
    limits = Limits.from_options(limit_options(args))
    assert (limits.max_bot_tables, limits.max_waiting_tables) == (3, None)
    assert (limits.ping_interval, limits.max_queued_frames) == (12.5, 99)
    assert limits.max_bot_tables_per_client == 2  # untouched: the default
    with pytest.raises(ValueError):
        Limits.from_options({"max_tables_of_doom": "1"})


async def test_the_name_of_an_away_seat_stays_taken_in_any_case(engine: NetworkEngine) -> None:
    a = await WireClient.connect(engine.port, "Ann")
    table = await a.create(bots=["greedy"])
    await a.recv_until("game_start")
    a.abort()
    await _until(lambda: engine.tables[table].seats[0].away, "the seat away")
    assert engine.tables.with_away_seats() == [engine.tables[table]]
    c = await WireClient.connect(engine.port)
    reply = await c.hello("aNN")
    assert reply.name == "error" and reply.body.code == "name_taken"
    assert a.token is not None
    assert (await c.resume(a.token, a.last_event, "x")).name == "welcome"
    await _until(lambda: not engine.tables.with_away_seats(), "the seat back")
    await c.close()


async def test_a_guessed_seat_token_costs_one_lookup_not_a_walk_over_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    server = NetworkEngine("127.0.0.1", 0, seed=6, limits=uncapped())
    await server.start()
    try:
        owner = RecordingSession(1, "owner")
        for i in range(1000):
            server.router.route(owner, wire.CreateTable(options={"players": 3}, sit=False), i, "lobby")  # type: ignore[arg-type]
        a = await WireClient.connect(server.port, "ann")
        await a.create()
        looked = [0]
        find = Seats.find_digest

        def counted(self: Seats, digest: str) -> int | None:
            looked[0] += 1
            return find(self, digest)

        monkeypatch.setattr(Seats, "find_digest", counted)
        guesser = await WireClient.connect(server.port)
        for n in range(20):
            reply = await guesser.resume(f"guessed-token-{n:04d}", 0, "x")
            assert reply.name == "error" and reply.body.code == "bad_token"
        assert looked[0] == 0
        assert a.token is not None
        assert (await guesser.resume(a.token, a.last_event, "x")).name == "welcome"
        assert looked[0] == 1
        await guesser.close()
    finally:
        await server.stop()


async def test_the_client_sdk_creates_joins_and_watches_a_private_table(engine: NetworkEngine) -> None:
    from scopa.client.net import ClientSession, ServerRefused

    async with await ClientSession.connect("127.0.0.1", engine.port, "host") as host:
        info = await host.create_table(private=True)
        assert info.private and host.invite is not None
        async with await ClientSession.connect("127.0.0.1", engine.port, "friend") as friend:
            with pytest.raises(ServerRefused) as refused:
                await friend.watch_table(info.id)
            assert refused.value.code == ErrorCode.NO_SUCH_TABLE
            assert (await friend.watch_table(info.id, invite=host.invite)).table.id == info.id
            joined = await friend.join_table(info.id, invite=host.invite)
            assert joined.table == info.id


async def test_a_claimed_name_is_claimed_in_every_case(tmp_path: Any) -> None:
    from scopa.client.net import archive

    from scopa.client.net import ClientSession

    server = NetworkEngine("127.0.0.1", 0, seed=7, db=str(tmp_path / "games.db"), accounts=True,
                           limits=Limits(commands_per_second=None))
    await server.start()
    try:
        async with await ClientSession.connect("127.0.0.1", server.port, "ada") as s:
            assert await archive.claim_name(s, "correct horse battery") == "ada"
        c = await WireClient.connect(server.port)
        reply = await c.hello("ADA")
        assert reply.name == "error" and reply.body.code == "name_taken" and "claimed" in reply.body.message
        await c.close()
    finally:
        await server.stop()
