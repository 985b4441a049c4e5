"""A small protocol client for server tests: it speaks frames directly, so a test can
also send what a well-behaved client never would (forged senders, bad frames)."""

from __future__ import annotations

import asyncio
from typing import Any, Sequence

from scopa.engine import RuleSet
from scopa.engine.player import Player
from scopa.protocol import Command, Connection, ConnectionRole, encode, make_command
from scopa.protocol import commands as wire
from scopa.protocol.convert import action_to_wire, legal_from_wire, view_from_wire
from scopa.protocol.convert import rules_from_wire

TIMEOUT = 30.0  # a safety net only: every wait normally ends on a message


class WireClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.proto = Connection(ConnectionRole.CLIENT)
        self.inbox: list[Command] = []
        self.party = "guest"
        self.table: str | None = None
        self.seat: int | None = None
        self.token: str | None = None  # the seat token from `joined` (to resume)
        self.last_event = 0  # the highest table event number received

    @classmethod
    async def connect(cls, port: int, name: str | None = None) -> WireClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        client = cls(reader, writer)
        if name is not None:
            await client.hello(name)
        return client

    async def hello(self, name: str, ticket: str | None = None) -> Command:
        """``hello`` (``ticket``: a ``redirect``'s, §7) and its answer."""
        self.send(wire.Hello(name=name, ticket=ticket))
        reply = await self.recv()
        if isinstance(reply.body, wire.Welcome):
            self.party = reply.body.you
        return reply

    def send(self, body: wire.Body, recipient: str = "lobby", re: int | None = None) -> int:
        cmd = self.proto.command(body, recipient=recipient, re=re)
        self.writer.write(self.proto.send(cmd))
        return cmd.seq

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    def send_forged(self, body: wire.Body, sender: str, recipient: str) -> int:
        cmd = make_command(body, seq=900_000 + len(self.inbox), sender=sender, recipient=recipient)
        self.writer.write(encode(cmd))
        return cmd.seq

    async def recv(self) -> Command:
        async def one() -> Command:
            while True:
                cmd = self.proto.next_command()
                if cmd is not None:
                    self.inbox.append(cmd)
                    if isinstance(cmd.body, (wire.TableEvent, wire.Snapshot)):
                        self.last_event = max(self.last_event, cmd.body.event)
                    if isinstance(cmd.body, wire.Joined):
                        self.token = cmd.body.token
                    return cmd
                data = await self.reader.read(65536)
                if not data:
                    raise ConnectionError("server closed the connection")
                self.proto.feed(data)

        return await asyncio.wait_for(one(), TIMEOUT)

    async def resume(self, token: str, last_event: int, name: str = "anyone", table: str | None = None) -> Command:
        """hello with resume={token, last_event, table}: the welcome (or an error, or a redirect)."""
        self.send(wire.Hello(name=name, resume=wire.ResumeRequest(token=token, last_event=last_event, table=table)))
        reply = await self.recv()
        if isinstance(reply.body, wire.Welcome):
            self.party = reply.body.you
        return reply

    def abort(self) -> None:
        """Drop the connection at once (no bye, no FIN: an RST)."""
        self.writer.transport.abort()

    async def recv_until(self, *names: str) -> Command:
        while True:
            cmd = await self.recv()
            if cmd.name in names:
                return cmd

    async def create(self, bots: Sequence[str] = (), sit: bool = True, bot_takeover: bool = True,
                     **options: object) -> str:
        self.send(wire.CreateTable(options=options, fill_with_bots=list(bots), sit=sit,  # type: ignore[arg-type]
                                   bot_takeover=bot_takeover))
        created = await self.recv_until("table_created")
        self.table = created.body.table.id
        if sit:
            joined = await self.recv_until("joined")
            self.seat = joined.body.seat
        return self.table

    async def join(self, table: str) -> Command:
        self.send(wire.JoinTable(table=table))
        reply = await self.recv_until("joined", "error")
        if reply.name == "joined":
            self.table, self.seat = table, reply.body.seat
        return reply

    async def play_game(self, player: Player) -> list[Command]:
        """Answer every your_turn with the player's choice until game_end; return the
        public table events seen (game_start .. game_end)."""
        starts = [c.body for c in self.inbox if isinstance(c.body, wire.GameStart)]
        rules: RuleSet | None = starts[-1].rules if starts else None
        public: list[Command] = []
        while True:
            cmd = await self.recv()
            body = cmd.body
            if isinstance(body, wire.GameStart):
                rules = rules_from_wire(body.rules)
            if cmd.recipient.endswith("/all") and isinstance(body, wire.TableEvent):
                public.append(cmd)
            if isinstance(body, wire.YourTurn):
                assert rules is not None
                action = await player.choose(view_from_wire(body.view, rules), legal_from_wire(body))
                self.send(action_to_wire(action), recipient=f"table:{self.table}", re=cmd.seq)
            if isinstance(body, wire.GameEnd):
                return public

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


async def mover_and_other(engine: Any, a: WireClient, b: WireClient) -> tuple[WireClient, WireClient, str]:
    """``a``'s new two-seat table on ``engine`` (a NetworkEngine), ``b`` seated too and the
    game started: the client whose turn it is, the other one, and the table."""
    table = await a.create(players=2)
    await b.join(table)
    master = engine.tables[table].master
    assert master is not None
    return (a, b, table) if master.state.to_move == a.seat else (b, a, table)
