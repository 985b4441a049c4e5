"""A lean reference server: the wire protocol's framing and fan-out, and no game logic.

    python benchmarks/lean_server.py [--host 127.0.0.1] [--port 0] [--moves 36] [--loop asyncio|uvloop]

It speaks just enough of the protocol for the load generator (``server_load.py``'s
LeanClient) to play games against it, so that ``server_load.py --lean`` measures the
floor of "server CPU per move" and "server memory per table" that an asyncio server
with the same framing and fan-out reaches on this machine:

- one ``asyncio.Protocol`` per connection; bytes go into the protocol's ``FrameBuffer``
  and each payload is read with plain ``msgpack.unpackb`` (no model validation);
- what a connection is sent in one event-loop turn goes out in one ``transport.write``,
  and one scheduled call at the end of the turn writes for every connection;
- ``hello`` -> ``welcome``; ``create_table`` -> ``table_created`` and ``joined`` (seat 0);
  ``join_table`` -> ``joined`` (the next seat); the game starts when the seats (from
  the preset) are full;
- a game is ``--moves`` moves with no rules: any ``play`` of the seat to move is taken.
  Each move broadcasts ``played`` (body and envelope after ``seq`` packed once for the
  table, only ``seq`` and the frame per connection) and sends ``your_turn`` to the next
  seat (envelope by ``pack_envelope``).  That body is a real
  one, made once per preset by the engine in the middle of a round, and packed again
  for every send, as the real server packs a fresh one each move.  The last move is
  followed by ``game_end`` (reason ``target``) to all and ``left`` to each seat;
- ``bye`` closes the connection.

The first line printed is ``HOST:PORT PID``; it stops on SIGINT, SIGTERM or when its
stdin closes.  Load it with ``server_load.py --lean`` (which starts it) or
``server_load.py --server HOST:PORT --server-pid PID``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
from dataclasses import dataclass, field
from typing import Any

import msgpack

from scopa.engine import Deal, GameState, RuleSet, RuleSetError, seat_projection
from scopa.protocol.codec import envelope_head, envelope_tail, pack_envelope
from scopa.protocol.convert import your_turn_data
from scopa.protocol.errors import ProtocolError
from scopa.protocol.framing import FrameBuffer, frame_parts, frame_payload

DEFAULT_MOVES = 36  # the plays of one round of scopa (40 cards, 4 on the table)
SAMPLE_PLAYS = 18  # the sample your_turn is taken after this many plays of a round
SERVER_NAME = "scopa lean reference server"
LOBBY = "lobby"
WARM_PRESETS = ("scopa", "scopone")


def sample_your_turn(rules: RuleSet, seed: int = 1) -> tuple[dict[str, Any], list[str]]:
    """A real ``your_turn`` body (plain data) from the middle of a round of ``rules``, and
    the table cards of its view (for the ``played`` bodies)."""
    rng = random.Random(seed)
    state = GameState.new(rules, 0)
    order = list(range(40))
    rng.shuffle(order)
    state.apply(Deal(tuple(order)))
    for _ in range(SAMPLE_PLAYS):
        state.apply(rng.choice(state.legal_actions()))
    data = your_turn_data(0, state.legal_actions(), seat_projection(state, state.to_move))
    return data, list(data["view"]["table"])


def _body(cmd: dict[str, Any]) -> dict[str, Any]:
    body = cmd.get("body")
    return body if isinstance(body, dict) else {}


@dataclass(eq=False)
class LeanTable:
    id: str
    party: str
    everyone: str
    seats: int
    num_sides: int
    turn_body: dict[str, Any]  # shared by every table of these rules; only "event" is set per send
    table_cards: list[str]
    conns: list[LeanConnection] = field(default_factory=list)
    event: int = 0
    moves: int = 0
    turn: int = -1  # the seat to move; -1 before the game and after it


class LeanServer:
    """The lobby and the tables; one :class:`LeanConnection` per client."""

    def __init__(self, moves: int = DEFAULT_MOVES) -> None:
        if moves < 1:
            raise ValueError("a game needs at least one move")
        self.moves = moves
        self.names: set[str] = set()
        self.tables: dict[str, LeanTable] = {}
        self.samples: dict[tuple[str, tuple[tuple[str, Any], ...]], tuple[RuleSet, dict[str, Any], list[str]]] = {}
        self.next_table = 0
        self.server: asyncio.AbstractServer | None = None
        self.port = 0
        self.waiting: list[LeanConnection] = []  # connections with frames of this loop turn
        self.write_handle: asyncio.Handle | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        loop = asyncio.get_running_loop()
        for preset in WARM_PRESETS:  # made before the idle memory reading, not by the first table
            self._rules(preset, {})
        self.server = await loop.create_server(lambda: LeanConnection(self), host, port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def queue(self, conn: LeanConnection) -> None:
        """``conn`` has frames to write at the end of this loop turn (one call for all)."""
        self.waiting.append(conn)
        if self.write_handle is None:
            self.write_handle = asyncio.get_running_loop().call_soon(self.write)

    def write(self) -> None:
        self.write_handle = None
        waiting, self.waiting = self.waiting, []
        for conn in waiting:
            conn.flush()

    # ------------------------------------------------------------------ lobby

    def hello(self, conn: LeanConnection, cmd: dict[str, Any]) -> None:
        wanted = str(_body(cmd).get("name") or "guest")
        name, n = wanted, 1
        while name in self.names:
            n += 1
            name = f"{wanted}-{n}"
        self.names.add(name)
        conn.name = name
        conn.party = f"player:{name}"
        conn.send_data("welcome", LOBBY, {"you": conn.party, "server": SERVER_NAME, "protocol": 2, "motd": ""},
                       re=cmd.get("seq"))

    def _rules(self, preset: str, options: dict[str, Any]) -> tuple[RuleSet, dict[str, Any], list[str]]:
        key = (preset, tuple(sorted(options.items())))
        found = self.samples.get(key)
        if found is None:
            rules = RuleSet.build(preset, **options)
            turn_body, table_cards = sample_your_turn(rules)
            found = self.samples[key] = (rules, turn_body, table_cards)
        return found

    def create_table(self, conn: LeanConnection, cmd: dict[str, Any]) -> None:
        body = _body(cmd)
        re = cmd.get("seq")
        if conn.table is not None:
            conn.send_error("already_at_table", "you are at a table already", re)
            return
        try:
            options = body.get("options") or {}
            rules, turn_body, table_cards = self._rules(str(body.get("preset") or "scopa"), dict(options))
        except (RuleSetError, TypeError, ValueError) as exc:
            conn.send_error("bad_rules", str(exc)[:200], re)
            return
        self.next_table += 1
        table_id = str(self.next_table)
        table = LeanTable(table_id, f"table:{table_id}", f"table:{table_id}/all", rules.players, rules.num_sides,
                          turn_body, table_cards)
        self.tables[table_id] = table
        summary = {"id": table_id, "rules": rules.model_dump(mode="json"), "description": f"{rules.players} players",
                   "seats": [conn.name] + [None] * (rules.players - 1), "state": "waiting", "private": False,
                   "spectators": 0}
        conn.send_data("table_created", LOBBY, {"table": summary, "invite": None}, re=re)
        self._seat(table, conn, re)

    def join_table(self, conn: LeanConnection, cmd: dict[str, Any]) -> None:
        body = _body(cmd)
        re = cmd.get("seq")
        table = self.tables.get(str(body.get("table")))
        if table is None:
            conn.send_error("no_such_table", f"no table {str(body.get('table'))[:40]!r}", re)
        elif conn.table is not None:
            conn.send_error("already_at_table", "you are at a table already", re)
        elif len(table.conns) >= table.seats:
            conn.send_error("table_full", "every seat is taken", re)
        else:
            self._seat(table, conn, re)

    def _seat(self, table: LeanTable, conn: LeanConnection, re: int | None) -> None:
        seat = len(table.conns)
        table.conns.append(conn)
        conn.table, conn.seat = table, seat
        conn.send_data("joined", LOBBY, {"table": table.id, "seat": seat, "side": seat % table.num_sides,
                                         "token": f"lean-{table.id}-{seat}-token"}, re=re)
        if len(table.conns) == table.seats:
            table.turn = 0
            self._ask(table)

    # ------------------------------------------------------------------ the game

    def _ask(self, table: LeanTable) -> None:
        table.event += 1
        body = table.turn_body
        body["event"] = table.event
        table.conns[table.turn].send_packed("your_turn", table.party, msgpack.packb(body))

    def _broadcast(self, table: LeanTable, name: str, body: dict[str, Any]) -> None:
        table.event += 1
        body["event"] = table.event
        tail = envelope_tail(sender=table.party, recipient=table.everyone, re=None, name=name, body=msgpack.packb(body))
        for c in table.conns:
            c.send_tail(tail)

    def play(self, conn: LeanConnection, cmd: dict[str, Any]) -> None:
        table = conn.table
        re = cmd.get("seq")
        if table is None or cmd.get("recipient") != table.party:
            conn.send_error("not_at_table", "you are not at that table", re, sender=table.party if table else LOBBY)
            return
        if table.turn != conn.seat:
            conn.send_error("not_your_turn", "it is not your turn", re, sender=table.party)
            return
        body = _body(cmd)
        self._broadcast(table, "played", {"event": 0, "seat": conn.seat, "card": body.get("card"),
                                          "captured": body.get("capture") or [], "scopa": False,
                                          "table": table.table_cards, "forced": None})
        table.moves += 1
        if table.moves >= self.moves:
            self._end(table, "target", 0)
        else:
            table.turn = (table.turn + 1) % table.seats
            self._ask(table)

    def _end(self, table: LeanTable, reason: str, winner: int | None) -> None:
        table.turn = -1
        totals = [11 if side == winner else 7 for side in range(table.num_sides)]
        self._broadcast(table, "game_end", {"event": 0, "winner": winner, "totals": totals, "reason": reason})
        leave_reason = "game_over" if reason != "abandoned" else "abandoned"
        for c in table.conns:
            c.table, c.seat = None, -1
            c.send_data("left", LOBBY, {"table": table.id, "reason": leave_reason})
        table.conns.clear()
        self.tables.pop(table.id, None)

    def gone(self, conn: LeanConnection) -> None:
        self.names.discard(conn.name)
        table = conn.table
        if table is None:
            return
        table.conns.remove(conn)
        conn.table = None
        if table.turn >= 0:  # mid-game: the others' game is over
            self._end(table, "abandoned", None)
        elif not table.conns:
            self.tables.pop(table.id, None)


class LeanConnection(asyncio.Protocol):
    """One client: frames in through a FrameBuffer, one write per loop turn out."""

    __slots__ = ("frames", "name", "out", "party", "queued", "seat", "seq", "server", "table", "transport")

    def __init__(self, server: LeanServer) -> None:
        self.server = server
        self.frames = FrameBuffer()
        self.transport: asyncio.Transport | None = None
        self.out: list[bytes] = []
        self.queued = False  # in the server's write batch of this loop turn
        self.seq = 0
        self.name = ""
        self.party = "guest"
        self.table: LeanTable | None = None
        self.seat = -1

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.frames.feed(data)
        server = self.server
        try:
            while (payload := self.frames.next_payload()) is not None:
                cmd = msgpack.unpackb(payload)
                if not isinstance(cmd, dict):
                    raise ValueError("a command is a map")
                name = cmd.get("name")
                if name == "play" and self.name:
                    server.play(self, cmd)
                elif name == "bye":
                    self.close()
                    return
                elif not self.name:
                    if name == "hello":
                        server.hello(self, cmd)
                    else:
                        self.send_error("not_hello_yet", "send hello first", cmd.get("seq"))
                elif name == "create_table":
                    server.create_table(self, cmd)
                elif name == "join_table":
                    server.join_table(self, cmd)
                else:
                    self.send_error("unexpected_command", f"{str(name)[:40]!r} is not served here", cmd.get("seq"))
        except (ProtocolError, ValueError, TypeError, msgpack.UnpackException):
            self.close()  # a broken stream: this reference server just hangs up

    def connection_lost(self, exc: Exception | None) -> None:
        self.out.clear()
        self.transport = None
        self.server.gone(self)

    def send_data(self, name: str, sender: str, body: dict[str, Any], re: int | None = None) -> None:
        self.send_packed(name, sender, msgpack.packb(body), re=re)

    def send_error(self, code: str, message: str, re: int | None, sender: str = LOBBY) -> None:
        self.send_data("error", sender, {"code": code, "message": message, "fatal": False}, re=re)

    def send_packed(self, name: str, sender: str, body: bytes, recipient: str | None = None,
                    re: int | None = None) -> None:
        if self.transport is None:
            return
        self.seq += 1
        self._queue(frame_payload(pack_envelope(seq=self.seq, sender=sender, recipient=recipient or self.party,
                                                re=re, name=name, body=body)))

    def send_tail(self, tail: bytes) -> None:
        """A broadcast whose envelope after ``seq`` is packed once for the table."""
        if self.transport is None:
            return
        self.seq += 1
        self._queue(frame_parts(envelope_head(self.seq), tail))

    def _queue(self, frame: bytes) -> None:
        self.out.append(frame)
        if not self.queued:
            self.queued = True
            self.server.queue(self)

    def flush(self) -> None:
        self.queued = False
        out = self.out
        if not out or self.transport is None or self.transport.is_closing():
            out.clear()
            return
        self.transport.write(b"".join(out) if len(out) > 1 else out[0])
        out.clear()

    def close(self) -> None:
        self.flush()
        if self.transport is not None:
            self.transport.close()


async def serve(host: str, port: int, moves: int) -> None:
    server = LeanServer(moves)
    await server.start(host, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)

    def stdin_ready() -> None:  # stdin closed (the parent is done or gone): stop
        if not os.read(sys.stdin.fileno(), 4096):
            loop.remove_reader(sys.stdin.fileno())
            stop.set()

    loop.add_reader(sys.stdin.fileno(), stdin_ready)
    print(f"{host}:{server.port} {os.getpid()}", flush=True)
    try:
        await stop.wait()
    finally:
        await server.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0, help="0: any free port (default)")
    ap.add_argument("--moves", type=int, default=DEFAULT_MOVES, help=f"moves per game (default {DEFAULT_MOVES})")
    ap.add_argument("--loop", choices=("asyncio", "uvloop"), default="asyncio")
    args = ap.parse_args(argv)
    if args.loop == "uvloop":
        import uvloop

        uvloop.run(serve(args.host, args.port, args.moves))
    else:
        asyncio.run(serve(args.host, args.port, args.moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
