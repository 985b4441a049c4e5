"""What a spectator learns as it starts watching (PROTOCOL.md §7 Watching, §8 ``snapshot``
and ``seat_away``), and what every client learns of the turn clock from ``welcome``
(§7 Turn clock): the table's last chat, a rematch's with the finished game's lines, comes
with its snapshot; a seat whose person is away is told right after it, with the grace
left, as the players were told; ``welcome`` says the reading time.  On a fake clock."""

from __future__ import annotations

import pytest

from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock

from test_rematch import a_game_under_way
from wire_client import WireClient
from graced import server  # noqa: F401 - the fixture

pytestmark = pytest.mark.integration


async def _settle(*clients: WireClient) -> None:
    """Everything the server sent each client before now has been read."""
    for c in clients:
        c.send(wire.Ping(nonce=1))
        await c.recv_until("pong")


async def test_welcome_says_the_reading_time(server: NetworkEngine) -> None:
    c = await WireClient.connect(server.port, "ada")
    welcome = next(cmd.body for cmd in c.inbox if isinstance(cmd.body, wire.Welcome))
    assert welcome.reading_time == wire.READING_TIME == 15.0
    await c.close()


async def test_a_spectator_coming_gets_the_tables_last_chat_with_the_snapshot(server: NetworkEngine) -> None:
    ana, bea, created = await a_game_under_way(server)
    table = created.table.id
    for who, text in ((ana, "ciao"), (bea, "forza")):
        who.send(wire.Chat(text=text), recipient=f"table:{table}")
        await ana.recv_until("chat_message")
    cid = await WireClient.connect(server.port, "cid")
    cid.send(wire.WatchTable(table=table, invite=created.invite))
    snap = (await cid.recv_until("snapshot")).body
    assert [(m.author, m.text) for m in snap.chat] == [("player:ana", "ciao"), ("player:bea", "forza")]
    assert snap.you is None and snap.public is not None  # a spectator's: the public view only
    bea.send(wire.LeaveTable(table=table))
    await ana.recv_until("left")
    for c in (ana, bea, cid):
        await c.close()


async def test_a_seat_is_not_sent_the_chat_in_its_snapshot(server: NetworkEngine) -> None:
    """A seat's chat comes in ``joined.chat``: its snapshot leaves the key out."""
    ana, bea, created = await a_game_under_way(server)
    table = created.table.id
    ana.send(wire.Chat(text="ciao"), recipient=f"table:{table}")
    await bea.recv_until("chat_message")
    assert bea.token is not None
    bea.abort()
    back = await WireClient.connect(server.port)
    assert (await back.resume(bea.token, 1 << 50)).name == "welcome"  # beyond the log: a snapshot
    joined = (await back.recv_until("joined")).body
    assert [m.text for m in joined.chat] == ["ciao"]
    snap = (await back.recv_until("snapshot")).body
    assert snap.you is not None and snap.chat == []
    for c in (ana, back):
        await c.close()


async def test_a_spectator_of_a_rematch_gets_the_finished_games_chat(server: NetworkEngine) -> None:
    """The people of a rematch go on talking where they stopped (``joined.chat``); someone
    who comes to watch it reads the same lines."""
    ana, bea, created = await a_game_under_way(server)
    old = created.table.id
    bea.send(wire.Chat(text="un'altra?"), recipient=f"table:{old}")
    await ana.recv_until("chat_message")
    bea.send(wire.LeaveTable(table=old))
    for c in (ana, bea):
        await c.recv_until("left")
    ana.send(wire.CreateTable(rules=created.table.rules, private=True, bot_takeover=False, rematch_of=old))
    made = (await ana.recv_until("table_created")).body
    assert [m.text for m in (await ana.recv_until("joined")).body.chat] == ["un'altra?"]
    cid = await WireClient.connect(server.port, "cid")
    cid.send(wire.WatchTable(table=made.table.id, invite=made.invite))
    snap = (await cid.recv_until("snapshot")).body
    assert [(m.author, m.text) for m in snap.chat] == [("player:bea", "un'altra?")]
    for c in (ana, bea, cid):
        await c.close()


async def test_a_spectator_coming_while_a_seat_is_away_is_told_so_with_the_grace_left(
        server: NetworkEngine, clock: FakeClock) -> None:
    """The players heard bea went away (seat_away, 60 s); cid, who comes 20 s later, hears
    it right after the snapshot with the 40 s left, and her coming back as they do."""
    ana, bea, created = await a_game_under_way(server)
    table = created.table.id
    bea.abort()
    told = (await ana.recv_until("seat_away")).body
    assert (told.seat, told.name, told.grace_seconds) == (1, "bea", 60.0)
    clock.advance(20)
    cid = await WireClient.connect(server.port, "cid")
    cid.send(wire.WatchTable(table=table, invite=created.invite))
    snap = await cid.recv_until("snapshot")
    assert snap.body.table.away == [1]
    after = await cid.recv()
    assert after.name == "seat_away" and (after.sender, after.recipient) == (f"table:{table}", f"table:{table}/all")
    assert (after.body.seat, after.body.name, after.body.grace_seconds, after.body.event) == (1, "bea", 40.0, None)
    assert bea.token is not None
    back = await WireClient.connect(server.port)
    assert (await back.resume(bea.token, bea.last_event)).name == "welcome"
    assert (await cid.recv_until("seat_back")).body.seat == 1
    for c in (ana, back, cid):
        await c.close()


async def test_a_spectator_coming_when_nobody_is_away_is_told_no_seat_away(server: NetworkEngine,
                                                                           clock: FakeClock) -> None:
    """A seat that went away and came back, and one whose grace ran out (a bot plays it):
    neither is told away to someone who comes after."""
    ana, bea, created = await a_game_under_way(server, no_turn_timer=True, bot_takeover=True)
    bea.abort()
    await ana.recv_until("seat_away")
    clock.advance(60)
    await ana.recv_until("seat_replaced")
    cid = await WireClient.connect(server.port, "cid")
    cid.send(wire.WatchTable(table=created.table.id, invite=created.invite))
    await cid.recv_until("snapshot")
    await _settle(cid)
    assert not [cmd for cmd in cid.inbox if cmd.name == "seat_away"]
    for c in (ana, cid):
        await c.close()
