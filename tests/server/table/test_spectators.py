"""Spectators: public events only, a public snapshot first, never a secret."""

from __future__ import annotations

import asyncio
import json

from scopa.bots import GreedyBot, RandomBot
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine

from test_server_games import seeded_server
from wire_client import WireClient

PUBLIC = {"snapshot", "table_update", "game_start", "round_start", "played", "declared", "round_end",
          "game_end", "left", "chat_message"}


server = seeded_server(31337)


async def test_spectator_sees_public_events_only_and_no_secret(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "ana")
    b = await WireClient.connect(server.port, "ben")
    table = await a.create()
    s = await WireClient.connect(server.port, "sam")
    s.send(wire.WatchTable(table=table))
    snap = await s.recv_until("snapshot")
    assert snap.body.you is None and snap.body.public is None  # the game has not started
    listing_seq = s.send(wire.ListTables())
    listing = await s.recv_until("tables")
    assert listing.re == listing_seq and listing.body.tables[0].spectators == 1
    await b.join(table)
    game = asyncio.gather(a.play_game(GreedyBot()), b.play_game(RandomBot(seed=9)))
    seen = []
    while True:
        cmd = await s.recv()
        seen.append(cmd)
        if cmd.name == "left":
            break
    ends = await game
    assert {c.name for c in seen} <= PUBLIC
    assert all(c.recipient == f"table:{table}/all" for c in seen if c.name != "left")
    # The same public game events as the players saw, in the same order.
    mine = [c.body for c in seen if isinstance(c.body, wire.TableEvent)]
    theirs = [c.body for c in ends[0]]
    assert mine == theirs
    # Nothing secret: no token, no seed, no hand.
    t = server.tables[table]
    text = json.dumps([c.model_dump(mode="json") for c in s.inbox])
    assert a.token not in text and b.token not in text  # type: ignore[operator]
    assert str(t.seed) not in text
    assert '"hand"' not in text  # deal/your_turn/view never reach a spectator
    await a.close()
    await b.close()
    await s.close()


async def test_watching_mid_game_starts_with_a_public_snapshot(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "cai")
    a.send(wire.CreateTable(fill_with_bots=["greedy"]))
    table = (await a.recv_until("table_created")).body.table.id
    a.table = table
    await a.recv_until("your_turn")
    s = await WireClient.connect(server.port, "sue")
    seq = s.send(wire.WatchTable(table=table))
    snap = await s.recv_until("snapshot")
    assert snap.re == seq and snap.body.you is None and snap.body.public is not None
    state = server.tables[table].master.state  # type: ignore[union-attr]
    assert snap.body.public.hand_sizes == [h.bit_count() for h in state.hands]
    assert snap.body.public.stock == len(state.stock)
    assert snap.body.event == server.tables[table].events.last
    assert "hand" not in snap.body.public.model_dump()
    # unwatch: left, and the count goes back to 0.
    seq = s.send(wire.UnwatchTable(table=table))
    left = await s.recv_until("left")
    assert left.re == seq and left.body.reason == "unwatched"
    assert server.tables[table].info().spectators == 0
    await a.close()
    await s.close()


async def test_private_table_refuses_watchers_without_its_invite(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "dan")
    a.send(wire.CreateTable(fill_with_bots=["greedy"], private=True))
    created = (await a.recv_until("table_created")).body
    table, invite = created.table.id, created.invite
    assert invite is not None
    s = await WireClient.connect(server.port, "spy")
    seq = s.send(wire.WatchTable(table=table))
    error = await s.recv_until("error", "snapshot")
    # Answered exactly as a table that does not exist: the id says nothing.
    assert error.name == "error" and error.re == seq and error.body.code == "no_such_table"
    assert error.body.message == f"there is no table {table!r} to watch"
    seq = s.send(wire.WatchTable(table=table, invite="not-the-invite-code"))
    assert (await s.recv_until("error")).body.code == "no_such_table"
    seq = s.send(wire.WatchTable(table=table, invite=invite))
    assert (await s.recv_until("snapshot", "error")).name == "snapshot"
    await a.close()
    await s.close()


async def test_a_seated_player_cannot_watch_and_a_spectator_disconnect_is_counted(server: NetworkEngine) -> None:
    a = await WireClient.connect(server.port, "eli")
    table = await a.create()
    seq = a.send(wire.WatchTable(table=table))
    err = await a.recv_until("error")
    assert err.body.code == "already_at_table" and err.re == seq
    s = await WireClient.connect(server.port, "fox")
    s.send(wire.WatchTable(table=table))
    await s.recv_until("snapshot")
    update = await a.recv_until("table_update")
    assert update.body.table.spectators == 1
    s.abort()
    update = await a.recv_until("table_update")
    assert update.body.table.spectators == 0
    await a.close()
