"""Players of quick games and tournaments for the club's tests: each speaks the protocol
(:class:`wire_client.WireClient`), sits wherever the server seats it (following a
cluster's ``redirect`` to the member serving its table), plays every game with a built-in
bot, and after the server went away comes back to the new one: to its seat with its token
when a game of its was under way, else by name."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from scopa.bots import make_bot
from scopa.engine import RuleSet
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.protocol.convert import action_to_wire, legal_from_wire, rules_from_wire, view_from_wire
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions
from scopa.server.core.clock import FakeClock
from wire_client import WireClient


class Server:
    """Where the players connect: its port, and whether it is up (a restart clears it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.up = asyncio.Event()
        self.up.set()

    def down(self) -> None:
        self.up.clear()

    def again(self, port: int) -> None:
        self.port = port
        self.up.set()


class ClubPlayer:
    """One player; ``hold`` (if given) is asked of each your_turn: true leaves it
    unanswered (the game stays where it is until the player is asked again)."""

    def __init__(self, name: str, server: Server, seed: int = 0,
                 hold: Callable[[ClubPlayer, Command], bool] | None = None) -> None:
        self.name = name
        self.server = server
        self.bot = make_bot("greedy", name, seed=seed)
        self.hold = hold
        self.client: WireClient | None = None
        self.rules: RuleSet | None = None
        self.token: str | None = None  # the seat token of the game under way
        self.table: str | None = None  # its table
        self.seen: list[Command] = []  # everything the server sent, in order
        self.games = 0

    async def connect(self) -> WireClient:
        """Connect (again): to its seat with its token while a game of its is under way
        (asked again while a cluster moves its table from a lost member to another,
        ``unavailable`` or a redirect to the lost one), else by name."""
        while True:
            await self.server.up.wait()
            client = await WireClient.connect(self.server.port)
            if self.token is None:
                break
            welcome = await client.resume(self.token, client.last_event, name=self.name, table=self.table)
            if welcome.name == "welcome":
                self.client = client
                return client
            if welcome.name != "redirect" and welcome.body.code is not ErrorCode.UNAVAILABLE:
                break
            await client.close()
            await asyncio.sleep(0.1)
        await client.hello(self.name)
        self.client = client
        return client

    def send(self, body: wire.Body) -> int:
        assert self.client is not None
        return self.client.send(body)

    async def next(self) -> Command:
        """The next command from the server, after playing what it asks of this player."""
        while True:
            assert self.client is not None
            try:
                cmd = await self.client.recv()
            except (ConnectionError, OSError):
                await self.connect()
                continue
            self.seen.append(cmd)
            if isinstance(cmd.body, wire.Redirect):
                await self._follow(cmd.body)
            self._play(cmd)
            return cmd

    async def _follow(self, redirect: wire.Redirect) -> None:
        """Sent to the cluster member serving its table (§7 "Handing on"): there with the ticket."""
        assert self.client is not None
        client = await WireClient.connect(int(redirect.address.rsplit(":", 1)[1]))
        welcome = await client.hello(self.name, ticket=redirect.ticket)
        assert welcome.name == "welcome", welcome.body
        await self.client.close()
        self.client = client

    async def until(self, done: Callable[[Command], bool]) -> Command:
        while True:
            cmd = await self.next()
            if done(cmd):
                return cmd

    def _play(self, cmd: Command) -> None:
        body = cmd.body
        if isinstance(body, wire.Joined):
            self.token, self.table = body.token, body.table
        elif isinstance(body, wire.GameStart):
            self.rules = rules_from_wire(body.rules)
        elif isinstance(body, wire.GameEnd):
            self.token, self.games = None, self.games + 1
        elif isinstance(body, wire.YourTurn) and not (self.hold is not None and self.hold(self, cmd)):
            asyncio.ensure_future(self._answer(cmd, body))

    async def _answer(self, cmd: Command, body: wire.YourTurn) -> None:
        assert self.rules is not None and self.client is not None
        action = await self.bot.choose(view_from_wire(body.view, self.rules), legal_from_wire(body))
        self.client.send(action_to_wire(action), recipient=cmd.sender, re=cmd.seq)

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()


def final_standings(cmd: Command) -> bool:
    return isinstance(cmd.body, wire.TournamentStandings) and cmd.body.final


def holding_round_two(held: asyncio.Event) -> Callable[[ClubPlayer, Command], bool]:
    """A ``hold`` that leaves the player's first turn of round 2 unanswered and sets ``held``:
    that game stays where it is until the server goes away and the player comes back."""

    def hold(player: ClubPlayer, turn: Command) -> bool:
        rounds = [c.body.round for c in player.seen if isinstance(c.body, wire.TournamentTable)]
        if rounds and rounds[-1] == 2 and not held.is_set():
            held.set()
            return True
        return False

    return hold


async def entrants(server: Server, count: int, held: asyncio.Event) -> list[ClubPlayer]:
    """Players p0, p1, … (``count`` of them, connected); p0 holds its first turn of round 2
    (:func:`holding_round_two`)."""
    players = [ClubPlayer(f"p{i}", server, seed=i, hold=holding_round_two(held) if i == 0 else None)
               for i in range(count)]
    for p in players:
        await p.connect()
    return players


async def join_all(players: list[ClubPlayer], tournament: str) -> None:
    """Each player joins ``tournament`` and has the answer."""
    for p in players:
        asked = p.send(wire.TournamentJoin(tournament=tournament))
        await p.until(lambda c: c.re == asked)


async def killed_when_held(held: asyncio.Event, server: Server, proc: subprocess.Popen[str]) -> None:
    """Once a turn is held (``held``), the players' server goes away: ``proc`` is killed (SIGKILL)."""
    await held.wait()
    server.down()
    proc.send_signal(signal.SIGKILL)
    await asyncio.to_thread(proc.wait)


def start(players: list[ClubPlayer], tournament: str) -> list[asyncio.Future[Command]]:
    """The first player starts ``tournament``; each player's final standings, to come."""
    players[0].send(wire.TournamentStart(tournament=tournament))
    return [asyncio.ensure_future(p.until(final_standings)) for p in players]


@asynccontextmanager
async def club_server(seed: int, safety: float) -> AsyncIterator[NetworkEngine]:
    """A started server with tournaments on 127.0.0.1 (port 0) and a fake clock, dealing
    from ``seed``; the body runs within ``safety`` seconds, then the server stops."""
    engine = NetworkEngine("127.0.0.1", 0, seed=seed, clock=FakeClock(), club=ClubOptions())
    await engine.start()
    try:
        async with asyncio.timeout(safety):
            yield engine
    finally:
        await engine.stop()
