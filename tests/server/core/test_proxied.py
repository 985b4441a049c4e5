"""Front ends the server trusts (a web host in front of the server): their connections say whom they are for
and are capped per identity, not per address; ``proxied_for`` from anyone else is
ignored (server/core/proxies.py, PROTOCOL.md §7, "Front ends")."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from scopa.client.net import ClientSession
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.core.proxies import ProxiedClients, parse_networks

from test_slow_clients import until_closed
from wire_client import WireClient


async def _server(trusted: list[str], per_address: int = 2) -> NetworkEngine:
    engine = NetworkEngine("127.0.0.1", 0, seed=3, limits=Limits(max_connections=20,
                           max_connections_per_address=per_address), trusted_proxies=trusted)
    await engine.start()
    return engine


async def _connect_from(port: int, source: str) -> WireClient:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    return WireClient(reader, writer)


async def _hello(client: WireClient, name: str, identity: str | None) -> wire.Body:
    client.send(wire.Hello(name=name, proxied_for=identity))
    return (await client.recv()).body


async def test_a_trusted_front_end_is_capped_per_identity_not_per_address() -> None:
    server = await _server(["127.0.0.2"], per_address=2)
    try:
        # Five browsers behind one front end: more than the per-address cap of two.
        front = [await _connect_from(server.port, "127.0.0.2") for _ in range(5)]
        for i, client in enumerate(front):
            assert isinstance(await _hello(client, f"phone{i}", f"browser-{i:04d}"), wire.Welcome)
        # One identity gets the cap: a second connection is fine, a third is refused.
        again = await _connect_from(server.port, "127.0.0.2")
        assert isinstance(await _hello(again, "phone0b", "browser-0000"), wire.Welcome)
        third = await _connect_from(server.port, "127.0.0.2")
        err = await _hello(third, "phone0c", "browser-0000")
        assert isinstance(err, wire.Error) and err.code == "rate_limited" and err.fatal
        await until_closed(third)
        assert server.proxied.open_for("127.0.0.2", "browser-0000") == 2
        # A connection that ends frees its place for that identity.
        again.send(wire.Bye(reason="done"))
        await until_closed(again)
        retry = await _connect_from(server.port, "127.0.0.2")
        assert isinstance(await _hello(retry, "phone0d", "browser-0000"), wire.Welcome)
        for c in (*front, retry):
            await c.close()
    finally:
        await server.stop()


async def test_proxied_for_from_an_untrusted_address_is_ignored() -> None:
    server = await _server(["127.0.0.2"], per_address=2)
    try:
        a = await _connect_from(server.port, "127.0.0.3")
        b = await _connect_from(server.port, "127.0.0.3")
        assert isinstance(await _hello(a, "a", "claims-to-be-one"), wire.Welcome)
        assert isinstance(await _hello(b, "b", "claims-to-be-two"), wire.Welcome)
        assert server.proxied.open_for("127.0.0.3", "claims-to-be-one") == 0
        c = await _connect_from(server.port, "127.0.0.3")  # still counted by address: refused at once
        err = next(b for b in await until_closed(c) if isinstance(b, wire.Error))
        assert err.code == "rate_limited" and "your address" in err.message
        await a.close()
        await b.close()
    finally:
        await server.stop()


async def test_the_client_session_says_whom_it_is_for_also_when_it_resumes_a_seat() -> None:
    server = await _server(["127.0.0.1"], per_address=2)
    try:
        first = await ClientSession.connect("127.0.0.1", server.port, "ana", proxied_for="browser-ana1")
        await first.create_table(preset="scopa", fill_with_bots=["greedy"])
        token = first.token
        assert token is not None and server.proxied.open_for("127.0.0.1", "browser-ana1") == 1
        extra = await WireClient.connect(server.port)
        assert isinstance(await _hello(extra, "ana-b", "browser-ana1"), wire.Welcome)
        # The same identity over its cap of two is refused, whatever the name.
        over = await WireClient.connect(server.port)
        err = await _hello(over, "ana-c", "browser-ana1")
        assert isinstance(err, wire.Error) and err.code == "rate_limited" and "2 connections for you" in err.message
        await until_closed(over)
        extra.send(wire.Bye(reason="done"))
        await until_closed(extra)  # closed by the server once it has forgotten the connection
        assert server.proxied.open_for("127.0.0.1", "browser-ana1") == 1
        await first.close()
        back = await ClientSession.resume_seat("127.0.0.1", server.port, "ana", token, proxied_for="browser-ana1")
        assert back.table_id is not None and server.proxied.identity_of(max(server.sessions)) == "browser-ana1"
        await back.close()
    finally:
        await server.stop()


async def test_a_trusted_front_end_without_proxied_for_is_capped_as_any_client() -> None:
    server = await _server(["127.0.0.2"], per_address=2)
    try:
        plain = [await _connect_from(server.port, "127.0.0.2") for _ in range(2)]
        for i, client in enumerate(plain):
            assert isinstance(await _hello(client, f"plain{i}", None), wire.Welcome)
        over = await _connect_from(server.port, "127.0.0.2")
        err = await _hello(over, "plain2", None)
        assert isinstance(err, wire.Error) and err.code == "rate_limited" and err.fatal
        assert "2 connections from 127.0.0.2" in err.message
        await until_closed(over)
        # The identities behind the front end keep their own places.
        phone = await _connect_from(server.port, "127.0.0.2")
        assert isinstance(await _hello(phone, "phone", "browser-0001"), wire.Welcome)
        assert server.proxied.identity_of(max(server.sessions)) == "browser-0001"
        for c in (*plain, phone):
            await c.close()
    finally:
        await server.stop()


def test_an_identity_is_8_to_64_letters_digits_dashes_or_underscores() -> None:
    assert wire.Hello(name="a", proxied_for="abcdEFGH_-12").proxied_for == "abcdEFGH_-12"
    for bad in ("short", "x" * 65, "has space", "semi;colon"):
        with pytest.raises(ValidationError):
            wire.Hello(name="a", proxied_for=bad)


def test_trusted_addresses_networks_and_mapped_ipv4() -> None:
    clients = ProxiedClients(["127.0.0.1", "10.1.0.0/16", "::1"], per_identity=1)
    assert clients.trusts("127.0.0.1") and clients.trusts("10.1.200.3") and clients.trusts("::1")
    assert clients.trusts("::ffff:127.0.0.1")
    assert not clients.trusts("127.0.0.2") and not clients.trusts("10.2.0.1") and not clients.trusts("nonsense")
    assert not ProxiedClients().trusts("127.0.0.1")
    assert clients.admit(1, "127.0.0.1", "someone-1") is None
    assert clients.admit(1, "127.0.0.1", "someone-1") is None  # one connection is counted once
    assert "1 connections" in (clients.admit(2, "127.0.0.1", "someone-1") or "")
    assert clients.admit(3, "10.9.9.9", "someone-1") is None and clients.identity_of(3) is None  # not trusted
    clients.release(1)
    assert clients.admit(2, "127.0.0.1", "someone-1") is None and clients.identity_of(2) == "someone-1"
    with pytest.raises(ValueError, match="not an IP address"):
        parse_networks(["localhost"])
