"""Accounts that a stranger cannot lock, crowd or impersonate: wrong passwords limited
per address and per name without locking the owner out, checks started together held
to the limit, claims bounded per address, and look-alike names one name (PROTOCOL.md
§13; real sockets from several loopback source addresses, the server's fake clock)."""

from __future__ import annotations

import asyncio
import pytest

from scopa.protocol import ErrorCode
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

from test_accounts import SECRET, server  # noqa: F401 - the same server (accounts, fake clock)
from wire_client import WireClient

LIMITS = Limits(commands_per_second=None)  # the server fixture's
# The defaults of Limits' password_failures_per_address, password_failures_per_name,
# password_window, name_claims_per_address, name_claims_window (checked last in each test).
PER_ADDRESS, PER_NAME, WINDOW, CLAIMS, CLAIMS_WINDOW = 5, 20, 300.0, 3, 3600.0


async def connect_from(port: int, source: str) -> WireClient:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    return WireClient(reader, writer)


async def hello_from(port: int, source: str, name: str, password: str | None) -> wire.Body:
    c = await connect_from(port, source)
    c.send(wire.Hello(name=name, password=password))
    reply = (await c.recv()).body
    await c.close()
    return reply


async def claim_from(port: int, source: str, name: str) -> wire.Body:
    c = await connect_from(port, source)
    c.send(wire.Hello(name=name))
    welcome = (await c.recv()).body
    assert isinstance(welcome, wire.Welcome), welcome
    c.party = welcome.you
    c.send(wire.ClaimName(password=SECRET))
    reply = (await c.recv_until("name_claimed", "error")).body
    await c.close()
    return reply


def code(body: wire.Body) -> str:
    return body.code.value if isinstance(body, wire.Error) else body.NAME


async def test_a_strangers_wrong_passwords_do_not_lock_the_owner_out(server: NetworkEngine) -> None:
    assert code(await claim_from(server.port, "127.0.0.2", "ada")) == "name_claimed"
    for _ in range(PER_ADDRESS):
        assert code(await hello_from(server.port, "127.0.0.66", "ada", "a wrong guess")) == "bad_password"
    # The stranger's address is refused now, even with the right password ...
    assert code(await hello_from(server.port, "127.0.0.66", "ada", SECRET)) == "rate_limited"
    # ... the owner, from its own address or a new one, is not.
    assert isinstance(await hello_from(server.port, "127.0.0.2", "ada", SECRET), wire.Welcome)
    assert isinstance(await hello_from(server.port, "127.0.0.3", "ada", SECRET), wire.Welcome)
    assert LIMITS.password_failures_per_address == PER_ADDRESS


async def test_guesses_from_many_addresses_at_once_stop_at_the_name_limit(server: NetworkEngine,
                                                                           clock: FakeClock) -> None:
    assert code(await claim_from(server.port, "127.0.0.2", "ada")) == "name_claimed"
    limit = PER_NAME
    guessers = [await connect_from(server.port, f"127.0.1.{i}") for i in range(1, limit + 11)]
    for c in guessers:  # every one at the same moment, from its own address
        c.send(wire.Hello(name="ada", password="a wrong guess"))
    codes = [code((await c.recv()).body) for c in guessers]
    assert codes.count("bad_password") == limit and codes.count("rate_limited") == 10
    await asyncio.gather(*(c.close() for c in guessers))
    # A new address is refused for this name, even with the right password; the
    # owner's own address still gets in; once the guesses age out, anyone with it does.
    assert code(await hello_from(server.port, "127.0.0.9", "ada", SECRET)) == "rate_limited"
    assert isinstance(await hello_from(server.port, "127.0.0.2", "ada", SECRET), wire.Welcome)
    clock.advance(WINDOW)
    assert isinstance(await hello_from(server.port, "127.0.0.9", "ada", SECRET), wire.Welcome)
    assert (LIMITS.password_failures_per_name, LIMITS.password_window) == (PER_NAME, WINDOW)


async def test_claims_are_bounded_per_address(server: NetworkEngine, clock: FakeClock) -> None:
    allowed = CLAIMS
    for i in range(allowed):
        assert code(await claim_from(server.port, "127.0.0.4", f"name{i}x")) == "name_claimed"
    refused = await claim_from(server.port, "127.0.0.4", "onemore")
    assert isinstance(refused, wire.Error) and refused.code is ErrorCode.RATE_LIMITED
    assert code(await claim_from(server.port, "127.0.0.5", "onemore")) == "name_claimed"  # another address
    clock.advance(CLAIMS_WINDOW)
    assert code(await claim_from(server.port, "127.0.0.4", "yetanother")) == "name_claimed"
    assert (LIMITS.name_claims_per_address, LIMITS.name_claims_window) == (CLAIMS, CLAIMS_WINDOW)


async def test_look_alikes_of_a_claimed_name_are_claimed(server: NetworkEngine) -> None:
    assert code(await claim_from(server.port, "127.0.0.2", "bill")) == "name_claimed"
    for look_alike in ("BILL", "biII", "bi1l", "b1ll", "bil.l", "b-i-l-l"):
        refused = await hello_from(server.port, "127.0.0.3", look_alike, None)
        assert isinstance(refused, wire.Error) and refused.code is ErrorCode.NAME_TAKEN, look_alike
        assert "claimed" in refused.message
    welcome = await hello_from(server.port, "127.0.0.3", "b1ll", SECRET)  # the password of the one name
    assert isinstance(welcome, wire.Welcome)


async def test_look_alike_names_are_one_name_online_too() -> None:
    engine = NetworkEngine("127.0.0.1", 0, seed=2, limits=LIMITS)
    await engine.start()
    try:
        bill = await WireClient.connect(engine.port, "bill")
        for look_alike in ("BILL", "biII", "bi1l", "b1ll", "bil.l", "greedy-bot-l", "Random_Bot_0"):
            other = await WireClient.connect(engine.port)
            refused = await other.hello(look_alike)
            assert refused.name == "error" and refused.body.code is ErrorCode.NAME_TAKEN, look_alike
            await other.close()
        await bill.close()
    finally:
        await engine.stop()
