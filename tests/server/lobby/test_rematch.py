"""A rematch (PROTOCOL.md §8 ``create_table`` ``rematch_of``): a player of a finished
private game makes a new table for the same people; the others are told of it by a
``table_update`` naming the game it follows, and join it without its invite; those who
watched the game's end are told too, and watch it without the invite; anyone else still
needs the invite, and a table one did not play at makes an ordinary table.  A game left
ends with ``game_end`` naming the seat whose person left."""

from __future__ import annotations

from typing import Any

from scopa.engine import Preset
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_to_wire
from scopa.server import NetworkEngine

from test_server_games import seeded_server
from wire_client import WireClient

server = seeded_server(4242)


async def finished_private_game(server: NetworkEngine) -> tuple[WireClient, WireClient, str, wire.TableInfo]:
    """ana's private table, bea joined by its invite; bea leaves (no bot takes over): over."""
    ana = await WireClient.connect(server.port, "ana")
    bea = await WireClient.connect(server.port, "bea")
    ana.send(wire.CreateTable(preset=Preset.SCOPA, options={"target": 16}, private=True, bot_takeover=False, turn_timeout=40))
    created = (await ana.recv_until("table_created")).body
    assert created.invite is not None
    bea.send(wire.JoinTable(table=created.table.id, invite=created.invite))
    assert (await bea.recv_until("joined")).body.seat == 1
    await ana.recv_until("game_start")
    bea.send(wire.LeaveTable(table=created.table.id))
    for c in (ana, bea):
        await c.recv_until("game_end")
        await c.recv_until("left")
    return ana, bea, created.table.id, created.table


async def a_game_under_way(server: NetworkEngine, private: bool = True,
                           **options: Any) -> tuple[WireClient, WireClient, wire.TableCreated]:
    """ana's table (private: bea joins by its invite; ``options``: more of create_table's,
    no bot taking a seat over unless they say so), bea sat, the game started."""
    ana = await WireClient.connect(server.port, "ana")
    bea = await WireClient.connect(server.port, "bea")
    ana.send(wire.CreateTable(preset=Preset.SCOPA, private=private, **{"bot_takeover": False, **options}))
    created = (await ana.recv_until("table_created")).body
    bea.send(wire.JoinTable(table=created.table.id, invite=created.invite))
    await bea.recv_until("joined")
    await ana.recv_until("game_start")
    return ana, bea, created


async def over_after_a_word(server: NetworkEngine, private: bool = True) -> tuple[WireClient, WireClient, wire.TableCreated]:
    """A game under way where bea asks for another game in the table's chat and leaves:
    over, with no bot taking her seat."""
    ana, bea, created = await a_game_under_way(server, private)
    old = created.table.id
    bea.send(wire.Chat(text="un'altra?"), recipient=f"table:{old}")
    await ana.recv_until("chat_message")
    bea.send(wire.LeaveTable(table=old))
    for c in (ana, bea):
        await c.recv_until("left")
    return ana, bea, created


async def a_game_the_second_player_leaves(server: NetworkEngine, first: str = "ana", second: str = "bea"
                                          ) -> tuple[WireClient, WireClient, str]:
    """A public table (no bot takes a seat left) whose game starts, then its second player
    leaves it: both connections and the table's id."""
    ana = await WireClient.connect(server.port, first)
    bea = await WireClient.connect(server.port, second)
    table = await ana.create(bot_takeover=False)
    await bea.join(table)
    await ana.recv_until("game_start")
    bea.send(wire.LeaveTable(table=table))
    return ana, bea, table


async def test_the_players_of_a_finished_game_are_offered_its_rematch_and_join_it_without_the_invite(
        server: NetworkEngine) -> None:
    ana, bea, old, info = await finished_private_game(server)
    ana.send(wire.CreateTable(rules=info.rules, private=True, bot_takeover=False, turn_timeout=40, rematch_of=old))
    made = (await ana.recv_until("table_created")).body
    assert made.table.rematch_of == old and made.table.private and made.table.rules == info.rules
    offer = await bea.recv_until("table_update")
    assert offer.sender == "lobby" and offer.body.table.id == made.table.id and offer.body.table.rematch_of == old
    assert offer.body.table.seats == ["ana", None]
    bea.send(wire.JoinTable(table=made.table.id))  # no invite: she played the game it follows
    assert (await bea.recv_until("joined", "error")).name == "joined"
    await ana.recv_until("game_start")
    for c in (ana, bea):
        await c.close()


async def test_a_rematch_lets_in_only_the_finished_games_players(server: NetworkEngine) -> None:
    ana, bea, old, info = await finished_private_game(server)
    ana.send(wire.CreateTable(rules=info.rules, private=True, rematch_of=old))
    made = (await ana.recv_until("table_created")).body
    eve = await WireClient.connect(server.port, "eve")
    eve.send(wire.JoinTable(table=made.table.id))
    assert (await eve.recv_until("joined", "error")).body.code == "no_such_table"  # a stranger needs the invite
    eve.send(wire.CreateTable(rules=info.rules, rematch_of=old))  # not a game she played: an ordinary table
    assert (await eve.recv_until("table_created")).body.table.rematch_of is None
    for c in (ana, bea, eve):
        await c.close()


async def test_the_spectators_of_a_finished_game_are_told_of_its_rematch_and_watch_it_without_the_invite(
        server: NetworkEngine) -> None:
    cid = await WireClient.connect(server.port, "cid")
    ana, bea, created = await a_game_under_way(server)
    old = created.table.id
    cid.send(wire.WatchTable(table=old, invite=created.invite))
    await cid.recv_until("snapshot")
    bea.send(wire.LeaveTable(table=old))
    for c in (ana, bea, cid):
        await c.recv_until("game_end")
        await c.recv_until("left")
    ana.send(wire.CreateTable(rules=created.table.rules, private=True, bot_takeover=False, rematch_of=old))
    made = (await ana.recv_until("table_created")).body.table
    while (offer := await cid.recv_until("table_update")).body.table.id != made.id:
        pass  # the finished table's own last updates
    assert offer.sender == "lobby" and offer.body.table.rematch_of == old and offer.body.table.seats == ["ana", None]
    cid.send(wire.WatchTable(table=made.id))  # no invite: he watched the game it follows
    assert (await cid.recv_until("snapshot", "error")).name == "snapshot"
    bea.send(wire.JoinTable(table=made.id))
    assert (await cid.recv_until("game_start")).sender == f"table:{made.id}"
    eve = await WireClient.connect(server.port, "eve")
    eve.send(wire.WatchTable(table=made.id))
    assert (await eve.recv_until("snapshot", "error")).body.code == "no_such_table"  # a stranger needs the invite
    for c in (ana, bea, cid, eve):
        await c.close()


async def test_a_game_left_names_the_seat_that_left(server: NetworkEngine) -> None:
    ana, bea, table = await a_game_the_second_player_leaves(server, "ugo", "ivo")
    end = (await ana.recv_until("game_end")).body
    assert end.reason == "abandoned" and end.leaver == 1
    for c in (ana, bea):
        await c.close()


async def test_a_late_spectator_of_a_finished_game_is_told_of_its_rematch(server: NetworkEngine) -> None:
    """Whoever watches the finished table after its end (watching again after a lost
    connection, or while its rematch waits) is told of the rematch as those who saw the
    end were, and may watch it without the invite; before the rematch is made: when it is."""
    ana, bea, old = await a_game_the_second_player_leaves(server)
    for c in (ana, bea):
        await c.recv_until("left")
    cid = await WireClient.connect(server.port, "cid")
    cid.send(wire.WatchTable(table=old))
    assert (await cid.recv_until("snapshot", "error")).body.code == "no_such_table"  # over, and no rematch
    cid.send(wire.WatchTable(table=old, last_event=0))  # watching again: the game ended meanwhile
    await cid.recv_until("game_end")
    await cid.recv_until("left")
    info = server.tables.get(old)
    assert info is not None
    ana.send(wire.CreateTable(rules=rules_to_wire(info.rules), private=True, bot_takeover=False, rematch_of=old))
    made = (await ana.recv_until("table_created")).body.table
    while (offer := await cid.recv_until("table_update")).body.table.id != made.id:
        pass
    assert offer.sender == "lobby" and offer.body.table.rematch_of == old
    dan = await WireClient.connect(server.port, "dan")  # comes after the rematch was made
    dan.send(wire.WatchTable(table=old))
    await dan.recv_until("game_end")
    while (offer := await dan.recv_until("table_update")).body.table.id != made.id:
        pass
    assert offer.body.table.rematch_of == old
    for c in (cid, dan):
        c.send(wire.WatchTable(table=made.id))  # no invite: they watched the game it follows
        assert (await c.recv_until("snapshot", "error")).name == "snapshot"
    for c in (ana, bea, cid, dan):
        await c.close()


async def test_the_rematch_chat_goes_on_from_the_finished_game(server: NetworkEngine) -> None:
    """The rematch's chat starts with the finished table's last lines: its maker and the
    one who joins get them with ``joined``."""
    ana, bea, created = await over_after_a_word(server)
    old = created.table.id
    ana.send(wire.CreateTable(rules=created.table.rules, private=True, bot_takeover=False, rematch_of=old))
    seated = (await ana.recv_until("joined")).body
    assert [(m.author, m.text) for m in seated.chat] == [("player:bea", "un'altra?")]
    made = seated.table
    bea.send(wire.JoinTable(table=made))
    joined = (await bea.recv_until("joined", "error")).body
    assert [(m.author, m.text) for m in joined.chat] == [("player:bea", "un'altra?")]
    for c in (ana, bea):
        await c.close()
