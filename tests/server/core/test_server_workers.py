"""Bots that think run in a pool of worker processes, so a search never stalls the
server's event loop; a pooled bot plays exactly as the same bot in process."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from scopa.bots import GreedyBot, RandomBot, make_bot
from scopa.engine import Deal, GameState, RuleSet, play_local, view
from scopa.server.core.workers import BotPool

from pool_bots import GATE_ENV


@pytest.fixture
def pool():
    p = BotPool(size=1)
    yield p
    p.close()


def _mid_round(seed: int) -> GameState:
    rng = random.Random(seed)
    state = GameState.new(RuleSet(), first_dealer=0)
    deck = list(range(40))
    rng.shuffle(deck)
    state.apply(Deal(tuple(deck)))
    for _ in range(5):
        state.apply(rng.choice(state.legal_plays()))
    return state


async def test_the_loop_runs_on_while_a_pooled_bot_thinks(pool: BotPool, tmp_path: Path, monkeypatch) -> None:
    gate = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(gate))  # the spawned worker inherits the environment
    state = _mid_round(1)
    legal = state.legal_actions()
    thinking = asyncio.ensure_future(pool.pick("pool_bots:GatedBot", "gated", None, view(state, state.to_move), legal))
    # A whole game between two in-process bots runs on this loop while the worker thinks;
    # only then does the gate open.  Run inline, the pick would never see the gate.
    record = await play_local(RuleSet(), [GreedyBot(), RandomBot(seed=2)], seed=3)
    assert record.totals and record.reason is not None
    assert not thinking.done()
    gate.touch()
    assert await thinking == legal[0]


async def test_a_pooled_bot_picks_what_the_same_bot_picks_in_process(pool: BotPool) -> None:
    for seed in range(6):
        state = _mid_round(seed)
        seat = state.to_move
        v, legal = view(state, seat), state.legal_actions()
        assert await pool.pick("greedy", "g", None, v, legal) == make_bot("greedy", "g").pick(v, legal)


async def test_a_whole_game_with_a_pooled_seat_matches_the_in_process_game(pool: BotPool) -> None:
    pooled = await play_local(RuleSet(), [pool.player("greedy", "g"), RandomBot(seed=4)], seed=11)
    local = await play_local(RuleSet(), [make_bot("greedy", "g"), RandomBot(seed=4)], seed=11)
    assert pooled.actions == local.actions
    assert pooled.totals == local.totals and pooled.winner == local.winner


def test_an_unknown_strategy_is_refused_before_it_reaches_a_worker(pool: BotPool) -> None:
    with pytest.raises(ValueError):
        pool.player("no-such-bot", "x")
    with pytest.raises(ValueError):
        BotPool(size=0)


async def test_the_server_seats_a_searching_bot_in_its_pool_and_others_in_process() -> None:
    from scopa.protocol import commands as wire
    from scopa.server import NetworkEngine
    from scopa.server.core.workers import PooledBot

    from wire_client import WireClient

    server = NetworkEngine("127.0.0.1", 0, seed=5, bot_workers=1)
    await server.start()
    try:
        c = await WireClient.connect(server.port, "ann")
        c.send(wire.CreateTable(fill_with_bots=["greedy"], sit=True))
        created = (await c.recv_until("table_created", "error")).body
        assert isinstance(created, wire.TableCreated), created
        in_process = server.tables[created.table.id]
        assert not any(isinstance(s.bot, PooledBot) for s in in_process.seats if s is not None)
        await c.close()
        d = await WireClient.connect(server.port, "bea")
        d.send(wire.CreateTable(fill_with_bots=["expert", "random"], sit=False))
        created = (await d.recv_until("table_created", "error")).body
        assert isinstance(created, wire.TableCreated), created
        table = server.tables[created.table.id]
        kinds = [type(s.bot) for s in table.seats if s is not None]
        assert PooledBot in kinds and len(kinds) == 2
        expert_seat = kinds.index(PooledBot)
        for _ in range(6000):  # the pool's first moves (a spawned worker starts first), a minute at most
            if table.master is not None and any(p.seat == expert_seat for p in view(table.master.state, None).round_plays):
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the pooled expert never moved")
        assert not table.task.done()
        await d.close()
    finally:
        await server.stop()


async def test_workers_think_at_a_lower_priority_than_the_server(pool: BotPool) -> None:
    import os

    from scopa.server.core.workers import WORKER_NICENESS

    state = _mid_round(2)
    v, legal = view(state, state.to_move), state.legal_actions()
    await pool.pick("greedy", "g", None, v, legal)  # the worker is up
    [pid] = list(pool._executor._processes)  # noqa: SLF001 - the one worker of a pool of 1
    # Niceness stops at 19: a server already running niced gets workers at the bottom.
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS)
