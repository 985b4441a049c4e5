"""What the server counts (server/core/metrics.py), exactly, over real sockets: a rated game
between two people (the game started and finished, every move and each one's latency,
its record and both ratings stored), a move out of turn (a refusal by its code), a
flood of commands (a rate limit by its kind), a caught abandonment; and the gauges of
one server read at scrape time (connections, sessions by state, tables by state and
preset, the journal's queue).  The counters are process-wide: each check is of how much
one grew."""

from __future__ import annotations

import asyncio

import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from scopa.engine import Preset
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.endpoints import ServerState, exposition
from test_fair_ratings import connect_from, play, running, until

pytestmark = pytest.mark.integration


def value(name: str, **labels: str) -> float:
    found = REGISTRY.get_sample_value(name, labels)
    return 0.0 if found is None else found


class Growth:
    """How much each named figure grew since this was made."""

    def __init__(self, *figures: tuple[str, dict[str, str]]) -> None:
        self.figures = figures
        self.before = [value(name, **labels) for name, labels in figures]

    def __call__(self) -> list[float]:
        return [value(name, **labels) - then for (name, labels), then in zip(self.figures, self.before)]


async def test_a_rated_game_between_two_people_is_counted_move_by_move() -> None:
    growth = Growth(("scopa_games_started_total", {}), ("scopa_games_ended_total", {"how": "finished"}),
                    ("scopa_moves_total", {}), ("scopa_move_seconds_count", {}),
                    ("scopa_records_written_total", {}), ("scopa_ratings_written_total", {}))
    async with running() as engine:
        ada = await connect_from(engine.port, "127.0.0.2", "ada")
        bea = await connect_from(engine.port, "127.0.0.3", "bea")
        table = await play([ada, bea])
        moves = [c for c in ada.inbox if isinstance(c.body, (wire.CardPlayed, wire.DeclarationMade))]
        assert moves
        await engine.ratings.settled()
        await until(lambda: growth()[4] == 1, "the game's record stored")
        assert growth() == [1, 1, len(moves), len(moves), 1, 2]  # two people: every move timed, both rated
        assert table in engine.tables
        for c in (ada, bea):
            await c.close()


async def test_each_move_passing_the_turn_to_a_person_is_timed_to_that_persons_your_turn() -> None:
    """scopa_turn_seconds: one observation for each person's move followed by a person's
    your_turn (from the move's frame read to that your_turn written): every your_turn of a
    game between two people but the first (which follows the deal, not a move)."""
    growth = Growth(("scopa_turn_seconds_count", {}), ("scopa_moves_total", {}))
    async with running() as engine:
        ada = await connect_from(engine.port, "127.0.0.2", "ada")
        bea = await connect_from(engine.port, "127.0.0.3", "bea")
        await play([ada, bea])
        turns = sum(isinstance(c.body, wire.YourTurn) for client in (ada, bea) for c in client.inbox)
        assert turns > 1
        assert growth() == [turns - 1, turns]  # each your_turn answered by one move; the first follows no move
        for c in (ada, bea):
            await c.close()


async def test_a_your_turn_that_follows_a_bots_move_is_not_timed() -> None:
    """A person playing a bot: a your_turn is timed only when her own move is followed by
    her next turn at once (the last move of a round, the next round hers to open); after a
    bot's move, none is (nor the next game's first after the last move)."""
    growth = Growth(("scopa_turn_seconds_count", {}), ("scopa_moves_total", {}))
    async with running() as engine:
        ada = await connect_from(engine.port, "127.0.0.2", "ada")
        await play([ada], bots=["random"])
        mover, hers, after_hers = None, 0, 0
        for c in ada.inbox:
            if isinstance(c.body, (wire.CardPlayed, wire.DeclarationMade)):
                mover = c.body.seat
            elif isinstance(c.body, wire.YourTurn):
                hers += 1
                after_hers += mover == ada.seat
        timed, moves = growth()
        assert hers > after_hers
        assert (timed, moves) == (after_hers, 2 * hers)  # the bot's moves and hers; hers passing the turn to her
        await ada.close()


async def test_refusals_and_rate_limits_are_counted_by_code_and_kind() -> None:
    growth = Growth(("scopa_refusals_total", {"code": "not_your_turn"}),
                    ("scopa_refusals_total", {"code": "rate_limited"}),
                    ("scopa_rate_limited_total", {"kind": "commands"}),
                    ("scopa_games_ended_total", {"how": "abandoned"}))
    async with running() as engine:
        ada = await connect_from(engine.port, "127.0.0.2", "ada")
        table = await ada.create(bots=["random"])
        start = await ada.recv_until("game_start")
        # a play sent for a turn that is not ada's waiting one: refused, not_your_turn
        turn = await ada.recv_until("your_turn")
        ada.send(wire.PlayCard(card=turn.body.legal[0].card, turn=turn.body.event + 1000), recipient=f"table:{table}")
        refused = await ada.recv_until("error")
        assert refused.body.code == "not_your_turn" and start.name == "game_start"
        ada.send(wire.LeaveTable(table=table))  # a running game left: abandoned
        await ada.recv_until("left")
        await ada.close()
    engine = NetworkEngine("127.0.0.1", 0, limits=Limits(commands_per_second=1.0, command_burst=2, ping_interval=None))
    await engine.start()
    try:
        bob = await connect_from(engine.port, "127.0.0.4", "bob")
        for _ in range(5):
            bob.send(wire.ListTables())
        await bob.recv_until("error")
        await bob.close()
    finally:
        await engine.stop()
    not_your_turn, rate_limited, commands, abandoned = growth()
    assert (not_your_turn, abandoned) == (1, 1)
    assert rate_limited == commands >= 1  # each command over the rate: refused with rate_limited, counted once


async def test_the_gauges_of_one_server_at_scrape_time() -> None:
    async with running() as engine:
        ada = await connect_from(engine.port, "127.0.0.2", "ada")
        ada.send(wire.CreateTable(preset=Preset.SCOPONE, fill_with_bots=["random"] * 3))
        ada.table = (await ada.recv_until("table_created")).body.table.id
        await ada.recv_until("joined")
        watcher = await connect_from(engine.port, "127.0.0.3", "cid")
        dan = await connect_from(engine.port, "127.0.0.5", "dan")  # in the lobby
        table = ada.table
        watcher.send(wire.WatchTable(table=table))
        await watcher.recv_until("table_snapshot", "watching", "snapshot")
        _, writer = await asyncio.open_connection("127.0.0.1", engine.port)  # no hello yet
        await until(lambda: len(engine.sessions) == 4, "four connections")
        families = {f.name: f for f in text_string_to_metric_families(
            exposition(ServerState(engine, lambda: 0, lambda: [])).decode())}
        gauges = {(f.name, tuple(sorted(s.labels.items()))): s.value
                  for f in families.values() for s in f.samples if f.type == "gauge"}
        assert gauges[("scopa_connections", (("kind", "tcp"),))] == 4
        assert gauges[("scopa_connections", (("kind", "websocket"),))] == 0
        assert [gauges[("scopa_sessions", (("state", s),))] for s in ("greeting", "lobby", "seated", "watching")] \
            == [1, 1, 1, 1]
        assert gauges[("scopa_tables", (("preset", "scopone"), ("state", "playing")))] == 1
        assert gauges[("scopa_journal_queue_depth", ())] >= 0 and gauges[("scopa_journal_up", ())] == 1
        assert gauges[("scopa_ready", ())] == 1
        writer.close()
        for client in (ada, watcher, dan):
            await client.close()
