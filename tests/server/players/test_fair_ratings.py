"""Ratings that mean something (server/players/fairness.py): only games between people are rated,
never between two connections from one address or of one identity behind a front end
(unless the server allows one address), leaving or abandoning a rated game is its
loss, and look-alike names are one leaderboard row.  Real sockets from several
loopback source addresses; the grace period runs on the server's fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import Preset
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.core.text import name_key

from wire_client import WireClient

LIMITS = Limits(commands_per_second=None, ping_interval=None)
GRACE = 30.0


@asynccontextmanager
async def running(clock: FakeClock | None = None, **options: object) -> AsyncIterator[NetworkEngine]:
    """A server with ratings (kept in memory), stopped at the end."""
    engine = NetworkEngine("127.0.0.1", 0, seed=9, storage=MemoryStorage(), limits=LIMITS, grace=GRACE,
                           clock=clock, **options)  # type: ignore[arg-type]
    await engine.start()
    try:
        yield engine
    finally:
        await engine.stop()


async def connect_from(port: int, source: str, name: str, identity: str | None = None) -> WireClient:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    client = WireClient(reader, writer)
    client.send(wire.Hello(name=name, proxied_for=identity))
    welcome = (await client.recv()).body
    assert isinstance(welcome, wire.Welcome), welcome
    client.party = welcome.you
    return client


async def seat_everyone(clients: Sequence[WireClient], preset: Preset = Preset.SCOPA,
                        bots: Sequence[str] = (), takeover: bool = True) -> str:
    """The first client creates a table, the others join it: the game starts."""
    host = clients[0]
    host.send(wire.CreateTable(preset=preset, fill_with_bots=list(bots), bot_takeover=takeover))
    table = host.table = (await host.recv_until("table_created")).body.table.id
    host.seat = (await host.recv_until("joined")).body.seat
    for c in clients[1:]:
        assert (await c.join(table)).name == "joined"
    return table


async def play(clients: Sequence[WireClient], preset: Preset = Preset.SCOPA, bots: Sequence[str] = ()) -> str:
    """One game to its end between ``clients`` (a greedy, then random players)."""
    table = await seat_everyone(clients, preset, bots)
    await asyncio.gather(*(c.play_game(GreedyBot() if i == 0 else RandomBot(seed=i)) for i, c in enumerate(clients)))
    for c in clients:
        await c.recv_until("left")
    return table


async def board(engine: NetworkEngine, preset: Preset = Preset.SCOPA) -> dict[str, tuple[int, int]]:
    """The leaderboard: name -> (games, wins)."""
    await engine.ratings.settled()
    viewer = await connect_from(engine.port, "127.0.0.99", "viewer")
    viewer.send(wire.GetLeaderboard(preset=preset))
    entries = (await viewer.recv_until("leaderboard")).body.entries
    await viewer.close()
    return {e.name: (e.games, e.wins) for e in entries}


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (on the event loop, a few seconds at most) for the server to get there."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {what}")


async def test_games_between_people_are_rated_and_games_against_bots_are_not() -> None:
    async with running() as engine:
        ada = await connect_from(engine.port, "127.0.0.2", "ada")
        await play([ada], bots=["random"])  # a win (or a loss) against a bot: nothing
        assert await board(engine) == {}
        bea = await connect_from(engine.port, "127.0.0.3", "bea")
        table = await play([ada, bea])
        winner = engine.tables[table].master.state.winner  # type: ignore[union-attr]
        assert await board(engine) == {"ada": (1, int(winner == 0)), "bea": (1, int(winner == 1))}
        for c in (ada, bea):
            await c.close()


async def test_a_team_game_of_four_people_rates_each_teammate() -> None:
    async with running() as engine:
        people = [await connect_from(engine.port, f"127.0.0.{2 + i}", name)
                  for i, name in enumerate(("ada", "bea", "cy", "dan"))]
        table = await play(people, Preset.SCOPONE)
        winner = engine.tables[table].master.state.winner  # type: ignore[union-attr]
        rated = await board(engine, Preset.SCOPONE)
        # R5: seats 0 and 2 against 1 and 3; teammates win (or lose) together
        assert rated == {"ada": (1, int(winner == 0)), "cy": (1, int(winner == 0)),
                         "bea": (1, int(winner == 1)), "dan": (1, int(winner == 1))}
        for c in people:
            await c.close()


async def test_two_connections_from_one_address_are_not_rated_unless_the_server_allows_it() -> None:
    for shared in ((), ("127.0.0.0/30",)):
        async with running(rate_shared_addresses=shared) as engine:
            me = await connect_from(engine.port, "127.0.0.2", "me")
            also_me = await connect_from(engine.port, "127.0.0.2", "alt")
            await play([me, also_me])
            rated = await board(engine)
            assert ({name: games for name, (games, _) in rated.items()} == {"me": 1, "alt": 1}) if shared else not rated
            for c in (me, also_me):
                await c.close()


async def test_two_connections_of_one_identity_behind_a_front_end_are_not_rated() -> None:
    async with running(trusted_proxies=["127.0.0.5"]) as engine:
        one = await connect_from(engine.port, "127.0.0.5", "phone", "browser-0001")
        same = await connect_from(engine.port, "127.0.0.5", "tablet", "browser-0001")
        other = await connect_from(engine.port, "127.0.0.5", "friend", "browser-0002")
        await play([one, same])
        assert await board(engine) == {}
        await play([one, other])  # two browsers behind one front end: two people
        assert set(await board(engine)) == {"phone", "friend"}
        for c in (one, same, other):
            await c.close()


async def mid_game(engine: NetworkEngine, takeover: bool = True) -> tuple[WireClient, WireClient, str,
                                                                         asyncio.Task[list[Command]]]:
    """ada and bea at a table, the game on, bea playing it out in a task."""
    ada = await connect_from(engine.port, "127.0.0.2", "ada")
    bea = await connect_from(engine.port, "127.0.0.3", "bea")
    table = await seat_everyone([ada, bea], takeover=takeover)
    await ada.recv_until("game_start")
    return ada, bea, table, asyncio.create_task(bea.play_game(RandomBot(seed=1)))


@pytest.mark.parametrize("takeover", [True, False])
async def test_leaving_a_rated_game_is_its_loss(takeover: bool) -> None:
    async with running() as engine:
        ada, bea, table, playing = await mid_game(engine, takeover)
        ada.send(wire.LeaveTable(table=table))
        assert (await ada.recv_until("left")).body.reason == "left"
        events = await playing  # a bot plays her seat to the end, or the game is abandoned
        assert (events[-1].body.reason == "abandoned") is not takeover
        assert await board(engine) == {"bea": (1, 1), "ada": (1, 0)}
        for c in (ada, bea):
            await c.close()


@pytest.mark.parametrize("takeover", [True, False])
async def test_dropping_out_of_a_rated_game_is_its_loss(takeover: bool) -> None:
    clock = FakeClock()
    async with running(clock) as engine:
        ada, bea, table, playing = await mid_game(engine, takeover)
        ada.abort()
        seats = engine.tables[table].seats
        await until(lambda: seats[0] is not None and seats[0].away, "ada's seat waiting for her")
        clock.advance(GRACE)  # she does not come back: a bot plays on, or the game is abandoned
        events = await playing
        assert (events[-1].body.reason == "abandoned") is not takeover
        assert await board(engine) == {"bea": (1, 1), "ada": (1, 0)}  # whatever the bot made of her seat
        await bea.close()


async def test_look_alike_names_are_one_leaderboard_row() -> None:
    async with running() as engine:
        bea = await connect_from(engine.port, "127.0.0.3", "bea")
        for spelling in ("Bill", "b1ll"):
            him = await connect_from(engine.port, "127.0.0.2", spelling)
            await play([him, bea])
            await him.close()
            await until(lambda: name_key("bill") not in engine.names, "the name let go")
        rated = await board(engine)
        assert set(rated) == {"Bill", "bea"} and rated["Bill"][0] == 2
        await bea.close()


def test_scopa_serve_takes_rate_shared_address_and_refuses_a_bad_one() -> None:
    import io

    from rich.console import Console

    from scopa.cli import serve
    from scopa.cli import build_parser

    args = build_parser().parse_args(["serve", "--rate-shared-address", "10.1.0.0/16", "--rate-shared-address",
                                      "192.168.1.7"])
    assert args.rate_shared_address == ["10.1.0.0/16", "192.168.1.7"]
    bad = build_parser().parse_args(["serve", "--rate-shared-address", "the-router"])
    out = io.StringIO()
    assert serve.run_serve(bad, Console(file=out, width=200)) == 2
    assert "--rate-shared-address: not an IP address or network: 'the-router'" in out.getvalue()


async def test_the_leaderboard_says_why_finished_games_were_not_rated() -> None:
    """Two seats from one address: the game is played, the board stays empty, and the reply
    says how many finished games were not rated and why (the log's "not rated (...)")."""
    from scopa.client.text import i18n, leaderboard_lines

    async with running() as engine:
        me = await connect_from(engine.port, "127.0.0.2", "me")
        also_me = await connect_from(engine.port, "127.0.0.2", "alt")
        await play([me, also_me])
        await engine.ratings.settled()
        viewer = await connect_from(engine.port, "127.0.0.99", "viewer")
        viewer.send(wire.GetLeaderboard(preset=Preset.SCOPA))
        reply = (await viewer.recv_until("leaderboard")).body
        viewer.send(wire.GetLeaderboard(preset=Preset.SCOPONE))
        other = (await viewer.recv_until("leaderboard")).body
        for c in (me, also_me, viewer):
            await c.close()
    assert reply.entries == [] and [(u.reason, u.games) for u in reply.unrated] == [("one_address", 1)]
    assert other.unrated == []  # counted under the game played
    assert leaderboard_lines(reply) == ["no rated games of scopa yet",
                                        "1 finished game was not rated: two seats were played from one address"]
    i18n.set_language("it")
    try:
        assert leaderboard_lines(reply)[1] == ("1 partita finita non conta per la classifica: "
                                               "due posti erano giocati dallo stesso indirizzo")
    finally:
        i18n.set_language("en")
