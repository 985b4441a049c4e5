"""Every event after a resume (PROTOCOL.md §2, §7 Reconnecting and Watching): seats
going away and coming back are numbered table events, so a client that resumes learns
of the ones it missed; a spectator that watches again from its last event gets what
it missed, with no gap and nothing twice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from scopa.bots import GreedyBot
from scopa.client.game import SeatWentAway
from scopa.client.net import ClientSession
from scopa.engine import Declare, Play, Player, View
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock

from wire_client import WireClient


@pytest.fixture
async def server():
    engine = NetworkEngine("127.0.0.1", 0, seed=77, grace=60.0, clock=FakeClock())
    await engine.start()
    yield engine
    await engine.stop()


def event_number(body: wire.Body) -> int | None:
    """The table event number a command carries (a snapshot's aside)."""
    number = getattr(body, "event", None)
    return number if isinstance(number, int) and not isinstance(body, wire.Snapshot) else None


def last_seen(c: WireClient) -> int:
    """The highest table event number the client has read."""
    return max((n for cmd in c.inbox if (n := event_number(cmd.body)) is not None), default=0)


def away_from_seat_events(commands: Iterable[Command]) -> set[int]:
    """Who is away, told by the numbered seat events alone (as a client counts them)."""
    away: set[int] = set()
    for cmd in commands:
        if isinstance(cmd.body, wire.SeatAway):
            away.add(cmd.body.seat)
        elif isinstance(cmd.body, (wire.SeatBack, wire.SeatReplaced)):
            away.discard(cmd.body.seat)
    return away


async def two_people(server: NetworkEngine) -> tuple[WireClient, WireClient]:
    a = await WireClient.connect(server.port, "ann")
    await a.create()
    b = await WireClient.connect(server.port, "ben")
    assert (await b.join(a.table)).name == "joined"  # type: ignore[arg-type]
    await a.recv_until("game_start")
    await b.recv_until("game_start")
    return a, b


async def resume(server: NetworkEngine, old: WireClient, last_event: int) -> tuple[WireClient, list[Command]]:
    """A new connection takes ``old``'s seat back: what it got up to its own seat_back
    and the table_update after it."""
    new = await WireClient.connect(server.port)
    new.table, new.seat = old.table, old.seat
    assert (await new.resume(old.token, last_event)).name == "welcome"  # type: ignore[arg-type]
    got = [await new.recv()]
    assert got[0].name == "joined" and got[0].body.resumed
    while not (isinstance(got[-1].body, wire.SeatBack) and got[-1].body.seat == old.seat):
        got.append(await new.recv())
    got.append(await new.recv_until("table_update"))
    return new, got


async def test_a_seat_back_missed_while_away_is_told_on_resume(server: NetworkEngine) -> None:
    """B away (seen by A), A drops, B comes back, A comes back: A learns B is back."""
    a, b = await two_people(server)
    b.abort()
    away = await a.recv_until("seat_away")
    assert away.body.seat == b.seat and away.body.event is not None and away.body.event > 0
    a_last = last_seen(a)
    a.abort()

    b2, got_b = await resume(server, b, last_seen(b))
    assert away_from_seat_events(got_b) == {a.seat}  # B hears that A went away meanwhile
    back_b = got_b[-2]
    assert back_b.body.event is not None and back_b.recipient == f"table:{a.table}/all"  # R: §7, to all
    assert got_b[-1].body.table.away == [a.seat]

    a2, got_a = await resume(server, a, a_last)
    missed = [c for c in got_a if (n := event_number(c.body)) is not None and n > a_last]
    assert back_b.body in [c.body for c in missed]  # B's seat_back, with its number, replayed
    assert away_from_seat_events([away, *got_a]) == set()
    numbers = [event_number(c.body) for c in got_a if event_number(c.body) is not None]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    # the returning client hears of itself too: its seat_back, then the table map
    assert got_a[-2].body.seat == a.seat and got_a[-1].body.table.away == []
    await a2.close()
    await b2.close()


async def test_a_fresh_client_resuming_while_another_seat_is_away_sees_it_away(server: NetworkEngine) -> None:
    a, b = await two_people(server)
    b.abort()
    await a.recv_until("seat_away")
    a.abort()
    a2, got = await resume(server, a, 0)  # a new process: it has seen nothing
    assert away_from_seat_events(got) == {b.seat}
    assert got[-1].body.table.away == [b.seat]
    await a2.close()


async def test_seat_events_before_the_game_are_not_numbered(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "cat")
    await a.create()
    w = await WireClient.connect(server.port, "wes")
    w.send(wire.WatchTable(table=a.table))  # type: ignore[arg-type]
    await w.recv_until("snapshot")
    a.abort()
    away = await w.recv_until("seat_away")
    assert away.body.event is None  # no game yet: game_start stays event 1 (§8)
    # its creator sat there: the seat is kept for the grace period, the table stays (§15)
    update = await w.recv_until("table_update")
    assert update.body.table.state == "waiting" and update.body.table.away == [0]
    assert server.tables[a.table].state == "waiting"  # type: ignore[index]
    await w.close()


async def watched_game(server: NetworkEngine, person: str, spectator: str) -> tuple[WireClient, WireClient, int]:
    """A person playing a server bot, a spectator watching: both, and the snapshot's event."""
    a = await WireClient.connect(server.port, person)
    await a.create(bots=["greedy"])
    w = await WireClient.connect(server.port, spectator)
    w.send(wire.WatchTable(table=a.table))  # type: ignore[arg-type]
    return a, w, (await w.recv_until("snapshot")).body.event


async def test_a_spectator_watching_again_gets_every_missed_public_event_once(server: NetworkEngine) -> None:
    a, w, first = await watched_game(server, "dee", "wyn")
    table = server.tables[a.table]  # type: ignore[index]
    plays = 0
    while plays < 6:  # a few moves by the person; the spectator reads some of them, then drops
        cmd = await a.recv()
        if isinstance(cmd.body, wire.YourTurn):
            move = cmd.body.legal[0]
            a.send(wire.PlayCard(card=move.card, capture=move.capture, turn=cmd.body.event),
                   recipient=f"table:{a.table}", re=cmd.seq)
            plays += 1
            if plays == 2:
                await w.recv_until("played")
                w.abort()
    seen = last_seen(w)
    w2 = await WireClient.connect(server.port, "wyn2")
    seq = w2.send(wire.WatchTable(table=a.table, last_event=seen))  # type: ignore[arg-type]
    got = [await w2.recv()]
    while got[-1].name != "snapshot":
        got.append(await w2.recv())
    assert got[-1].re == seq and got[-1].body.event == table.events.last
    public = [e.event for e in table.events.kept if e.seat is None]
    before = [n for c in w.inbox if (n := event_number(c.body)) is not None]
    after = [event_number(c.body) for c in got[:-1]]
    assert before + after == [n for n in public if first < n <= table.events.last]  # no gap, nothing twice
    assert before and len(after) >= 4
    assert all(c.recipient == f"table:{a.table}/all" for c in got[:-1])
    assert [s.name for s in table.broadcaster.spectators] == ["wyn2"]
    await w2.close()
    await a.close()


async def test_watching_again_a_game_that_ended_meanwhile_ends_with_left(server: NetworkEngine) -> None:
    a, w, first = await watched_game(server, "eve", "wil")
    seen = max(first, last_seen(w))  # the snapshot's event counts too
    w.abort()
    while True:
        cmd = await a.recv()
        if isinstance(cmd.body, wire.YourTurn):
            move = cmd.body.legal[0]
            a.send(wire.PlayCard(card=move.card, capture=move.capture), recipient=f"table:{a.table}", re=cmd.seq)
        elif isinstance(cmd.body, wire.GameEnd):
            break
    w2 = await WireClient.connect(server.port, "wil2")
    w2.send(wire.WatchTable(table=a.table, last_event=seen))  # type: ignore[arg-type]
    got = [await w2.recv()]
    while got[-1].name != "left":
        got.append(await w2.recv())
    names = [c.name for c in got]
    assert names[-3:] == ["game_end", "snapshot", "left"] and got[-1].body.reason == "game_over"
    ends = [c for c in got if c.name == "game_end"]
    assert len(ends) == 1 and ends[0].body == cmd.body
    await w2.close()


class DropsItself(Player):
    """Greedy; on its second turn the server drops its own connection first."""

    def __init__(self, engine: NetworkEngine, name: str) -> None:
        self.engine, self.me, self.turns, self.bot = engine, name, 0, GreedyBot()

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.turns += 1
        if self.turns == 2:
            self.engine.names[self.me].abort()
        return await self.bot.choose(view, legal)


async def test_a_resumed_session_is_not_told_of_its_own_absence() -> None:
    """The missed events replayed after a resume include the seat's own seat_away: the
    game a session plays does not show it (it is back already)."""
    engine = NetworkEngine("127.0.0.1", 0, seed=12)
    await engine.start()
    try:
        s = await ClientSession.connect("127.0.0.1", engine.port, "ivy")
        s.first_backoff = 0.01
        await s.create_table(fill_with_bots=["greedy"])
        seat = s.seat
        result = await s.play_game(DropsItself(engine, "ivy"))
        assert s.reconnects == 1 and result.reason == "target"
        assert not [n for n in result.notices if isinstance(n, SeatWentAway) and n.seat == seat]
        await s.close()
    finally:
        await engine.stop()


async def test_a_snapshot_carries_the_last_round_end(server: NetworkEngine) -> None:
    """R19-R21 told again (PROTOCOL.md `snapshot.last_round`): once a round has ended, a
    snapshot carries its round_end as it went out, so a page reloaded over the round's box
    shows that box again; before any round ends, it carries none."""
    a, w, _ = await watched_game(server, "eva", "ugo")
    first = next(c.body for c in w.inbox if isinstance(c.body, wire.Snapshot))
    assert first.last_round is None and "last_round" not in first.model_dump(exclude_unset=False, mode="json")
    while True:  # the person plays the first card offered until the round ends
        cmd = await a.recv()
        if isinstance(cmd.body, wire.RoundEnd):
            said = cmd.body
            break
        if isinstance(cmd.body, wire.YourTurn):
            move = cmd.body.legal[0]
            a.send(wire.PlayCard(card=move.card, capture=move.capture, turn=cmd.body.event),
                   recipient=f"table:{a.table}", re=cmd.seq)
    back = await WireClient.connect(server.port)  # the person's page reloaded: it asks for everything again
    assert (await back.resume(a.token, 2**53 - 1, name="eva", table=a.table)).name == "welcome"  # type: ignore[arg-type]
    snap = (await back.recv_until("snapshot")).body
    assert isinstance(snap, wire.Snapshot) and snap.you is not None
    assert snap.last_round == said
    w2 = await WireClient.connect(server.port, "ugo2")  # a spectator coming now, too
    w2.send(wire.WatchTable(table=a.table))  # type: ignore[arg-type]
    assert (await w2.recv_until("snapshot")).body.last_round == said
    for c in (a, w, back, w2):
        await c.close()
