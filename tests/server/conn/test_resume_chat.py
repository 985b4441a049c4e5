"""A seat coming back gets the table's recent chat with its ``joined`` (the last
``CHAT_KEPT`` messages, oldest first), so what was said while it was away is not lost."""

from __future__ import annotations

import pytest

from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.core.clock import FakeClock

from wire_client import WireClient

pytestmark = pytest.mark.integration


async def test_a_resumed_seat_gets_the_tables_last_chat_messages() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=7, grace=60.0, clock=FakeClock())
    await engine.start()
    try:
        a = await WireClient.connect(engine.port, "ada")
        first = await a.create(bots=["greedy"])
        await a.recv_until("your_turn")
        for n in range(wire.CHAT_KEPT + 2):
            a.send(wire.Chat(text=f"ciao {n}"), recipient=f"table:{first}")
            await a.recv_until("chat_message")
        a.abort()
        b = await WireClient.connect(engine.port)
        assert (await b.resume(a.token, a.last_event)).name == "welcome"  # type: ignore[arg-type]
        joined = await b.recv_until("joined")
        assert joined.body.resumed
        assert [(m.author, m.text) for m in joined.body.chat] == \
            [(a.party, f"ciao {n}") for n in range(2, wire.CHAT_KEPT + 2)]  # the last ones, oldest first
        await b.close()

    finally:
        await engine.stop()
