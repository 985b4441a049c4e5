"""ClientSession against the real server (scopa.server) on 127.0.0.1, port 0."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Sequence

import pytest
from rich.console import Console

from scopa.client import Bot, ClientSession, ConnectionLost, GreedyBot, RandomBot, ServerRefused
from scopa.client.console import TerminalPlayer
from scopa.engine import (
    Declare,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    IllegalMoveError,
    Play,
    Played,
    RoundEnded,
    RoundStarted,
    RuleSet,
    View,
)
from scopa.protocol import Message, Connection, ConnectionRole, ErrorCode, Hello, Ping, Pong, Tables, Welcome


SAFETY = 60  # seconds: a safety net only, games take well under a second




class Recorder(RandomBot):
    """A random bot that keeps what it was told and asked."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.events: list[Event] = []
        self.turns = 0

    async def notify(self, event: Event) -> None:
        self.events.append(event)

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.turns += 1
        assert view.my_turn and set(view.hand) >= {a.card for a in legal if isinstance(a, Play)}
        return super().pick(view, legal)


async def test_two_bot_clients_play_a_game_to_the_end(port: int) -> None:
    async with asyncio.timeout(SAFETY):
        a = await ClientSession.connect("127.0.0.1", port, "ada")
        b = await ClientSession.connect("127.0.0.1", port, "bob")
        table = await a.create_table(preset="scopa")
        assert table.seats == ["ada", None] and a.seat == 0
        assert [t.id for t in await b.list_tables()] == [table.id]
        joined = await b.join_table(table.id)
        assert joined.seat == 1
        pa, pb = Recorder(1), Recorder(2)
        ra, rb = await asyncio.gather(a.play_game(pa), b.play_game(pb))
        # the same public events and the same end for both seats
        assert ra.events == rb.events and ra.totals == rb.totals and ra.winner == rb.winner
        assert ra.reason == "target" and ra.winner is not None and max(ra.totals) >= 11
        assert ra.won != rb.won and ra.names == rb.names == ("ada", "bob")
        assert isinstance(ra.events[0], GameStarted) and isinstance(ra.events[1], RoundStarted)
        assert isinstance(ra.events[-1], GameEnded) and isinstance(ra.events[-2], RoundEnded)
        assert ra.events[-2].totals == ra.totals  # type: ignore[union-attr]
        # each seat was asked once per own play, and saw its own hands
        plays = [e for e in ra.events if isinstance(e, Played)]
        assert pa.turns == sum(1 for e in plays if e.seat == 0)
        assert pb.turns == sum(1 for e in plays if e.seat == 1)
        assert any(isinstance(e, HandDealt) and e.seat == 0 for e in pa.events)
        assert all(e.seat == 1 for e in pb.events if isinstance(e, HandDealt))
        assert a.table_id is None and b.table_id is None  # back in the lobby
        # and again, at a new table
        t2 = await b.create_table(RuleSet.build("scopa", target=11))
        await a.join_table(t2.id)
        r2 = await asyncio.gather(a.play_game(GreedyBot()), b.play_game(GreedyBot()))
        assert r2[0].totals == r2[1].totals
        await a.close()
        await b.close()


@pytest.mark.parametrize("preset, bots", [("scopone", ["greedy", "random", "greedy"]), ("cirulla", ["greedy"])])
async def test_a_bot_client_with_server_bots(port: int, preset: str, bots: list[str]) -> None:
    async with asyncio.timeout(SAFETY):
        async with await ClientSession.connect("127.0.0.1", port, "cat") as s:
            table = await s.create_table(preset=preset, fill_with_bots=bots)
            assert table.seats[0] == "cat"
            result = await s.play_game(GreedyBot())
            assert result.winner in (0, 1) and result.rules is not None and result.rules.preset == preset
            assert result.rejected == 0


async def test_a_taken_name_gets_a_number(port: int) -> None:
    async with asyncio.timeout(SAFETY):
        sessions = [await ClientSession.connect("127.0.0.1", port, "dora") for _ in range(3)]
        assert [s.name for s in sessions] == ["dora", "dora2", "dora3"]
        assert [s.party for s in sessions] == ["player:dora", "player:dora2", "player:dora3"]
        for s in sessions:
            await s.close()


async def test_lobby_refusals_are_typed(port: int) -> None:
    async with asyncio.timeout(SAFETY):
        async with await ClientSession.connect("127.0.0.1", port, "eve") as s:
            with pytest.raises(ServerRefused) as info:
                await s.join_table("nope")
            assert info.value.code is ErrorCode.NO_SUCH_TABLE
            with pytest.raises(ServerRefused) as info:
                await s.create_table(preset="scopa", options={"players": 6, "teams": False})
            assert info.value.code is ErrorCode.BAD_RULES
            with pytest.raises(ServerRefused) as info:
                await s.create_table(fill_with_bots=["nobody"])
            assert info.value.code is ErrorCode.UNKNOWN_BOT
            with pytest.raises(ValueError):
                await s.create_table(preset="no-such-preset")
            await s.create_table()
            with pytest.raises(ServerRefused) as info:
                await s.create_table()
            assert info.value.code is ErrorCode.ALREADY_AT_TABLE
            left = await s.leave_table()
            assert left is not None and s.table_id is None
            assert await s.list_tables() is not None  # the connection still works


class Clumsy(Bot):
    """First tries a card it does not hold, then a capture the rules forbid, then plays."""

    def __init__(self) -> None:
        super().__init__("clumsy")
        self.errors: list[IllegalMoveError] = []
        self.tries = 0

    def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.tries += 1
        if self.tries % 3 == 1:
            missing = next(c for c in range(40) if c not in view.hand)
            return Play(missing, 0)
        if self.tries % 3 == 2:
            play = next(a for a in legal if isinstance(a, Play))
            return Play(play.card, (1 << 40) - 1 & ~(1 << play.card))  # "take everything"
        self.tries = 0
        return legal[0]

    async def rejected(self, error: IllegalMoveError) -> None:
        self.errors.append(error)


async def test_refused_moves_reach_player_rejected_and_the_game_goes_on(port: int) -> None:
    async with asyncio.timeout(SAFETY):
        async with await ClientSession.connect("127.0.0.1", port, "fay") as s:
            await s.create_table(preset="scopa", fill_with_bots=["random"])
            bot = Clumsy()
            result = await s.play_game(bot)
            assert result.reason == "target" and result.rejected == len(bot.errors) > 0
            codes = {e.code for e in bot.errors}
            assert codes <= {"card_not_in_hand", "illegal_capture", "illegal_move"} and "card_not_in_hand" in codes


async def test_a_terminal_player_over_tcp_with_bad_input(port: int) -> None:
    answers = iter(["xyz", "99", ""])
    prompts: list[str] = []

    def typist(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers, "1")

    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    async with asyncio.timeout(SAFETY):
        async with await ClientSession.connect("127.0.0.1", port, "gil") as s:
            await s.create_table(preset="scopa", fill_with_bots=["greedy"])
            result = await s.play_game(TerminalPlayer("gil", console, input_fn=typist))
    text = out.getvalue()
    assert "there is no move 99" in text and "'xyz' is not a card" in text and "you hold" in text and "type a move number" in text
    assert "Game over" in text and "Round points" in text and "Your hand" in text
    assert result.reason == "target" and prompts and set(prompts) == {"Your move: "}


# --- a scripted fake server: pings, a dropped connection ---------------------------------


async def _fake_server(script) -> tuple[asyncio.Server, int]:  # type: ignore[no-untyped-def]
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(ConnectionRole.SERVER)

        async def receive():  # type: ignore[no-untyped-def]
            while (command := conn.next_command()) is None:
                data = await reader.read(4096)
                if not data:
                    raise ConnectionError("client went away")
                conn.feed(data)
            return command

        def send(body, recipient, re=None):  # type: ignore[no-untyped-def]
            writer.write(conn.send(Message(body, recipient=recipient, re=re)))

        try:
            await script(receive, send)
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def test_pings_are_answered_and_a_dropped_connection_is_connection_lost() -> None:
    seen: list[object] = []

    async def script(receive, send) -> None:  # type: ignore[no-untyped-def]
        hello = await receive()
        assert isinstance(hello.body, Hello)
        send(Welcome(you="player:hal", server="fake", protocol=2), "player:hal", re=hello.seq)
        send(Ping(nonce=77), "player:hal")
        pong = await receive()
        seen.append(pong)
        # then the server dies without a word

    server, fake_port = await _fake_server(script)
    async with server, asyncio.timeout(SAFETY):
        s = await ClientSession.connect("127.0.0.1", fake_port, "hal")
        s.reconnect_for = 0  # not reconnecting: a lobby call on a dropped connection fails
        with pytest.raises(ConnectionLost):
            await s.list_tables()
        await s.close()
    assert isinstance(seen[0].body, Pong) and seen[0].body.nonce == 77 and seen[0].re == 2  # type: ignore[attr-defined]


async def test_server_shutdown_mid_game_is_connection_lost() -> None:
    from scopa.server import NetworkEngine

    engine = NetworkEngine(host="127.0.0.1", port=0)
    await engine.start()
    started = asyncio.Event()

    class Stalling(Bot):
        def pick(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
            raise AssertionError("not used")

        async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
            started.set()
            await asyncio.Event().wait()  # think for ever
            raise AssertionError

    async with asyncio.timeout(SAFETY):
        s = await ClientSession.connect("127.0.0.1", engine.port, "ian")
        s.reconnect_for = 0.3  # tries to get back, then gives up: the server is gone
        await s.create_table(fill_with_bots=["random"])
        game = asyncio.create_task(s.play_game(Stalling()))
        await started.wait()
        await engine.stop()
        with pytest.raises(ConnectionLost):
            await game  # the player still thinking is interrupted
        with pytest.raises(ConnectionLost):
            await s.list_tables()
        await s.close()


async def test_connecting_to_nothing_is_connection_lost() -> None:
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    free_port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    with pytest.raises(ConnectionLost, match="cannot connect"):
        await ClientSession.connect("127.0.0.1", free_port, "joe")


async def test_cirulla_declarations_are_numbered_moves_for_a_person(port: int) -> None:
    offered: list[int] = []

    class Watching(TerminalPlayer):
        async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
            offered.append(sum(isinstance(a, Declare) for a in legal))
            return await super().choose(view, legal)

    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    async with asyncio.timeout(SAFETY):
        async with await ClientSession.connect("127.0.0.1", port, "kim") as s:
            await s.create_table(preset="cirulla", fill_with_bots=["greedy"])
            result = await s.play_game(Watching("kim", console, input_fn=lambda prompt: "1"))
    assert result.winner is not None and result.rejected == 0
    if any(offered):  # a declaration is listed first, as move 1, and typing 1 makes it
        assert re.search(r" 1\.\s+declare", out.getvalue()) and "You declared" in out.getvalue()


async def test_several_addresses_are_tried_in_turn_and_a_bad_one_is_refused() -> None:
    """``--server HOST:PORT,HOST:PORT``: the first address that takes a connection serves."""
    import socket

    from scopa.client.net import parse_servers
    from scopa.server import NetworkEngine

    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        gone = int(closed.getsockname()[1])
    engine = NetworkEngine("127.0.0.1", 0, seed=1)
    await engine.start()
    try:
        [first, *others] = parse_servers(f"127.0.0.1:{gone}, 127.0.0.1:{engine.port}")
        s = await ClientSession.connect(first.host, first.port, "ann", others=others)
        assert (s.host, s.port) == ("127.0.0.1", engine.port) and s.name == "ann"
        await s.close()
        with pytest.raises(ConnectionLost, match=f"127.0.0.1:{gone}"):
            await ClientSession.connect("127.0.0.1", gone, "ann")
    finally:
        await engine.stop()
    for bad in ("", " , ", "host:port", "a:1,b:99999"):
        with pytest.raises(ValueError):
            parse_servers(bad)


async def test_two_calls_at_once_each_get_their_own_reply() -> None:
    """Two lobby calls waiting together (a reconnect's re-subscription beside another
    call): the server answers the second first; each call still gets the reply to its
    own request (``re``), never the other's."""
    async def script(receive, send) -> None:  # type: ignore[no-untyped-def]
        hello = await receive()
        send(Welcome(you="player:hal", server="fake", protocol=2), "player:hal", re=hello.seq)
        first, second = await receive(), await receive()
        send(Tables(tables=[], total=2), "player:hal", re=second.seq)
        send(Tables(tables=[], total=1), "player:hal", re=first.seq)
        await receive()  # until the client goes

    server, fake_port = await _fake_server(script)
    async with server, asyncio.timeout(SAFETY):
        s = await ClientSession.connect("127.0.0.1", fake_port, "hal")
        s.reconnect_for = 0
        one, two = await asyncio.gather(s.tables_page(), s.tables_page())
        assert (one.total, two.total) == (1, 2)
        await s.close()
