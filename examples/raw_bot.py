"""A Scopa bot with nothing but a socket and msgpack (no import of this project),
following docs/PROTOCOL.md.  Run a server (`scopa serve`), then:

    python examples/raw_bot.py [HOST:PORT] [NAME]

It says hello, joins the first table waiting for players (or creates one with a
server bot as the opponent), plays the first legal move every turn, the moment the
turn arrives, and exits after the game ends.  Commands and keys it does not know are
ignored, as the protocol requires of every client (PROTOCOL.md §1).
"""

import socket
import struct
import sys

import msgpack


class Wire:
    """Frames: a 4-byte big-endian length, then one msgpack map (PROTOCOL.md §1)."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port))
        self.me = "guest"  # our party: "guest" until the welcome (§3)
        self.seq = 0

    def send(self, name: str, body: dict, recipient: str, re: int | None = None) -> int:
        self.seq += 1
        payload = msgpack.packb({"v": 2, "seq": self.seq, "sender": self.me, "recipient": recipient,
                                 "re": re, "name": name, "body": body}, use_bin_type=True)
        self.sock.sendall(struct.pack(">I", len(payload)) + payload)
        return self.seq

    def read_exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise SystemExit("the server closed the connection")
            data += chunk
        return data

    def receive(self) -> dict:
        (size,) = struct.unpack(">I", self.read_exactly(4))
        return msgpack.unpackb(self.read_exactly(size), raw=False)


def main(address: str = "127.0.0.1:7015", name: str = "rawbot") -> int:
    host, port = address.rsplit(":", 1)
    wire = Wire(host, int(port))
    tries = 1
    wire.send("hello", {"name": name, "client": "raw_bot.py"}, "lobby")
    while True:
        cmd = wire.receive()
        kind, body = cmd["name"], cmd["body"]
        if kind == "welcome":
            wire.me = body["you"]
            wire.send("list_tables", {"state": "waiting"}, "lobby")  # tables with a free seat
        elif kind == "error" and body["code"] == "name_taken":
            tries += 1
            wire.send("hello", {"name": f"{name}{tries}", "client": "raw_bot.py"}, "lobby")
        elif kind == "tables":
            waiting = [t for t in body["tables"] if t["state"] == "waiting" and None in t["seats"]]
            if waiting:
                wire.send("join_table", {"table": waiting[0]["id"]}, "lobby")
            elif body.get("next"):  # a busy server: the next page of waiting tables
                wire.send("list_tables", {"state": "waiting", "after": body["next"]}, "lobby")
            else:
                wire.send("create_table", {"preset": "scopa", "fill_with_bots": ["random"]}, "lobby")
        elif kind == "joined":
            print(f"{wire.me} sits at table {body['table']}, seat {body['seat']}")
        elif kind == "your_turn":
            move = body["legal"][0]  # every listed move is legal
            play = {"card": move["card"], "capture": move["capture"], "turn": body["event"]}
            wire.send("play", play, cmd["sender"], re=cmd["seq"])
        elif kind == "ping":
            wire.send("pong", {"nonce": body["nonce"]}, cmd["sender"], re=cmd["seq"])
        elif kind == "error":
            print("error:", body["code"], body["message"])
            if body["fatal"]:
                return 1
        elif kind == "bye":
            print("the server said bye:", body["reason"])
            return 1
        elif kind in ("seat_away", "seat_back", "seat_replaced"):
            print(f"{kind.replace('_', ' ')}: {body['name']} (seat {body['seat']})")
        elif kind == "game_end":
            print(f"game over ({body['reason']}): winner side {body['winner']}, totals {body['totals']}")
            wire.send("bye", {"reason": "good game"}, "lobby")
            wire.sock.close()
            return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
