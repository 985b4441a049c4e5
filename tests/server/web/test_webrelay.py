"""What the web front keeps for a browser handed on in a cluster (server/web/relay.py):
the tickets of the redirects it sent (each used once, for its lifetime), and the
identity the relay puts in the browser's ``hello`` (PROTOCOL.md §7, "Front ends")."""

from __future__ import annotations

import msgpack
import pytest

from scopa.protocol import commands as wire
from scopa.server.web.passes import Passes
from scopa.protocol.servers import ServerAddress
from scopa.server.web.relay import identity, split_address, with_identity

pytestmark = pytest.mark.unit


class Now:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def redirect(ticket: str, address: str = "10.0.0.2:7777") -> wire.Redirect:
    return wire.Redirect(table="7", address=address, ticket=ticket)


def test_a_noted_ticket_gives_its_address_once_and_only_for_its_lifetime() -> None:
    now = Now()
    passes = Passes(now, ttl=30.0)
    passes.note(redirect("ticket-one-1234"))
    passes.note(redirect("ticket-two-1234", "10.0.0.3:7777"))
    assert passes.take("ticket-one-1234") == "10.0.0.2:7777"
    assert passes.take("ticket-one-1234") is None  # once
    assert passes.take("never-sent-1234") is None
    now.t += 30.0
    assert passes.take("ticket-two-1234") is None  # out of date


def test_the_oldest_tickets_go_first_beyond_the_cap() -> None:
    passes = Passes(Now(), cap=2)
    for n in range(3):
        passes.note(redirect(f"ticket-{n}-12345"))
    assert passes.take("ticket-0-12345") is None
    assert passes.take("ticket-1-12345") == passes.take("ticket-2-12345") == "10.0.0.2:7777"


def test_the_relayed_hello_carries_the_browsers_identity_whatever_it_said() -> None:
    hello = {"v": 2, "seq": 1, "sender": "guest", "recipient": "lobby", "re": None, "name": "hello",
             "body": {"name": "ada", "ticket": "tkt-Qz7sL2xV9aB4", "proxied_for": "someone-else-1234"}}
    out = msgpack.unpackb(with_identity(msgpack.packb(hello), identity("10.1.2.3")))
    assert out["body"] == {"name": "ada", "ticket": "tkt-Qz7sL2xV9aB4", "proxied_for": identity("10.1.2.3")}
    assert identity("10.1.2.3") != identity("10.1.2.4")
    assert wire.Hello(name="ada", proxied_for=identity("10.1.2.3")).proxied_for  # a valid one
    other = msgpack.packb(hello | {"name": "chat"})
    assert with_identity(other, "x" * 16) == other
    assert with_identity(b"\xc1 not msgpack", "x" * 16) == b"\xc1 not msgpack"


def test_addresses_are_host_and_port() -> None:
    assert split_address("10.0.0.2:7777") == ServerAddress("10.0.0.2", 7777)
    assert split_address("[::1]:7777") == ServerAddress("::1", 7777)
    assert split_address("member.lan:80") == ServerAddress("member.lan", 80)
    assert split_address("tls://10.0.0.2:7777") == ServerAddress("10.0.0.2", 7777, tls=True)
    for bad in ("10.0.0.2", ":7777", "host:0", "host:99999", "host:x", "tls://:7777", "http://host:80"):
        assert split_address(bad) is None
