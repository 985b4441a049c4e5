"""A server with a database keeps finished games, serves their records and rates the
names that played (PROTOCOL.md §13), on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import Preset
from scopa.client.net import archive, ClientSession, ServerRefused
from scopa.protocol import ErrorCode
from scopa.protocol import commands as wire
from scopa.protocol.record import check_record
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.journal.sqlite.storage import SQLiteStorage
from scopa.server.journal.sqlite.process import StorageProcess

from wire_client import WireClient

# Bots answer at once: no command rate limit, so a dozen games in a row stay on one connection.
UNLIMITED = Limits(commands_per_second=None)


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NetworkEngine]:
    engine = NetworkEngine("127.0.0.1", 0, seed=7, db=str(tmp_path / "games.db"), limits=UNLIMITED)
    await engine.start()
    try:
        yield engine
    finally:
        await engine.stop()


async def play_games(port: int, name: str, count: int, preset: str = "scopa",
                     bots: tuple[str, ...] = ("random",)) -> None:
    """``count`` games of ``name`` (GreedyBot) against server bots."""
    async with await ClientSession.connect("127.0.0.1", port, name) as s:
        for _ in range(count):
            await s.create_table(preset=preset, fill_with_bots=bots)
            await s.play_game(GreedyBot())


async def play_people(port: int, count: int) -> None:
    """``count`` games of greedy (GreedyBot) against randy (RandomBot), two people."""
    async with await ClientSession.connect("127.0.0.1", port, "greedy") as g, \
            await ClientSession.connect("127.0.0.1", port, "randy") as r:
        for _ in range(count):
            info = await g.create_table(preset="scopa")
            await r.join_table(info.id)
            await asyncio.gather(g.play_game(GreedyBot()), r.play_game(RandomBot(seed=3)))


async def play_private_game(port: int, name: str) -> str:
    """One game of ``name`` at a private table against a random bot; its seat token."""
    c = await WireClient.connect(port, name)
    c.send(wire.CreateTable(preset=Preset.SCOPA, fill_with_bots=["random"], private=True))
    c.table = (await c.recv_until("table_created")).body.table.id
    token = (await c.recv_until("joined")).body.token
    await c.play_game(GreedyBot())
    await c.recv_until("left")
    await c.close()
    return token


async def test_a_dozen_greedy_vs_random_games_are_listed_served_and_not_rated(server: NetworkEngine) -> None:
    await play_games(server.port, "greedy", 12)
    async with await ClientSession.connect("127.0.0.1", server.port, "viewer") as s:
        games = await archive.list_games(s)
        assert len(games) == 12
        assert [int(g.id) for g in games] == sorted((int(g.id) for g in games), reverse=True)  # newest first
        assert all(g.players == ["greedy", "random-bot-1"] and g.preset == "scopa" for g in games)
        assert all(g.reason == "target" and g.winner in (0, 1) for g in games)
        assert len(await archive.list_games(s, player="random-bot-1", limit=5)) == 5
        assert await archive.list_games(s, player="nobody") == []
        assert await archive.list_games(s, preset="cirulla") == []
        for g in games[:3]:
            record = await archive.fetch_record(s, g.id)
            assert record.game == g.id and record.result.totals == g.totals and record.result.winner == g.winner
            assert [p.kind.value for p in record.players] == ["person", "bot"]
            assert record.players[1].strategy == "random"
            assert check_record(record) > 0  # R7: the served record replays through the engine
        assert (await archive.leaderboard(s, "scopa")).entries == []  # bots never move a rating (server/players/fairness.py)


async def test_games_between_people_rank_the_better_player_first() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=7, storage=MemoryStorage(), limits=UNLIMITED,
                           rate_shared_addresses=["127.0.0.1"])  # two people on one machine
    await engine.start()
    try:
        await play_people(engine.port, 6)
        async with await ClientSession.connect("127.0.0.1", engine.port, "viewer") as s:
            games = await archive.list_games(s)
            board = await archive.leaderboard(s, "scopa")
            assert (await archive.leaderboard(s, "cirulla")).entries == []
        assert [e.name for e in board.entries] == ["greedy", "randy"]  # greedy above random after six games
        wins = sum(1 for g in games if g.winner == 0)
        top, second = board.entries
        assert (top.games, top.wins, second.games, second.wins) == (6, wins, 6, 6 - wins)
        assert top.rating == pytest.approx(top.mu - 3 * top.sigma, abs=0.01)
        assert top.rating > second.rating
    finally:
        await engine.stop()


async def test_the_archive_survives_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    first = NetworkEngine("127.0.0.1", 0, seed=3, db=db, limits=UNLIMITED, rate_shared_addresses=["127.0.0.1"])
    await first.start()
    await play_people(first.port, 2)
    await first.stop()
    again = NetworkEngine("127.0.0.1", 0, db=db, limits=UNLIMITED)
    await again.start()
    try:
        async with await ClientSession.connect("127.0.0.1", again.port, "bea") as s:
            games = await archive.list_games(s, player="greedy")
            assert len(games) == 2
            check_record(await archive.fetch_record(s, games[-1].id))
            assert [e.games for e in (await archive.leaderboard(s)).entries] == [2, 2]
    finally:
        await again.stop()


async def test_private_games_only_for_a_seat_token_holder(server: NetworkEngine) -> None:
    token = await play_private_game(server.port, "ada")
    await play_games(server.port, "bea", 1)
    async with await ClientSession.connect("127.0.0.1", server.port, "eve") as s:
        listed = await archive.list_games(s)
        assert [g.players[0] for g in listed] == ["bea"]  # ada's private game is not listed
        private_id = str(int(listed[0].id) - 1)
        with pytest.raises(ServerRefused) as refused:
            await archive.fetch_record(s, private_id)
        assert refused.value.code is ErrorCode.PRIVATE_TABLE
        with pytest.raises(ServerRefused):
            await archive.fetch_record(s, private_id, token="not-the-token-123")
        mine = await archive.list_games(s, tokens=[token])
        assert [g.players[0] for g in mine] == ["bea", "ada"] and mine[1].private
        record = await archive.fetch_record(s, private_id, token=token)
        assert record.game == private_id and record.players[0].name == "ada"


async def test_unfinished_and_unknown_games_are_refused(server: NetworkEngine) -> None:
    c = await WireClient.connect(server.port, "ada")
    table = await c.create(bots=["greedy"])  # the game is on: its hands are secret
    await c.recv_until("your_turn")
    c.send(wire.GetRecord(game=table))
    err = await c.recv_until("error")
    assert err.body.code == "no_such_table" and "no finished game" in err.body.message
    c.send(wire.GetRecord(game="999"))
    assert (await c.recv_until("error")).body.code == "no_such_table"
    c.send(wire.ListGames())
    assert (await c.recv_until("games")).body.games == []
    await c.close()


async def test_a_server_without_a_database_says_so(port: int) -> None:
    c = await WireClient.connect(port, "ada")
    for body in (wire.ListGames(), wire.GetRecord(game="1"), wire.GetLeaderboard()):
        c.send(body)
        err = await c.recv_until("error")
        assert err.body.code == "unexpected_command" and "database" in err.body.message
    c.send(wire.ClaimName(password="long enough"))
    err = await c.recv_until("error")
    assert err.body.code == "unexpected_command" and "accounts" in err.body.message
    await c.close()


async def test_without_a_database_the_game_just_finished_is_given_from_its_table() -> None:
    """A server that keeps no games still gives the record of a game just finished at one
    of its tables (its players watch it again from the game's end): whole and consistent,
    a private table's only with one of its seat tokens or its invite."""
    engine = NetworkEngine("127.0.0.1", 0, seed=5, limits=Limits(ping_interval=None))
    await engine.start()
    try:
        c = await WireClient.connect(engine.port, "ada")
        table = await c.create(bots=["greedy"])
        await c.play_game(GreedyBot("ada"))
        c.send(wire.GetRecord(game=table))
        reply = (await c.recv_until("record", "error")).body
        assert isinstance(reply, wire.RecordReply), reply
        assert reply.game == table and [p.name for p in reply.record.players][0] == "ada"
        assert check_record(reply.record) > 0

        c.send(wire.CreateTable(private=True, fill_with_bots=["greedy"]))
        created = (await c.recv_until("table_created")).body
        secret, invite = created.table.id, created.invite
        token = (await c.recv_until("joined")).body.token
        c.table = secret
        await c.play_game(GreedyBot("ada"))
        stranger = await WireClient.connect(engine.port, "bea")
        stranger.send(wire.GetRecord(game=secret))
        assert (await stranger.recv_until("record", "error")).body.code == "private_table"
        stranger.send(wire.GetRecord(game=secret, invite="not-the-invite-123"))
        assert (await stranger.recv_until("record", "error")).body.code == "private_table"
        stranger.send(wire.GetRecord(game=secret, token=token))
        assert isinstance((await stranger.recv_until("record", "error")).body, wire.RecordReply)
        stranger.send(wire.GetRecord(game=secret, invite=invite))  # a spectator who came by the invite
        assert isinstance((await stranger.recv_until("record", "error")).body, wire.RecordReply)
        for who in (c, stranger):
            await who.close()
    finally:
        await engine.stop()


async def test_abandoned_games_and_taken_over_seats_are_not_rated(tmp_path: Path) -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=5, db=str(tmp_path / "g.db"), grace=30.0, clock=clock,
                           limits=UNLIMITED)
    await engine.start()
    try:
        for takeover in (True, False):
            a = await WireClient.connect(engine.port, "gus")
            a.send(wire.CreateTable(fill_with_bots=["random"], bot_takeover=takeover))
            table_id = (await a.recv_until("table_created")).body.table.id
            await a.recv_until("your_turn")
            watcher = await WireClient.connect(engine.port, "watcher")
            watcher.send(wire.WatchTable(table=table_id))
            await watcher.recv_until("snapshot")
            a.abort()
            while (await watcher.recv_until("table_update")).body.table.away != [0]:
                pass
            clock.advance(30.0)  # the grace period ends: a bot plays gus's seat, or the game is abandoned
            end = await watcher.recv_until("game_end")
            assert end.body.reason == ("target" if takeover else "abandoned")
            await watcher.close()
        storage = engine.storage
        assert storage is not None and isinstance(storage, StorageProcess)
        await engine.ratings.settled()
        taken, abandoned = (await storage.finished_games(player="gus"))[::-1]
        assert taken.players[0].taken_over and taken.players[0].kind == "person"
        assert abandoned.reason == "abandoned"
        assert await storage.ratings("scopa", ["gus", "random-bot-1"]) == {}  # nothing rated
        record = await engine.archive.record_of(taken)
        assert record.players[0].taken_over and check_record(record) > 0
        cut = await engine.archive.record_of(abandoned)
        assert cut.result.reason.value == "abandoned" and check_record(cut) > 0
    finally:
        await engine.stop()


async def test_a_seat_taken_over_before_a_restart_stays_unrated(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    clock = FakeClock()
    first = NetworkEngine("127.0.0.1", 0, seed=6, db=db, grace=30.0, clock=clock, limits=UNLIMITED)
    await first.start()
    a = await WireClient.connect(first.port, "gus")
    a.send(wire.CreateTable(fill_with_bots=["random"]))
    table_id = (await a.recv_until("table_created")).body.table.id
    await a.recv_until("your_turn")
    watcher = await WireClient.connect(first.port, "watcher")
    watcher.send(wire.WatchTable(table=table_id))
    await watcher.recv_until("snapshot")
    a.abort()
    while (await watcher.recv_until("table_update")).body.table.away != [0]:
        pass
    table = first.tables[table_id]
    # Stop the game master once the bot has taken the seat (before it plays on), then restart.
    table.players[1].choose = _never  # type: ignore[method-assign]
    clock.advance(30.0)
    while (await watcher.recv_until("table_update")).body.table.away != []:
        pass
    await watcher.close()
    await first.stop()
    again = NetworkEngine("127.0.0.1", 0, db=db, limits=UNLIMITED)
    await again.start()
    try:
        restored = again.tables[table_id]
        assert list(restored.taken_over) == [0] and restored.seats[0].bot is not None  # type: ignore[union-attr]
        assert restored.task is not None
        await restored.task  # bots play it to the end
        storage = again.storage
        assert storage is not None and isinstance(storage, StorageProcess)
        await again.ratings.settled()
        (game,) = await storage.finished_games(player="gus")
        assert game.players[0].taken_over and game.reason == "target"
        assert await storage.ratings("scopa", ["gus", "random-bot-1"]) == {}
    finally:
        await again.stop()


async def _never(*args: object) -> None:
    await asyncio.Event().wait()


async def test_an_abandoned_game_is_listed_with_the_seat_whose_person_left(server: NetworkEngine) -> None:
    """PROTOCOL.md §13: ``games`` gives an abandoned game's ``leaver`` (from the journal), as its
    ``game_end`` did; a game played to its end has none."""
    played = await WireClient.connect(server.port, "ada")
    await played.create(bots=["greedy"])
    await played.play_game(RandomBot(seed=2))
    gus = await WireClient.connect(server.port, "gus")
    table = await gus.create(bots=["random", "random", "random"], bot_takeover=False, players=4)
    await gus.recv_until("your_turn")
    gus.send(wire.LeaveTable(table=table))
    end = await gus.recv_until("game_end")
    assert (end.body.reason, end.body.leaver) == ("abandoned", gus.seat)
    await gus.recv_until("left")
    await server.ratings.settled()
    gus.send(wire.ListGames())
    games = {g.id: g for g in (await gus.recv_until("games")).body.games}
    assert (games[table].reason, games[table].leaver) == ("abandoned", gus.seat)
    assert [g.leaver for g in games.values() if g.id != table] == [None]
    assert '"leaver"' not in games[played.table or ""].model_dump_json()  # left out when nil
    for c in (played, gus):
        await c.close()
