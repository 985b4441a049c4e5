"""A lost connection in every phase of a client's life, placed exactly by the fault proxy
(``reset_before``: the connection dies just before a given server command would arrive),
a silent link noticed by the liveness watchdog (fake clock), the lobby telling the
person at once, and a seat resuming after its game ended (docs/PROTOCOL.md §7)."""

from __future__ import annotations

import asyncio
import io
import os
import re
from pathlib import Path

import pytest
from rich.console import Console

from scopa.bots import GreedyBot
from scopa.client.net import DEAD_AFTER, PING_AFTER, LinkEvent, LinkStatus, ClientSession
from scopa.client.console import Lobby
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.protocol.convert import action_to_wire, legal_from_wire, view_from_wire
from scopa.protocol.errors import ErrorCode
from scopa.server import Limits, NetworkEngine, Table
from scopa.server.core.clock import FakeClock
from scopa.server.journal.memory.storage import MemoryStorage

from faultproxy import FaultProxy, Faults
from procs import ROOT, SAFETY, SCOPA
from test_faults import check_against_journal, journal_of_memory, quick_lobby_polls, run_bot  # noqa: F401
from wire_client import WireClient

# (server command, how many of them pass first): one phase of a bot's life each.
PHASES = {
    "hello": ("welcome", 0),  # the first connection dies before its welcome
    "lobby": ("tables", 0),  # the first listing is lost
    "creating": ("table_created", 0),  # the table is made, the answer lost
    "joining": ("joined", 1),  # the second seat is taken, the answer lost
    "waiting": ("tables", 2),  # waiting at its own table, looking at the lobby
    "game start": ("game_start", 0),
    "mid-game": ("played", 9),
    "game end": ("game_end", 0),  # the result never came on that connection
    "after the game": ("left", 0),  # game_end came, `left` did not
    "second game": ("joined", 3),
}


# Two faults in a row: the second one hits the connection that came back from the first.
TWICE = {
    "creating, then what was missed": [("table_created", 0), ("snapshot", 0)],
    "joining, then the game start": [("joined", 1), ("game_start", 0)],
    "the end, then the end again": [("game_end", 0), ("game_end", 0)],
}


def silent_at_third_turn(proxy: FaultProxy, silenced: asyncio.Event) -> GreedyBot:
    """A greedy bot whose third turn makes the route through ``proxy`` silent (nothing goes
    through, nothing is closed: a paused server) and sets ``silenced``."""

    class GoesSilent(GreedyBot):
        turns = 0

        async def choose(self, view, legal):  # type: ignore[no-untyped-def]
            self.turns += 1
            if self.turns == 3:
                assert proxy.blackhole() == 1
                silenced.set()
            return await super().choose(view, legal)

    return GoesSilent()


@pytest.mark.parametrize("phase", list(PHASES) + list(TWICE))
async def test_bots_get_back_in_every_phase(phase: str) -> None:
    rules = TWICE.get(phase) or [PHASES[phase]]
    games = 2 if phase == "second game" else 1
    storage = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=31, storage=storage)
    await engine.start()
    events: list[LinkEvent] = []
    try:
        async with FaultProxy(engine.port, Faults(latency=0.001)) as proxy, asyncio.timeout(SAFETY):
            for command, skip in rules:
                proxy.reset_before(command, skip)
            a, b = await asyncio.gather(run_bot(proxy.port, "ann", 1, games, events),
                                        run_bot(proxy.port, "bea", 2, games, events))
    finally:
        await engine.stop()
    assert proxy.fired.is_set() and proxy.stats.rule_resets == len(rules)  # the faults did happen
    check_against_journal(journal_of_memory(storage), [*a, *b], 2 * games)


async def test_scopa_bot_processes_get_back_and_print_the_journal_result() -> None:
    """Two `scopa bot` processes through the proxy; one connection dies in the lobby and
    one as the game ends: both exit 0 and print the journal's totals."""
    storage = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=7, storage=storage)
    await engine.start()
    try:
        async with FaultProxy(engine.port, Faults(latency=0.001)) as proxy, asyncio.timeout(SAFETY):
            proxy.reset_before("tables", 1)
            env = dict(os.environ, NO_COLOR="1")
            procs = [await asyncio.create_subprocess_exec(
                *SCOPA, "bot", "--server", f"127.0.0.1:{proxy.port}", "--name", name, cwd=ROOT, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT) for name in ("cli-a", "cli-b")]
            await proxy.fired.wait()
            proxy.reset_before("game_end")
            outs = [(await p.communicate())[0].decode() for p in procs]
            codes = [p.returncode for p in procs]
    finally:
        await engine.stop()
    assert codes == [0, 0], outs
    assert proxy.stats.rule_resets == 2
    [game] = [j for j in journal_of_memory(storage) if j.status == "finished"]
    assert all(j.status in ("finished", "closed") for j in journal_of_memory(storage))
    for out in outs:
        printed = re.search(r"game 1/1 at table (\d+): \w+.*\((\w+)\), totals \[([\d, ]+)\]", out)
        assert printed is not None, out
        assert printed[1] == game.id and printed[2] == game.reason
        assert tuple(int(x) for x in printed[3].split(",")) == game.totals
    assert any("connection lost" in out.lower() for out in outs)


# ---------------------------------------------------------------------- liveness


async def test_a_silent_link_is_noticed_and_the_game_goes_on() -> None:
    """The proxy swallows everything both ways (nothing is closed): the client pings after
    ping_after of silence, gives the link up dead_after later, says so, reconnects and
    finishes its game.  Time is the fake clock's."""
    engine = NetworkEngine("127.0.0.1", 0, seed=12, limits=Limits(ping_interval=None))
    await engine.start()
    clock = FakeClock()
    events: list[LinkEvent] = []
    try:
        async with FaultProxy(engine.port) as proxy, asyncio.timeout(SAFETY):
            s = await ClientSession.connect("127.0.0.1", proxy.port, "quiet", clock=clock)
            s.first_backoff = 0.01
            s.add_listener(events.append)
            await s.create_table(fill_with_bots=["greedy"])
            silenced = asyncio.Event()
            game = asyncio.create_task(s.play_game(silent_at_third_turn(proxy, silenced)))
            await silenced.wait()
            while clock.sleeping == 0:
                await asyncio.sleep(0)
            clock.advance(s.ping_after)  # quiet for ping_after: a ping goes (into the hole)
            while clock.sleeping == 0 or proxy.stats.held == 0:
                await asyncio.sleep(0.001)
            assert not events  # a ping unanswered so far is no reason to give up
            clock.advance(s.dead_after)  # no answer: the link is dead
            result = await game
            assert result.reason == "target"
            assert [e.status for e in events] == [LinkStatus.LOST, LinkStatus.RECONNECTED]
            assert "no answer" in events[0].reason
            t = engine.tables[result.table]
            assert t.master is not None and list(result.totals) == t.master.state.totals
            await s.close()
    finally:
        await engine.stop()


def test_the_default_intervals_notice_a_dead_link_within_15_seconds() -> None:
    limits = Limits()
    assert limits.ping_interval is not None and limits.ping_timeout is not None
    assert limits.ping_interval + limits.ping_timeout <= 15
    assert 0 < PING_AFTER and PING_AFTER + DEAD_AFTER <= 15  # the client's defaults


async def test_the_lobby_says_connection_lost_at_once() -> None:
    """The person sees "connection lost, reconnecting…" when the link dies, before typing
    anything more (not when the next command fails)."""
    engine = NetworkEngine("127.0.0.1", 0, seed=9)
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            s = await ClientSession.connect("127.0.0.1", engine.port, "ida")
            s.first_backoff = 0.01
            out = io.StringIO()
            seen_at_once: list[bool] = []
            loop = asyncio.get_running_loop()
            answers = iter(["", "q"])

            async def kill() -> None:
                engine.names["ida"].abort()
                await s._lost_event.wait()

            def typed(prompt: object) -> str:
                answer = next(answers)
                if answer == "":
                    asyncio.run_coroutine_threadsafe(kill(), loop).result()
                    seen_at_once.append("retrying" in out.getvalue())
                return answer

            await Lobby(s, Console(file=out, width=120), GreedyBot, input_fn=typed).run()
            assert seen_at_once == [True]
            assert "Connected again." in out.getvalue()
            await s.close()
    finally:
        await engine.stop()


# ---------------------------------------------------------------------- the server's side


async def _play_until_the_end_is_near(c: WireClient, table: Table) -> int:
    """Play (greedy) until the game is over on the server, but stop reading before its
    ``game_end``; the last event number read."""
    last = 0
    while True:
        cmd = await c.recv()
        if isinstance(cmd.body, wire.TableEvent):
            last = max(last, cmd.body.event)
        if isinstance(cmd.body, wire.YourTurn):
            action = await GreedyBot().choose(view_from_wire(cmd.body.view, table.rules), legal_from_wire(cmd.body))
            c.send(action_to_wire(action).model_copy(update={"turn": cmd.body.event}),
                   recipient=f"table:{c.table}", re=cmd.seq)
        if isinstance(cmd.body, wire.RoundEnd) and table.state is wire.TableState.FINISHED:
            return last


async def _resumed_names(engine: NetworkEngine, token: str, last: int) -> list[Command]:
    back = await WireClient.connect(engine.port)
    assert isinstance((await back.resume(token, last)).body, wire.Welcome)
    got: list[Command] = []
    while not got or got[-1].name != "left":
        got.append(await back.recv())
    await back.close()
    return got


async def test_a_seat_that_resumes_after_the_end_gets_the_result_then_left() -> None:
    clock = FakeClock()
    engine = NetworkEngine("127.0.0.1", 0, seed=4242, grace=60.0, clock=clock)
    await engine.start()
    try:
        c = await WireClient.connect(engine.port, "fin")
        await c.create(bots=["greedy"])
        token = c.token
        assert token is not None
        table = engine.tables[c.table]  # type: ignore[index]
        last = await _play_until_the_end_is_near(c, table)
        c.abort()
        got = await _resumed_names(engine, token, last)
        assert [x.name for x in got][0] == "joined" and [x.name for x in got][-2:] == ["game_end", "left"]
        assert table.events.end is not None and got[-2].body == table.events.end
        # After the grace period the finished table's tokens are void.
        clock.advance(60.0)
        later = await WireClient.connect(engine.port)
        refused = await later.resume(token, last)
        assert isinstance(refused.body, wire.Error) and refused.body.code is ErrorCode.BAD_TOKEN
        await later.close()
    finally:
        await engine.stop()


async def test_a_seat_that_missed_the_end_learns_it_after_a_server_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "scopa.db")
    engine = NetworkEngine("127.0.0.1", 0, seed=17, db=db)
    await engine.start()
    try:
        c = await WireClient.connect(engine.port, "rex")
        await c.create(bots=["random"])
        token = c.token
        assert token is not None
        table = engine.tables[c.table]  # type: ignore[index]
        last = await _play_until_the_end_is_near(c, table)
        c.abort()
    finally:
        await engine.stop()
    again = NetworkEngine("127.0.0.1", 0, seed=18, db=db)
    await again.start()
    try:
        got = await _resumed_names(again, token, last)
        names = [x.name for x in got]
        assert names == ["joined", "snapshot", "game_end", "left"]
        [result] = [r for r in await again.results() if r.id == c.table]
        end = got[2].body
        assert isinstance(end, wire.GameEnd)
        assert (end.winner, tuple(end.totals), end.reason) == (result.winner, result.totals, result.reason)
    finally:
        await again.stop()


async def test_a_waiting_seat_resumes_and_its_game_starts_while_it_is_away() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=5)
    await engine.start()
    try:
        a = await WireClient.connect(engine.port, "wai")
        table = await a.create()
        token = a.token
        assert token is not None
        a.abort()
        b = await WireClient.connect(engine.port, "bob")
        for _ in range(200):  # until the server has seen the drop (bounded)
            b.send(wire.ListTables())
            listing = (await b.recv_until("tables")).body.tables
            if listing and listing[0].away == [0]:
                break
        assert listing[0].seats == ["wai", None] and listing[0].away == [0]
        assert (await b.join(table)).name == "joined"
        await b.recv_until("game_start")  # the game starts with the seat away
        back = await WireClient.connect(engine.port)
        welcome = await back.resume(token, 0)
        assert welcome.body.you == "player:wai"  # type: ignore[union-attr]
        joined = await back.recv_until("joined")
        assert joined.body.resumed and joined.body.table == table
        assert (await back.recv_until("game_start")).body.seats[0].name == "wai"
        assert (await back.recv_until("deal")).body.hand
        for x in (b, back):
            await x.close()
    finally:
        await engine.stop()


async def test_a_chosen_token_in_use_is_refused() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=5)
    await engine.start()
    try:
        token = "t" * 30
        a = await WireClient.connect(engine.port, "one")
        a.send(wire.CreateTable(token=token))
        assert (await a.recv_until("joined")).body.token == token
        b = await WireClient.connect(engine.port, "two")
        b.send(wire.JoinTable(table="1", token=token))
        error = await b.recv_until("error", "joined")
        assert isinstance(error.body, wire.Error) and error.body.code is ErrorCode.BAD_TOKEN
        assert engine.tables["1"].seats[1] is None  # nothing changed
        for x in (a, b):
            await x.close()
    finally:
        await engine.stop()


@pytest.mark.parametrize("command", ["table_created", "game_end", "left"])
async def test_scopa_play_lobby_gets_back_when_creating_and_at_the_end(command: str) -> None:
    """`scopa play`'s lobby (a bot at its prompts): the connection dies as the table is
    made, as the game ends or just after; the person sees it, and the result shown is
    the journal's."""
    storage = MemoryStorage()
    engine = NetworkEngine("127.0.0.1", 0, seed=21, storage=storage)
    await engine.start()
    try:
        async with FaultProxy(engine.port, Faults(latency=0.001)) as proxy, asyncio.timeout(SAFETY):
            s = await ClientSession.connect("127.0.0.1", proxy.port, "pat")
            s.first_backoff = 0.01
            proxy.reset_before(command)
            answers = iter(["c", "", "", "", "", "", "", "", "greedy", "q"])
            out = io.StringIO()
            lobby = Lobby(s, Console(file=out, width=120), GreedyBot, input_fn=lambda prompt: next(answers))
            await lobby.run()
            await s.close()
    finally:
        await engine.stop()
    text = out.getvalue()
    assert proxy.fired.is_set() and "Connection to the server lost" in text and "Connected again." in text
    [game] = [j for j in journal_of_memory(storage) if j.status == "finished"]
    assert game.reason == "target" and game.winner is not None
    assert ("You won!" in text) == (game.winner == 0) and ("You lost." in text) == (game.winner == 1)
