"""A client that comes back from nothing (``last_event`` 0) is sent the whole game so
far, then its own ``seat_back`` (PROTOCOL.md §7).  ``ClientSession.replaying()`` tells
history from the live game, so a resumed app does not stop on a round that ended
before it came back — and a live round end still stops it."""

from __future__ import annotations

import asyncio

from scopa.client.net import ClientSession
from scopa.protocol import Command, commands as wire
from scopa.protocol.convert import action_to_wire, legal_from_wire
from scopa.server import Limits, NetworkEngine

from wire_client import WireClient


async def _play_into_round_two(c: WireClient) -> None:
    """Answer every turn with the first legal move until round 2 has started (R22: rounds
    go on until a side reaches the target)."""
    while True:
        cmd = await c.recv()
        if isinstance(cmd.body, wire.RoundStart) and cmd.body.round == 2:
            return
        if isinstance(cmd.body, wire.YourTurn):
            move = action_to_wire(legal_from_wire(cmd.body)[0]).model_copy(update={"turn": cmd.body.event})
            c.send(move, recipient=f"table:{c.table}")


async def test_a_resumed_seat_replays_history_then_plays_live() -> None:
    server = NetworkEngine("127.0.0.1", 0, seed=4, limits=Limits(commands_per_second=None))
    await server.start()
    try:
        c = await WireClient.connect(server.port, "ria")
        await c.create(bots=["greedy"], target=21)
        await _play_into_round_two(c)
        token = c.token
        assert token is not None
        c.abort()  # the client process is gone

        back_seen = asyncio.Event()
        session = await ClientSession.resume_seat("127.0.0.1", server.port, "ria", token)
        session.observers.append(lambda cmd: back_seen.set() if isinstance(cmd.body, wire.SeatBack)
                                 and cmd.body.seat == session.seat else None)
        if not session.replaying():  # not arrived yet (else it is queued already)
            await asyncio.wait_for(back_seen.wait(), 10)  # then the whole resend has arrived

        replayed_round_ends = 0
        while True:  # history: everything before our own seat_back
            cmd: Command = await session.next_command()
            if isinstance(cmd.body, wire.SeatBack) and cmd.body.seat == session.seat:
                break
            if isinstance(cmd.body, wire.RoundEnd):
                assert session.replaying(), "a round end from before the return counts as history"
                replayed_round_ends += 1
        assert replayed_round_ends == 1
        assert not session.replaying()

        # Live again: play on to the end of round 2; its round end is not history.
        while True:
            cmd = await session.next_command()
            if isinstance(cmd.body, wire.YourTurn):
                move = action_to_wire(legal_from_wire(cmd.body)[0]).model_copy(update={"turn": cmd.body.event})
                session._send(move, f"table:{session.table_id}")  # noqa: SLF001 - a bare move, no UI
            if isinstance(cmd.body, wire.RoundEnd):
                assert not session.replaying()
                break
        await session.close()
    finally:
        await server.stop()
