"""Malformed-input barrage: many kinds of bad frames from many connections at
once while bot tables play.  The server stays up, every bot game finishes, and every
bad client gets its typed error (fatal ones: and the connection is closed) or, for a
stream it cannot read at all, is closed."""

from __future__ import annotations

import asyncio
import struct
from typing import Any, Awaitable, Callable

import msgpack
import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.protocol import encode, make_command
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine

from wire_client import WireClient

COPIES = 4  # connections per kind of bad input


def _frame(obj: Any) -> bytes:
    payload = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def _env(name: str, body: Any, sender: str, seq: int = 77, **extra: Any) -> dict[str, Any]:
    return {"v": 2, "seq": seq, "sender": sender, "recipient": "lobby", "re": None, "name": name, "body": body,
            **extra}


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


# Each attack: (name, send it, what must come back).  ``me`` is the welcomed party.
Attack = Callable[[WireClient, str], Awaitable[None]]
Expect = tuple[str, bool]  # (error code, fatal) or ("closed", True)

ATTACKS: dict[str, tuple[Callable[[str], bytes], Expect]] = {
    "garbage": (lambda me: struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1", ("malformed_frame", False)),
    "empty_payload": (lambda me: struct.pack(">I", 0), ("malformed_frame", False)),
    "oversize_prefix": (lambda me: struct.pack(">I", 2**31), ("frame_too_large", True)),
    "non_map": (lambda me: _frame([1, 2, 3]), ("malformed_frame", False)),
    "bin_type": (lambda me: _frame({"v": 2, "name": b"ping"}), ("malformed_frame", False)),
    "two_values": (lambda me: struct.pack(">I", 2) + b"\x01\x02", ("malformed_frame", False)),
    "bad_version": (lambda me: _frame(_env("ping", {"nonce": 1}, me) | {"v": 9}), ("bad_version", False)),
    "unknown_name": (lambda me: _frame(_env("launch_missiles", {}, me)), ("unknown_command", False)),
    "extra_envelope": (lambda me: _frame(_env("ping", {"nonce": 1}, me, admin=True)), ("bad_envelope", False)),
    "extra_body": (lambda me: _frame(_env("ping", {"nonce": 1, "x": 2}, me)), ("bad_body", False)),
    "wrong_type": (lambda me: _frame(_env("ping", {"nonce": "1"}, me)), ("bad_body", False)),
    "seq_string": (lambda me: _frame(_env("ping", {}, me, seq="7")), ("bad_envelope", False)),
    "forged_sender": (lambda me: _frame(_env("list_tables", {}, "player:someone_else")), ("forged_sender", False)),
    "forged_table": (lambda me: _frame(_env("list_tables", {}, "table:1")), ("forged_sender", False)),
    "wrong_way": (lambda me: _frame(_env("pong", {"nonce": 1}, me) | {"name": "played", "body": {
        "event": 1, "seat": 0, "card": "7d", "captured": [], "scopa": False, "table": []}}), ("unexpected_command", False)),
    "second_hello": (lambda me: _frame(_env("hello", {"name": "again"}, me)), ("unexpected_command", False)),
    "huge_string": (lambda me: _frame(_env("chat", {"text": "x" * 60_000}, me)), ("bad_body", False)),
    "huge_name": (lambda me: _frame(_env("join_table", {"table": "9" * 60_000}, me)), ("bad_body", False)),
    "deep_nesting": (lambda me: _frame(_env("chat", {"text": _nested(60)}, me)), ("bad_body", False)),
    # 60 000 nested one-element arrays (built by hand: msgpack will not pack them).
    "very_deep": (lambda me: struct.pack(">I", 60_001) + b"\x91" * 60_000 + b"\x01", ("malformed_frame", False)),
    "play_nowhere": (lambda me: _frame(_env("play", {"card": "7d", "capture": []}, me) | {"recipient": "table:999"}),
                     ("not_at_table", False)),
    "bad_card": (lambda me: _frame(_env("play", {"card": "11x", "capture": []}, me)), ("bad_body", False)),
    "truncated": (lambda me: struct.pack(">I", 100) + b"\x87\xa1v", ("closed", True)),
}


async def _attack(port: int, kind: str, i: int) -> None:
    """One bad client: say hello, send the bad input, check the answer."""
    build, (code, fatal) = ATTACKS[kind]
    c = await WireClient.connect(port, f"{kind[:16]}{i}")
    me = c.party
    c.send_raw(build(me))
    if kind == "truncated":
        c.writer.write_eof()  # the stream ends inside the frame
    if code == "closed":
        with pytest.raises(ConnectionError):
            while True:
                await c.recv()
        return
    err = await c.recv_until("error")
    assert (err.body.code, err.body.fatal) == (code, fatal), (kind, err.body)
    if fatal:
        with pytest.raises(ConnectionError):
            while True:
                await c.recv()
        return
    # A non-fatal error leaves the connection usable.
    seq = c.send(wire.Ping(nonce=i))
    pong = await c.recv_until("pong")
    assert pong.re == seq and pong.body.nonce == i, kind
    await c.close()


async def _guest_attack(port: int, i: int) -> None:
    """Before hello: anything but hello/ping/bye is not_hello_yet; a forged guest too."""
    c = await WireClient.connect(port)
    c.send_forged(wire.ListTables(), sender="guest", recipient="lobby")
    assert (await c.recv_until("error")).body.code == "not_hello_yet"
    c.send_forged(wire.ListTables(), sender=f"player:x{i}", recipient="lobby")
    assert (await c.recv_until("error")).body.code == "forged_sender"
    await c.close()


async def _out_of_turn(port: int, i: int) -> None:
    """Two barrage clients at one table: the one not to move plays (not_your_turn), the
    one to move plays a card it does not hold (card_not_in_hand), then both leave."""
    a = await WireClient.connect(port, f"ootA{i}")
    b = await WireClient.connect(port, f"ootB{i}")
    table = await a.create()
    await b.join(table)
    here = f"table:{table}"
    start = await a.recv_until("round_start")
    first = (start.body.dealer + 1) % 2  # the seat after the dealer moves first
    mover, waiter = (a, b) if a.seat == first else (b, a)
    turn = (await mover.recv_until("your_turn")).body
    seq = waiter.send(wire.PlayCard(card=turn.legal[0].card, capture=[]), recipient=here)
    err = await waiter.recv_until("error")
    assert err.re == seq and err.body.code == "not_your_turn"
    foreign = next(c for c in ("Ad", "2d", "3d", "4d", "5d") if c not in turn.view.hand and c not in turn.view.table)
    seq = mover.send(wire.PlayCard(card=foreign, capture=[]), recipient=here)
    err = await mover.recv_until("error")
    assert err.re == seq and err.body.code == "card_not_in_hand"
    again = await mover.recv_until("your_turn")
    assert again.body.event == turn.event
    mover.send(wire.LeaveTable(table=table))
    assert (await mover.recv_until("left")).body.reason == "left"
    assert (await waiter.recv_until("seat_replaced")).body.seat == mover.seat  # a bot plays on for the mover
    await a.close()
    await b.close()


async def _bot_table(port: int, i: int, players: int) -> str:
    c = await WireClient.connect(port, f"player{i}")
    await c.create(bots=["greedy", "random", "greedy", "random", "greedy"][: players - 1], players=players)
    events = await c.play_game(GreedyBot() if i % 2 else RandomBot(seed=i))
    await c.close()
    return events[-1].body.reason


async def test_barrage_of_bad_frames_while_bot_tables_play() -> None:
    limits = Limits(max_connections_per_address=None, frame_timeout=2.0)
    server = NetworkEngine("127.0.0.1", 0, seed=7, limits=limits)
    await server.start()
    try:
        games = [asyncio.create_task(_bot_table(server.port, i, p)) for i, p in enumerate([2, 2, 3, 4, 4, 6])]
        attacks = [_attack(server.port, kind, i) for kind in ATTACKS for i in range(COPIES)]
        attacks += [_guest_attack(server.port, i) for i in range(COPIES)]
        attacks += [_out_of_turn(server.port, i) for i in range(COPIES)]
        results = await asyncio.gather(*attacks, return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        assert not failed, failed[:3]
        assert await asyncio.gather(*games) == ["target"] * 6  # every bot game finished
        # The server is still up and answers a newcomer; every barrage connection is gone.
        late = await WireClient.connect(server.port, "late")
        seq = late.send(wire.ListTables())
        assert (await late.recv_until("tables")).re == seq
        await late.close()
        assert len(server.tables) >= 6
    finally:
        await server.stop()


def test_every_attack_frame_is_what_it_claims() -> None:
    # The attacks that should pass the framing do (a sanity check on the test itself).
    for kind, (build, _) in ATTACKS.items():
        data = build("player:x")
        if kind not in ("oversize_prefix", "truncated"):
            assert struct.unpack(">I", data[:4])[0] == len(data) - 4, kind
    ok = encode(make_command(wire.Ping(nonce=1), seq=77, sender="player:x", recipient="lobby"))
    assert ok[4:] == msgpack.packb(_env("ping", {"nonce": 1}, "player:x"), use_bin_type=True)
