"""Record one whole seeded 2-player game against a live server, every frame both ways,
per connection: docs/transcript.json (docs/TRANSCRIPT.md says what it holds).

    python tests/transcript.py             # record and compare with docs/transcript.json
    python tests/transcript.py --write     # record and write docs/transcript.json

The server (``scopa.server.NetworkEngine``, seeded) runs in this process on 127.0.0.1,
port 0. Two clients speak raw frames (a 4-byte length, one msgpack map) built by hand,
so what is recorded is exactly what crossed each socket: ``ada`` creates a table and
sits, ``bob`` joins it, each answers every ``your_turn`` at once with the legal move
that takes the most cards (the first of those), and after the game each says ``bye``
and reads until the server closes the connection.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from scopa.protocol import PROTOCOL_VERSION
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

ROOT = Path(__file__).resolve().parent.parent
TRANSCRIPT = ROOT / "docs" / "transcript.json"
SEED = 2026
TIMEOUT = 60.0  # seconds: a safety net for the whole game
REGENERATE = "python tests/transcript.py --write"

# What is random by design, whatever the seed: the key and what stands in its place (a
# value of the field's own type, so that every recorded frame stays valid by the schema).
MASKED: dict[str, str | int] = {
    "token": "MASKED-seat-token-0000000000000",  # joined.token, hello.resume.token: secrets drawn at random
    "nonce": 0,  # ping/pong: a random number chosen by the pinger
}
# The limits of a default server, except the idle ping: it depends on time, not on the game.
LIMITS = Limits(ping_interval=None)

Frame = dict[str, Any]


def mask(value: Any) -> Any:
    """``value`` with every :data:`MASKED` key's value replaced, at any depth."""
    if isinstance(value, dict):
        return {k: (MASKED[k] if k in MASKED else mask(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [mask(v) for v in value]
    return value


def best_move(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The legal move taking the most cards; the first of those."""
    return max(legal, key=lambda move: len(move["capture"]))


@dataclass
class Recorder:
    """One client connection: it sends commands and records every frame both ways."""

    client: str
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    party: str = "guest"
    seq: int = 0
    frames: list[dict[str, Any]] = field(default_factory=list)

    def send(self, name: str, body: dict[str, Any], recipient: str, re: int | None = None) -> None:
        self.seq += 1
        command = {"v": PROTOCOL_VERSION, "seq": self.seq, "sender": self.party, "recipient": recipient,
                   "re": re, "name": name, "body": body}  # fmt: skip
        payload = msgpack.packb(command, use_bin_type=True)
        self.frames.append({"dir": "to_server", "frame": msgpack.unpackb(payload, raw=False)})
        self.writer.write(struct.pack(">I", len(payload)) + payload)

    async def receive(self) -> Frame | None:
        """The next command from the server, or None when it closed the connection."""
        try:
            (size,) = struct.unpack(">I", await self.reader.readexactly(4))
            payload = await self.reader.readexactly(size)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise
            return None
        frame = msgpack.unpackb(payload, raw=False)
        assert isinstance(frame, dict), frame
        self.frames.append({"dir": "to_client", "frame": frame})
        return frame

    async def expect(self, name: str) -> Frame:
        """Read until a command called ``name`` (the ones before it are recorded too)."""
        while True:
            frame = await self.receive()
            if frame is None:
                raise ConnectionError(f"{self.client}: closed while waiting for {name}")
            if frame["name"] == name:
                return frame
            if frame["name"] == "error":
                raise RuntimeError(f"{self.client}: {frame['body']}")

    async def hello(self) -> None:
        self.send("hello", {"name": self.client, "client": "tests/transcript.py"}, "lobby")
        welcome = await self.expect("welcome")
        self.party = welcome["body"]["you"]

    async def play_to_the_end(self) -> None:
        """Answer every turn until the game is over and we are back in the lobby; bye."""
        while True:
            frame = await self.receive()
            if frame is None:
                raise ConnectionError(f"{self.client}: closed during the game")
            name, body = frame["name"], frame["body"]
            if name == "your_turn":
                move = best_move(body["legal"])
                self.send("play", {"card": move["card"], "capture": move["capture"], "turn": body["event"]},
                          frame["sender"], re=frame["seq"])  # fmt: skip
            elif name == "ping":
                self.send("pong", {"nonce": body["nonce"]}, frame["sender"], re=frame["seq"])
            elif name == "error":
                raise RuntimeError(f"{self.client}: {body}")
            elif name == "left":
                break
        self.send("bye", {"reason": "good game"}, "lobby")
        await self.writer.drain()
        while await self.receive() is not None:
            pass
        self.writer.close()


async def _connect(client: str, port: int) -> Recorder:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    return Recorder(client, reader, writer)


async def record_frames(seed: int = SEED) -> dict[str, list[dict[str, Any]]]:
    """Play the game on a fresh server: client name -> its frames (not masked)."""
    # a clock that stands still: the turn clock's time left is the same in every run
    engine = NetworkEngine(host="127.0.0.1", port=0, seed=seed, limits=LIMITS, clock=FakeClock())
    await engine.start()
    try:
        async with asyncio.timeout(TIMEOUT):
            ada = await _connect("ada", engine.port)
            await ada.hello()
            ada.send("create_table", {"preset": "scopa", "sit": True}, "lobby")
            created = await ada.expect("table_created")
            await ada.expect("joined")
            await ada.expect("table_update")
            bob = await _connect("bob", engine.port)
            await bob.hello()
            bob.send("join_table", {"table": created["body"]["table"]["id"]}, "lobby")
            await asyncio.gather(ada.play_to_the_end(), bob.play_to_the_end())
    finally:
        await engine.stop()
    return {"ada": ada.frames, "bob": bob.frames}


def transcript(seed: int = SEED) -> dict[str, Any]:
    """The whole transcript document, masked."""
    frames = asyncio.run(record_frames(seed))
    return {
        "about": "One whole 2-player game of scopa against a live server: every frame of each client's "
                 "connection, both ways, as JSON, in the order the client read and sent them. "
                 "See docs/TRANSCRIPT.md.",
        "protocol": PROTOCOL_VERSION,
        "server_seed": seed,
        "masked": MASKED,
        "connections": [{"client": client, "frames": mask(frames[client])} for client in sorted(frames)],
    }  # fmt: skip


def _one_line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def render(doc: dict[str, Any]) -> str:
    """JSON with one frame per line, so that a change shows as a change of lines."""
    one = _one_line
    head = ",\n".join(f"  {one(k)}: {one(v)}" for k, v in doc.items() if k != "connections")
    blocks = []
    for conn in doc["connections"]:
        frames = ",\n".join(f"      {one(f)}" for f in conn["frames"])
        blocks.append(f'    {{"client": {one(conn["client"])}, "frames": [\n{frames}\n    ]}}')
    return "{\n" + head + ',\n  "connections": [\n' + ",\n".join(blocks) + "\n  ]\n}\n"


def _by_client(doc: dict[str, Any]) -> dict[str, list[Any]]:
    return {conn["client"]: conn["frames"] for conn in doc.get("connections", [])}


def differences(got: dict[str, Any], want: dict[str, Any], limit: int = 5) -> list[str]:
    """Where two transcripts differ, frame by frame (at most ``limit`` places)."""
    out: list[str] = []
    for key in sorted(set(got) | set(want)):
        if key != "connections" and got.get(key) != want.get(key):
            out.append(f"{key}: {got.get(key)!r} != {want.get(key)!r}")
    mine, theirs = _by_client(got), _by_client(want)
    if set(mine) != set(theirs):
        out.append(f"connections: {sorted(mine)} != {sorted(theirs)}")
    for client in sorted(set(mine) & set(theirs)):
        a, b = mine[client], theirs[client]
        for i in range(max(len(a), len(b))):
            if len(out) >= limit:
                return out
            fa = a[i] if i < len(a) else None
            fb = b[i] if i < len(b) else None
            if fa != fb:
                out.append(f"{client} frame {i}:\n  now:       {json.dumps(fa)}\n  committed: {json.dumps(fb)}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record the seeded transcript of a whole game.")
    parser.add_argument("--write", action="store_true", help=f"write {TRANSCRIPT.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    doc = transcript()
    if args.write:
        TRANSCRIPT.write_text(render(doc), encoding="utf-8")
        sizes = ", ".join(f"{c['client']} {len(c['frames'])} frames" for c in doc["connections"])
        print(f"wrote {TRANSCRIPT.relative_to(ROOT)}: {sizes}")
        return 0
    diff = differences(doc, json.loads(TRANSCRIPT.read_text(encoding="utf-8")))
    print("\n".join(diff) if diff else "the transcript is up to date")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
