"""A table with bots on some seats and seats open for people (PROTOCOL.md §7
``create_table``, fewer bots than free seats): at scopone the bots take the other side's
seats, so the friend who joins plays with the table's maker (R2: partners opposite)."""

from __future__ import annotations

import pytest

from scopa.engine import Preset
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine

from test_server_games import seeded_server
from wire_client import WireClient

pytestmark = pytest.mark.integration

server = seeded_server(77)


async def test_two_friends_play_together_against_two_bots_at_scopone(server: NetworkEngine) -> None:
    ana = await WireClient.connect(server.port, "ana")
    bea = await WireClient.connect(server.port, "bea")
    ana.send(wire.CreateTable(preset=Preset.SCOPONE, fill_with_bots=["greedy", "greedy"]))
    made = (await ana.recv_until("table_created")).body.table
    assert made.seats[0] == "ana" and made.seats[2] is None  # the partner's seat is the one left open
    assert made.seats[1] is not None and made.seats[3] is not None and made.bots == [1, 3]
    bea.send(wire.JoinTable(table=made.id))
    joined = (await bea.recv_until("joined", "error")).body
    assert joined.seat == 2 and joined.side == 0  # ana's side
    await ana.recv_until("game_start")
    for c in (ana, bea):
        await c.close()


async def test_bots_in_every_free_seat_sit_in_order(server: NetworkEngine) -> None:
    ana = await WireClient.connect(server.port, "ana")
    ana.send(wire.CreateTable(preset=Preset.SCOPONE, fill_with_bots=["random", "greedy", "random"]))
    made = (await ana.recv_until("table_created")).body.table
    assert made.seats[1:] == ["random-bot-1", "greedy-bot-2", "random-bot-3"]
    await ana.close()
