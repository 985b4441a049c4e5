"""A browser's move is carried out as soon as the web front has handed its message to the
session and the session returned: the next seat's ``your_turn`` is written from within
that read, not by a callback at the end of the loop turn (as for TCP: tests/server/
test_move_at_once.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from scopa.protocol import commands as wire
from scopa.server.conn import ServerSession

from test_web_front import web_front
from wire_client import mover_and_other
from ws_client import WsClient

pytestmark = pytest.mark.integration

def _within_the_web_read() -> bool:
    """Whether the web front's reading of a message is up the stack."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename.replace("\\", "/").endswith("web/websocket.py"):
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


async def test_a_browsers_move_is_answered_within_its_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R: the play of a seat passes the turn on (the next seat's your_turn)."""
    (tmp_path / "index.html").write_text("<!doctype html><title>Scopa</title>")
    engine, front = await web_front(tmp_path)
    a = b = None
    try:
        a = await WsClient.open(front.port, "ada")
        b = await WsClient.open(front.port, "bea")
        mover, other, table = await mover_and_other(engine, a, b)
        asked = (await mover.recv_until("your_turn")).body
        legal = asked.legal[0]

        written: list[tuple[str | None, bool]] = []
        flush = ServerSession._flush

        def noted_flush(self: ServerSession) -> Any:
            if self._out:
                written.append((self.name, _within_the_web_read()))
            return flush(self)

        monkeypatch.setattr(ServerSession, "_flush", noted_flush)
        mover.send(wire.PlayCard(card=legal.card, capture=legal.capture, turn=asked.event), recipient=f"table:{table}")
        await other.recv_until("your_turn")
        monkeypatch.undo()
        other_name = other.party.split(":")[-1]
        assert (other_name, True) in written, written
    finally:
        for c in (a, b):
            if c is not None:
                await c.close()
        await engine.stop()
        await front.stop()
