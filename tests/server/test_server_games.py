"""Network games over real sockets on 127.0.0.1 (port 0), end to end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import LocalGame, Play, Player, View, replay
from scopa.server import NetworkEngine

from wire_client import WireClient


def seeded_server(seed: int, name: str = "server") -> Any:
    """A module's fixture ``name``: a server on 127.0.0.1 (port 0) seeded with ``seed``,
    stopped after each test."""

    async def server() -> AsyncIterator[NetworkEngine]:
        engine = NetworkEngine("127.0.0.1", 0, seed=seed)
        await engine.start()
        yield engine
        await engine.stop()

    return pytest.fixture(server, name=name)


server = seeded_server(1234)


class ScriptedPlayer(Player):
    """Replays a fixed list of actions (to rerun a network game locally)."""

    def __init__(self, actions: list) -> None:
        self.actions = iter(actions)

    async def choose(self, view: View, legal):  # type: ignore[override]
        return next(self.actions)


def _public(events):
    return [(c.name, c.body.model_dump()) for c in events]


async def test_two_player_game_between_bot_clients_R7(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "alice")
    b = await WireClient.connect(server.port, "bob")
    table = await a.create()
    assert (await b.join(table)).name == "joined"
    ev_a, ev_b = await asyncio.gather(a.play_game(GreedyBot()), b.play_game(RandomBot(seed=3)))
    # Both saw the same public events, ending with the same game_end.
    assert _public(ev_a) == _public(ev_b)
    end = ev_a[-1].body
    assert ev_a[-1].name == "game_end" and end.reason == "target"
    # The server's state is the engine replay of the seed's deals and the moves made.
    t = server.tables[table]
    assert t.master is not None
    st = t.master.state
    assert max(st.totals) >= 11 and list(end.totals) == st.totals
    again = replay(t.rules, t.master.first_dealer, t.master.actions)
    assert again.totals == st.totals and again.history == st.history and again.winner == st.winner
    # A local GameMaster with the same seed and the same moves ends in the same state.
    plays = [x for x in t.master.actions if isinstance(x, Play)]
    seats = [[p for p, s in zip(plays, _seats_of(t)) if s == i] for i in range(2)]
    local = LocalGame(t.rules, [ScriptedPlayer(seats[0]), ScriptedPlayer(seats[1])], t.seed)
    record = await local.run()
    assert list(record.totals) == st.totals and record.winner == st.winner
    assert local.state.history == st.history
    await a.close()
    await b.close()


def _seats_of(table) -> list[int]:
    """Which seat made each play, from a replay of the table's log."""
    from scopa.engine import Deal, GameState

    s = GameState.new(table.rules, table.master.first_dealer)
    seats = []
    for act in table.master.actions:
        if not isinstance(act, Deal):
            seats.append(s.to_move)
        s.apply(act)
    return seats


async def test_two_v_two_game_R5_R23(server: NetworkEngine) -> None:
    clients = [await WireClient.connect(server.port, f"p{i}") for i in range(4)]
    table = await clients[0].create(players=4)
    for c in clients[1:]:
        assert (await c.join(table)).name == "joined"
    assert [c.seat for c in clients] == [0, 1, 2, 3]  # R6: order of arrival
    results = await asyncio.gather(*(c.play_game(GreedyBot() if i % 2 else RandomBot(seed=i))
                                     for i, c in enumerate(clients)))
    first = _public(results[0])
    assert all(_public(r) == first for r in results[1:])
    start = results[0][0].body
    assert start.sides == [[0, 2], [1, 3]]
    assert len(results[0][-1].body.totals) == 2
    for c in clients:
        await c.close()


async def test_table_filled_with_server_bots(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "solo")
    await a.create(bots=["greedy", "random", "greedy"], players=4)
    events = await a.play_game(RandomBot(seed=5))
    assert events[-1].name == "game_end" and events[-1].body.reason == "target"
    left = await a.recv_until("left")
    assert left.body.reason == "game_over"
    await a.close()


async def test_many_tables_run_at_once(server: NetworkEngine) -> None:
    async def one(i: int) -> str:
        c = await WireClient.connect(server.port, f"solo{i}")
        await c.create(bots=["random"])
        events = await c.play_game(RandomBot(seed=i))
        await c.close()
        return events[-1].body.reason

    assert await asyncio.gather(*(one(i) for i in range(6))) == ["target"] * 6
