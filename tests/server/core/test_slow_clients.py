"""Slow and silent clients: each is dropped by its own limit while
everyone else plays on.

The deadlines and the token bucket run on a fake clock that a test moves itself, so no
test waits for real time; nothing here sleeps to win a race: a test waits for the frame
or the closed connection the limit produces.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from collections.abc import Callable

import pytest

from scopa.bots import RandomBot
from scopa.protocol import Message, Connection, ConnectionRole, encode, make_command
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock
from scopa.server.core.limits import RateLimiter

from wire_client import TIMEOUT, WireClient


async def _server(limits: Limits, clock: FakeClock | None = None):
    engine = NetworkEngine("127.0.0.1", 0, seed=6, limits=limits, clock=clock)
    await engine.start()
    return engine


async def until_closed(client: WireClient) -> list[wire.Body]:
    """Everything the server still sends, until it closes the connection."""
    bodies: list[wire.Body] = []
    with pytest.raises(ConnectionError):
        while True:
            bodies.append((await client.recv()).body)
    return bodies


def _fatal(bodies: list[wire.Body]) -> wire.Error:
    errors = [b for b in bodies if isinstance(b, wire.Error) and b.fatal]
    assert errors, bodies
    return errors[-1]


async def _bot_game(port: int, name: str, seed: int) -> str:
    """One client plays a whole 2-player game against a server bot; its end reason."""
    c = await WireClient.connect(port, name)
    await c.create(bots=["greedy"])
    events = await c.play_game(RandomBot(seed=seed))
    await c.close()
    return events[-1].body.reason


# --------------------------------------------------------------------------- the limits value


def test_limits_are_validated_and_frozen() -> None:
    limits = Limits()
    with pytest.raises(AttributeError):
        limits.hello_timeout = 1  # type: ignore[misc]
    with pytest.raises(ValueError):
        Limits(frame_timeout=0)
    with pytest.raises(ValueError):
        Limits(max_queued_frames=0)


def test_token_bucket_refills_with_the_clock_and_counts_refusals() -> None:
    clock = FakeClock()
    rate = RateLimiter(Limits(commands_per_second=2, command_burst=3, max_refused_commands=4,
                              refused_window=2.0), clock)
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    clock.advance(0.5)  # one token back
    assert [rate.allow() for _ in range(2)] == [True, False]
    assert not rate.flooding
    clock.advance(9.5)  # a long pause: the bucket is full again and refusals leaked away
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    assert rate.refused == 1.0
    for _ in range(4):
        rate.allow()
    assert rate.flooding  # five refusals with no time passing: more than four


# --------------------------------------------------------------------------- deadlines


async def _until(condition: Callable[[], bool]) -> None:
    """Let the loop run (sockets included) until ``condition`` holds."""
    while not condition():
        await asyncio.sleep(0)


async def test_no_hello_in_time_is_fatal_not_hello_yet() -> None:
    clock = FakeClock()
    server = await _server(Limits(hello_timeout=10.0, ping_interval=None), clock)
    try:
        silent = await WireClient.connect(server.port)
        ok = await WireClient.connect(server.port, "prompt")  # says hello at once
        await _until(lambda: clock.sleeping == 1)  # the silent one's hello deadline, armed
        clock.advance(9.9)
        ok.send(wire.Ping(nonce=1))
        assert (await ok.recv_until("pong")).body.nonce == 1
        clock.advance(0.1)
        err = _fatal(await until_closed(silent))
        assert err.code == "not_hello_yet" and "hello" in err.message
        # A client that said hello in time is not affected, even long after.
        clock.advance(3600.0)
        ok.send(wire.Ping(nonce=2))
        assert (await ok.recv_until("pong")).body.nonce == 2
        await ok.close()
    finally:
        await server.stop()


async def test_frames_cut_across_the_reads_of_many_connections_arrive_whole() -> None:
    """Every connection of the server reads into its event loop's one buffer: the start
    of a frame one connection holds stays its own whatever the others read meanwhile."""
    server = await _server(Limits(ping_interval=None))
    try:
        names = ["ada", "bea", "cy"]
        clients = [await WireClient.connect(server.port) for _ in names]
        frames = [c.proto.send(c.proto.command(wire.Hello(name=n), recipient="lobby")) for c, n in zip(clients, names)]
        for client, frame in zip(clients, frames):
            client.send_raw(frame[:7])
        await _until(lambda: len(server.sessions) == 3 and all(s.proto.buffered == 7 for s in server.sessions.values()))
        for client, frame in zip(reversed(clients), reversed(frames)):
            client.send_raw(frame[7:])
        for client, name in zip(clients, names):
            reply = await client.recv()
            assert isinstance(reply.body, wire.Welcome) and reply.body.you == f"player:{name}"
            await client.close()
    finally:
        await server.stop()


async def test_a_client_trickling_bytes_is_dropped_by_the_frame_deadline() -> None:
    clock = FakeClock()
    server = await _server(Limits(frame_timeout=3.0, ping_interval=None), clock)
    try:
        other = asyncio.create_task(_bot_game(server.port, "steady", 1))
        slow = await WireClient.connect(server.port, "trickle")
        cmd = make_command(wire.Chat(text="x" * 400), seq=50, sender="player:trickle", recipient="lobby")
        frame = encode(cmd)
        slow.send_raw(frame[:1])
        await _until(lambda: clock.sleeping >= 1 and clock.next_deadline == 3.0)  # from the first byte
        sent = 1
        for byte in frame[1:12]:  # a byte every quarter second: the frame is not finished in 3 s
            slow.send_raw(bytes([byte]))
            sent += 1
            clock.advance(0.25)
        assert clock.now() == 2.75 and not slow.reader.at_eof()
        clock.advance(0.25)
        err = _fatal(await until_closed(slow))
        assert err.code == "timeout" and "frame" in err.message
        assert sent < len(frame)
        assert await other == "target"  # the other client's game played on to its end
        # A prefix alone (two of its four bytes) is also a frame begun and not finished.
        half = await WireClient.connect(server.port, "half")
        half.send_raw(b"\x00\x00")
        await _until(lambda: clock.next_deadline == clock.now() + 3.0)
        clock.advance(3.0)
        assert _fatal(await until_closed(half)).code == "timeout"
    finally:
        await server.stop()


async def test_an_idle_client_is_pinged_and_closed_if_it_does_not_answer() -> None:
    clock = FakeClock()
    server = await _server(Limits(ping_interval=5.0, ping_timeout=10.0), clock)
    try:
        polite = await WireClient.connect(server.port, "polite")
        mute = await WireClient.connect(server.port, "mute")
        await _until(lambda: clock.sleeping == 2 and clock.next_deadline == 5.0)  # both ping deadlines
        for n in range(4):  # four pings in a row, answered: well past the deadlines
            clock.advance(5.0)  # five seconds of silence: pinged
            ping = await polite.recv_until("ping")
            polite.send(wire.Pong(nonce=ping.body.nonce), re=ping.seq)
            # A round trip after the pong: the server has taken it and set its next deadline.
            polite.send(wire.Ping(nonce=n))
            assert (await polite.recv_until("pong")).body.nonce == n
        assert (await mute.recv()).name == "ping"  # the server asked after 5 s of silence ...
        err = _fatal(await until_closed(mute))  # ... and closed 10 s after that
        assert err.code == "timeout" and "ping" in err.message
        seq = polite.send(wire.ListTables())
        assert (await polite.recv_until("tables")).re == seq
        await polite.close()
    finally:
        await server.stop()


# --------------------------------------------------------------------------- connection caps


async def _connect_from(port: int, source: str) -> WireClient:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    return WireClient(reader, writer)


async def test_connection_caps_overall_and_per_address_refuse_with_a_fatal_error() -> None:
    server = await _server(Limits(max_connections=3, max_connections_per_address=2))
    try:
        a1 = await _connect_from(server.port, "127.0.0.1")
        a2 = await _connect_from(server.port, "127.0.0.1")
        assert (await a1.hello("a1")).name == "welcome" and (await a2.hello("a2")).name == "welcome"
        a3 = await _connect_from(server.port, "127.0.0.1")  # a third from one address
        err = _fatal(await until_closed(a3))
        assert err.code == "rate_limited" and "your address" in err.message
        b1 = await _connect_from(server.port, "127.0.0.2")  # another address: still room overall
        assert (await b1.hello("b1")).name == "welcome"
        b2 = await _connect_from(server.port, "127.0.0.2")  # the fourth overall
        err = _fatal(await until_closed(b2))
        assert err.code == "rate_limited" and "maximum of 3" in err.message
        # A connection that ends frees its place: bye, the server closes, and there is room.
        a1.send(wire.Bye(reason="done"))
        await until_closed(a1)
        a4 = await _connect_from(server.port, "127.0.0.1")
        assert (await a4.hello("a4")).name == "welcome"
        for c in (a2, b1, a4):
            await c.close()
    finally:
        await server.stop()


# --------------------------------------------------------------------------- command flood


async def test_a_flooding_client_is_rate_limited_then_dropped_while_others_play() -> None:
    clock = FakeClock()  # frozen: no token ever comes back, so the counts below are exact
    server = await _server(Limits(command_burst=300, commands_per_second=1.0, max_refused_commands=20), clock)
    try:
        other = asyncio.create_task(_bot_game(server.port, "steady", 2))
        flood = await WireClient.connect(server.port, "flood")  # the hello took one token
        for nonce in range(299):
            flood.send(wire.Ping(nonce=nonce))
        for nonce in range(299):
            assert (await flood.recv_until("pong")).body.nonce == nonce
        seqs = [flood.send(wire.Ping(nonce=1000 + i)) for i in range(40)]
        bodies = await until_closed(flood)
        errors = [b for b in bodies if isinstance(b, wire.Error)]
        assert not [b for b in bodies if isinstance(b, wire.Pong)]  # none of these ran
        assert all(e.code == "rate_limited" for e in errors)
        assert [e.fatal for e in errors] == [False] * 20 + [True]  # the 21st refusal ends it
        assert [c.re for c in flood.inbox if c.name == "error"][-21:] == seqs[:21]
        assert await other == "target"
    finally:
        await server.stop()


# --------------------------------------------------------------------------- a client that never reads


async def _silent_socket(port: int, rcvbuf: int = 4096) -> socket.socket:
    """A connected socket nobody reads from (no asyncio reader to buffer on its behalf)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def test_a_client_that_never_reads_is_dropped_and_its_tablemates_do_not_stall() -> None:
    limits = Limits(max_queued_frames=16, socket_send_buffer=4096, commands_per_second=None)
    batch = 5  # chats sent before reading their echoes: fewer than the queue holds
    server = await _server(limits)
    loop = asyncio.get_running_loop()
    try:
        other = asyncio.create_task(_bot_game(server.port, "steady", 3))
        host = await WireClient.connect(server.port, "host")
        table = await host.create(players=3)
        sock = await _silent_socket(server.port)
        silent = Connection(ConnectionRole.CLIENT)
        await loop.sock_sendall(sock, silent.send(Message(wire.Hello(name="silent"), recipient="lobby")))
        join = make_command(wire.JoinTable(table=table), seq=2, sender="player:silent", recipient="lobby")
        await loop.sock_sendall(sock, encode(join))
        while (await host.recv_until("table_update")).body.table.seats != ["host", "silent", None]:
            pass
        session = server.names["silent"]
        # The host chats at the table: every chat_message goes to the silent seat too.
        chats = 0
        seats: list[str | None] = []
        away: list[int] = []
        while not away:
            assert chats < 20_000, "the silent client was never dropped"
            for _ in range(batch):
                host.send(wire.Chat(text=f"{chats:05d} " + "x" * 490), recipient=f"table:{table}")
                chats += 1
            echoed = 0
            while echoed < batch:  # the host itself never waits: its own echoes keep coming
                cmd = await host.recv()
                if cmd.name == "chat_message":
                    echoed += 1
                elif cmd.name == "table_update":
                    seats, away = cmd.body.table.seats, cmd.body.table.away
        # Dropped: like any dropped seat its seat is kept for it (away) for the grace period.
        assert seats == ["host", "silent", None] and away == [1]
        assert session.dropped and "silent" not in server.names
        # The silent client got at most what the buffers hold: a small part of the stream.
        assert chats > limits.max_queued_frames
        # Everyone else plays on: the host's lobby answers, the other table finished.
        seq = host.send(wire.ListTables())
        assert (await host.recv_until("tables")).re == seq
        assert await asyncio.wait_for(other, TIMEOUT) == "target"
        sock.close()
        await host.close()
    finally:
        await server.stop()


def test_frame_prefix_helper_sanity() -> None:
    # The trickle test relies on a frame being prefix + payload.
    frame = encode(make_command(wire.Ping(nonce=1), seq=1, sender="guest", recipient="lobby"))
    assert struct.unpack(">I", frame[:4])[0] == len(frame) - 4
