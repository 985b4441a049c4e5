"""benchmarks/lean_server.py, the no-game-logic reference server that server_load.py --lean
measures: two raw msgpack clients play one two-seat game against it on loopback."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from types import ModuleType
from typing import Any

import msgpack

from scopa.protocol.codec import FrameDecoder
from scopa.protocol.framing import frame_payload

from paths import ROOT

MOVES = 6
TIMEOUT = 10.0  # seconds: a broken server fails the test instead of hanging it


def _lean_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lean_server", ROOT / "benchmarks" / "lean_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["lean_server"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


class RawClient:
    """Framing and msgpack by hand, as any-language bots do."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.decoder = FrameDecoder()
        self.pending: list[dict[str, Any]] = []
        self.seq = 0
        self.party = "guest"
        self.seen: list[dict[str, Any]] = []

    @classmethod
    async def connect(cls, port: int, name: str) -> RawClient:
        client = cls(*await asyncio.open_connection("127.0.0.1", port))
        client.send("hello", "lobby", {"name": name, "client": "test"})
        welcome = await client.recv()
        assert welcome["name"] == "welcome" and welcome["re"] == 1
        client.party = welcome["body"]["you"]
        return client

    def send(self, name: str, recipient: str, body: dict[str, Any], re: int | None = None) -> None:
        self.seq += 1
        env = {"v": 2, "seq": self.seq, "sender": self.party, "recipient": recipient, "re": re, "name": name,
               "body": body}
        self.writer.write(frame_payload(msgpack.packb(env)))

    async def recv(self) -> dict[str, Any]:
        while not self.pending:
            data = await asyncio.wait_for(self.reader.read(65536), TIMEOUT)
            assert data, "the server closed the connection"
            self.decoder.feed(data)  # what the lean server sends is valid protocol, strictly read
            self.pending.extend(command.model_dump(mode="json") for command in self.decoder)
        cmd = self.pending.pop(0)
        self.seen.append(cmd)
        return cmd

    async def close(self) -> None:
        self.send("bye", "lobby", {"reason": "done"})
        self.writer.close()
        await self.writer.wait_closed()


async def _play(client: RawClient) -> None:
    """Answer each your_turn with its first legal move until the server says we left."""
    while (cmd := await client.recv())["name"] != "left":
        if cmd["name"] == "your_turn":
            move = cmd["body"]["legal"][0]
            client.send("play", cmd["sender"], {"card": move["card"], "capture": move["capture"]}, re=cmd["seq"])


async def test_one_two_seat_game_ends_with_game_end_and_left_and_every_play_reaches_both() -> None:
    lean = _lean_module()
    server = lean.LeanServer(moves=MOVES)
    await server.start("127.0.0.1", 0)
    try:
        a = await RawClient.connect(server.port, "ada")
        b = await RawClient.connect(server.port, "bob")
        assert (a.party, b.party) == ("player:ada", "player:bob")

        a.send("create_table", "lobby", {"preset": "scopa", "options": {}})
        created, joined_a = await a.recv(), await a.recv()
        assert created["name"] == "table_created" and joined_a["name"] == "joined"
        assert joined_a["body"]["seat"] == 0
        table = joined_a["body"]["table"]
        b.send("join_table", "lobby", {"table": table})
        joined_b = await b.recv()
        assert joined_b["name"] == "joined"
        assert (joined_b["body"]["table"], joined_b["body"]["seat"]) == (table, 1)

        # The seats are full: seat 0 is asked; a play from seat 1 now is refused.
        b.send("play", f"table:{table}", {"card": "Rs", "capture": []})
        refused = await b.recv()
        assert refused["name"] == "error" and refused["body"]["code"] == "not_your_turn"

        await asyncio.wait_for(asyncio.gather(_play(a), _play(b)), TIMEOUT)
        for client in (a, b):
            names = [c["name"] for c in client.seen]
            assert names[-2:] == ["game_end", "left"]
            played = [c for c in client.seen if c["name"] == "played"]
            assert [p["body"]["seat"] for p in played] == [i % 2 for i in range(MOVES)]
            assert all(p["recipient"] == f"table:{table}/all" for p in played)
            turns = [c for c in client.seen if c["name"] == "your_turn"]
            assert len(turns) == MOVES // 2  # every other move is this seat's
            assert all(t["recipient"] == client.party and t["body"]["legal"] for t in turns)
            end, left = client.seen[-2:]
            assert end["body"]["reason"] == "target" and end["body"]["winner"] == 0
            assert left["body"] == {"table": table, "reason": "game_over"}
            seqs = [c["seq"] for c in client.seen]
            assert seqs == list(range(1, len(seqs) + 1))  # one counter per connection
        # Both saw the same played events, numbered alike (one body packed for the table).
        assert [c["body"] for c in a.seen if c["name"] == "played"] == [
            c["body"] for c in b.seen if c["name"] == "played"]
        assert not server.tables
        await a.close()
        await b.close()
    finally:
        await server.stop()
