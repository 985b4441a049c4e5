"""A move is carried out as soon as the connection that brought it has handled its read:
the next seat's ``your_turn`` is written before the server reads the next connection of
the same loop turn, not after every read of that turn (benchmarks/server_load.py's
open-loop run measures what that does to the tail of a move's time in the server)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.conn import ServerSession
from scopa.server.core.clock import FakeClock

from wire_client import WireClient, mover_and_other

pytestmark = pytest.mark.integration


async def _two_tables(engine: NetworkEngine) -> list[tuple[WireClient, WireClient, str]]:
    """Two tables of two people each, their games started: (mover, other, table) each."""
    tables = []
    for host, guest in (("ada", "bea"), ("cid", "dia")):
        a = await WireClient.connect(engine.port, host)
        b = await WireClient.connect(engine.port, guest)
        tables.append(await mover_and_other(engine, a, b))
    return tables


async def test_each_move_read_in_one_loop_turn_is_answered_before_the_next_connection_is_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R: the play of a seat passes the turn on (the next seat's your_turn); two tables'
    moves arriving together are each answered in the order they are read."""
    engine = NetworkEngine("127.0.0.1", 0, seed=5, clock=FakeClock())
    await engine.start()
    clients: list[WireClient] = []
    try:
        tables = await _two_tables(engine)
        clients = [c for mover, other, _ in tables for c in (mover, other)]
        moves = []
        for mover, _, table in tables:
            asked = (await mover.recv_until("your_turn")).body
            legal = asked.legal[0]
            moves.append((mover, wire.PlayCard(card=legal.card, capture=legal.capture, turn=asked.event), table))

        happened: list[tuple[str, str | None]] = []
        read, flush = ServerSession.data_received, ServerSession._flush

        def noted_read(self: ServerSession, data: bytes) -> None:
            happened.append(("read", self.name))
            read(self, data)

        def noted_flush(self: ServerSession) -> Any:
            if self._out:
                happened.append(("written", self.name))
            return flush(self)

        monkeypatch.setattr(ServerSession, "data_received", noted_read)
        monkeypatch.setattr(ServerSession, "_flush", noted_flush)
        for mover, move, table in moves:  # both on their way before the server reads either
            mover.send(move, recipient=f"table:{table}")
        for _, other, _ in tables:
            await other.recv_until("your_turn")
        monkeypatch.undo()

        reads = [who for what, who in happened if what == "read"]
        assert sorted(reads) == sorted(mover.party.split(":")[-1] for mover, _, _ in tables)
        first = next(t for t in tables if t[0].party.endswith(reads[0]))
        other_name = first[1].party.split(":")[-1]
        # the first table's next seat heard its your_turn before the second mover was read
        assert happened.index(("written", other_name)) < happened.index(("read", reads[1])), happened
    finally:
        for c in clients:
            c.abort()
        await engine.stop()
