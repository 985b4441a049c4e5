"""TLS on the server's ports, with real sockets on 127.0.0.1 (port 0): a game over TLS with
a self-signed certificate pinned on first use, a changed certificate refused before
anything is sent (and accepted on purpose), a certificate the trust store vouches for
not pinned, a plain client on a TLS port closed at once, the web page over HTTPS with
HSTS (and without TLS saying it is not private), the operator over TLS."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import trustme

from scopa.bots import GreedyBot
from scopa.cli.admin import admin_request
from scopa.client import CertificateRefused, ClientSession, ConnectionLost, KnownServers, ServerTrust
from scopa.protocol import commands as wire
from scopa.protocol import decode, encode, make_command
from scopa.protocol.framing import PREFIX_SIZE, frame_prefix
from scopa.server import NetworkEngine
from scopa.server.core.tls import ServerTls, self_signed, server_tls
from scopa.server.web.front import WebFront

pytestmark = pytest.mark.integration

SAFETY = 30.0  # a safety net only: every wait ends on an event
OTHER = ":".join(["AB"] * 32)  # a fingerprint no certificate here has


@pytest.fixture
def own(tmp_path: Path) -> ServerTls:
    return self_signed(tmp_path / "tls")


@pytest.fixture
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def issued(tmp_path: Path, ca: trustme.CA) -> ServerTls:
    cert = ca.issue_cert("127.0.0.1", "localhost")
    cert.private_key_pem.write_to_path(str(tmp_path / "key.pem"))
    cert.cert_chain_pems[0].write_to_path(str(tmp_path / "cert.pem"))
    return server_tls(tmp_path / "cert.pem", tmp_path / "key.pem")


async def _engine(tls: ServerTls | None, tmp_path: Path) -> NetworkEngine:
    engine = NetworkEngine("127.0.0.1", 0, seed=3, tls=tls, admin_token_file=str(tmp_path / "admin-{port}.token"))
    await engine.start()
    return engine


@pytest.fixture
async def engine(own: ServerTls, tmp_path: Path) -> AsyncIterator[NetworkEngine]:
    server = await _engine(own, tmp_path)
    try:
        yield server
    finally:
        await server.stop()


def _hello() -> bytes:
    """A ``hello`` frame (its length prefix, then its body)."""
    return encode(make_command(wire.Hello(name="ada", client="test"), seq=1, sender="guest", recipient="lobby"))


def _trust(tmp_path: Path, accept: str | None = None) -> ServerTrust:
    told: list[str] = []
    return ServerTrust(KnownServers(tmp_path / "known_servers"), accept=accept, notice=told.append)


async def test_a_game_over_tls_pins_the_self_signed_certificate_on_first_use(
        engine: NetworkEngine, own: ServerTls, tmp_path: Path) -> None:
    trust = _trust(tmp_path)
    async with await ClientSession.connect("127.0.0.1", engine.port, "ada", tls=True, trust=trust) as session:
        await asyncio.wait_for(session.create_table(fill_with_bots=["greedy"]), SAFETY)
        result = await asyncio.wait_for(session.play_game(GreedyBot()), SAFETY)
    assert result.winner is not None or result.reason  # a whole game, over TLS
    assert trust.known.read() == {f"127.0.0.1:{engine.port}": own.fingerprint}
    async with await ClientSession.connect("127.0.0.1", engine.port, "ada", tls=True, trust=trust) as session:
        assert session.name == "ada"  # the pinned certificate again: accepted


async def test_a_changed_certificate_is_refused_before_anything_is_sent(
        engine: NetworkEngine, own: ServerTls, tmp_path: Path) -> None:
    trust = _trust(tmp_path)
    address = f"127.0.0.1:{engine.port}"
    trust.known.pin(address, OTHER)
    with pytest.raises(CertificateRefused) as refused:
        await ClientSession.connect("127.0.0.1", engine.port, "ada", tls=True, trust=trust, password="a password!")
    message = str(refused.value)
    assert "has changed" in message and OTHER in message and own.fingerprint in message
    assert f"--accept-certificate {own.fingerprint}" in message and "nothing was sent" in message
    assert not engine.names  # no hello reached the server
    assert trust.known.read() == {address: OTHER}  # the pin stays until a new one is accepted on purpose

    with pytest.raises(CertificateRefused):  # accepting another fingerprint than the one shown: still refused
        await ClientSession.connect("127.0.0.1", engine.port, "ada", tls=True, trust=_trust(tmp_path, OTHER))
    async with await ClientSession.connect("127.0.0.1", engine.port, "ada", tls=True,
                                           trust=_trust(tmp_path, own.fingerprint)):
        pass
    assert trust.known.read() == {address: own.fingerprint}


async def test_a_certificate_the_trust_store_vouches_for_is_not_pinned(
        issued: ServerTls, ca: trustme.CA, tmp_path: Path) -> None:
    server = await _engine(issued, tmp_path)
    try:
        trust = _trust(tmp_path)
        trust.authorities = ssl.create_default_context()
        ca.configure_trust(trust.authorities)
        async with await ClientSession.connect("127.0.0.1", server.port, "ada", tls=True, trust=trust) as session:
            assert session.name == "ada"
        assert not trust.known.path.exists()
        other = _trust(tmp_path)  # the same server for a client whose store does not know the test CA: pinned
        async with await ClientSession.connect("127.0.0.1", server.port, "bob", tls=True, trust=other):
            pass
        assert other.known.read() == {f"127.0.0.1:{server.port}": issued.fingerprint}
    finally:
        await server.stop()


async def test_a_plain_client_on_a_tls_port_is_closed_at_once(engine: NetworkEngine) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", engine.port)
    writer.write(_hello())
    answer = await asyncio.wait_for(reader.read(), SAFETY)  # all the server says, up to its close
    assert not answer.startswith(b"\x00")  # no frame of the protocol: a TLS alert at most
    writer.close()
    assert not engine.names
    with pytest.raises(ConnectionLost, match=rf"speaks TLS: connect to tls://127.0.0.1:{engine.port}"):
        await asyncio.wait_for(ClientSession.connect("127.0.0.1", engine.port, "ada"), SAFETY)


async def test_the_operator_reaches_a_tls_server(engine: NetworkEngine, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # where the operator's pins go
    token = (tmp_path / f"admin-{engine.port}.token").read_text().strip()
    reply = await asyncio.wait_for(admin_request("127.0.0.1", engine.port, token, wire.AdminOp.TABLES, tls=True),
                                   SAFETY)
    assert isinstance(reply, wire.AdminReply)
    assert KnownServers.default().get(f"127.0.0.1:{engine.port}") == engine.tls.fingerprint  # type: ignore[union-attr]


async def test_the_page_over_tls_has_hsts_and_without_tls_says_it_is_not_private(
        issued: ServerTls, ca: trustme.CA, tmp_path: Path) -> None:
    root = tmp_path / "page"
    root.mkdir()
    (root / "index.html").write_text("<!doctype html><title>Scopa</title>\n<body>\n<main id=app></main>\n</body>")
    server = await _engine(issued, tmp_path)
    secure = WebFront(server, root, tls=issued)
    plain = WebFront(server, root)
    try:
        await secure.start("127.0.0.1", 0)
        await plain.start("127.0.0.1", 0)
        client_context = ssl.create_default_context()
        ca.configure_trust(client_context)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"https://localhost:{secure.port}/", ssl=client_context) as page:
                assert page.status == 200
                assert page.headers["Strict-Transport-Security"].startswith("max-age=")
                assert "Not private" not in await page.text()
            async with http.ws_connect(f"wss://localhost:{secure.port}/ws", ssl=client_context) as ws:
                await ws.send_bytes(_hello()[PREFIX_SIZE:])  # a message is a frame's body
                welcome = await asyncio.wait_for(ws.receive_bytes(), SAFETY)
                assert decode(frame_prefix(len(welcome)) + welcome).name == "welcome"
            async with http.get(f"http://localhost:{plain.port}/") as page:
                assert "Strict-Transport-Security" not in page.headers
                assert "Not private: this page is served without TLS" in await page.text()
            with pytest.raises(aiohttp.ClientError):  # the TLS front does not answer plain HTTP
                async with http.get(f"http://localhost:{secure.port}/") as page:
                    await page.read()
    finally:
        await secure.stop()
        await plain.stop()
        await server.stop()
