"""The pure parts of TLS: a server's address with its scheme, fingerprints, the LAN
record's ``tls`` key, the self-signed certificate made once and kept, which secrets a
server without TLS refuses, the pins of the clients, the page's notice without TLS."""

from __future__ import annotations

import datetime
import ssl
import stat
from pathlib import Path

import pytest

from scopa.client.net import FoundServer, KnownServers
from scopa.protocol.servers import ServerAddress, parse_server_address, fingerprint, parse_fingerprint, LanRecord
from scopa.server.core.tls import CERT_NAME, KEY_NAME, PlainSecrets, cert_fingerprint, self_signed
from scopa.server.web.front import not_private

pytestmark = pytest.mark.unit

FP = ":".join(f"{i:02X}" for i in range(32))


def test_an_address_says_whether_it_is_tls_in_one_place() -> None:
    assert parse_server_address("10.0.0.5:7015") == ServerAddress("10.0.0.5", 7015)
    assert parse_server_address("tls://10.0.0.5:7016") == ServerAddress("10.0.0.5", 7016, tls=True)
    assert parse_server_address("TLS://casa.local") == ServerAddress("casa.local", 7015, tls=True)
    assert parse_server_address("tls://[::1]:7017") == ServerAddress("::1", 7017, tls=True)
    assert parse_server_address(":7018") == ServerAddress("127.0.0.1", 7018)
    assert str(ServerAddress("::1", 7017, tls=True)) == "tls://[::1]:7017"
    assert str(ServerAddress("10.0.0.5", 7015, fingerprint=FP)) == "10.0.0.5:7015"  # never written
    for bad in ("http://10.0.0.5:80", "tls://host:0", "host:70000", "host:x"):
        with pytest.raises(ValueError):
            parse_server_address(bad)


def test_fingerprints_are_sha256_in_pairs_and_read_back_in_any_form() -> None:
    printed = fingerprint(b"certificate bytes")
    assert len(printed) == 95 and printed.count(":") == 31 and printed == printed.upper()
    assert parse_fingerprint(printed.replace(":", "").lower()) == printed
    for bad in ("AB:CD", "G" * 64, ""):
        with pytest.raises(ValueError):
            parse_fingerprint(bad)


def test_the_lan_record_carries_the_fingerprint_and_a_client_connects_with_tls() -> None:
    record = LanRecord("Casa", 1, 0, 0, web_port=8000, tls=FP)
    txt = record.to_txt()
    assert txt["tls"] == FP
    assert LanRecord.from_txt({k.encode(): v.encode() for k, v in txt.items()}) == record
    assert "tls" not in LanRecord("Casa", 1, 0, 0).to_txt()
    with pytest.raises(ValueError):
        LanRecord.from_txt({**txt, "tls": "not a fingerprint"})
    found = FoundServer("10.0.0.5", 7015, record)
    assert found.address == "tls://10.0.0.5:7015" and found.web_address == "https://10.0.0.5:8000/"
    assert found.server_address == ServerAddress("10.0.0.5", 7015, tls=True, fingerprint=FP)
    assert FoundServer("10.0.0.5", 7015, LanRecord("Casa", 1, 0, 0, 8000)).address == "10.0.0.5:7015"


def test_a_self_signed_certificate_is_made_once_and_kept(tmp_path: Path) -> None:
    first = self_signed(tmp_path)
    assert first.self_signed and first.fingerprint == cert_fingerprint(tmp_path / CERT_NAME)
    assert stat.S_IMODE((tmp_path / KEY_NAME).stat().st_mode) == 0o600
    assert first.context.minimum_version is ssl.TLSVersion.TLSv1_2
    again = self_signed(tmp_path)
    assert again.fingerprint == first.fingerprint  # what clients pinned stays valid across restarts
    later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=4000)
    assert self_signed(tmp_path, now=later).fingerprint != first.fingerprint  # expired: made again


def test_without_tls_secrets_come_only_from_loopback_unless_allowed() -> None:
    plain = PlainSecrets()
    for here in ("127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"):
        assert plain.refusal(here, "a password") is None
    refusal = plain.refusal("10.0.0.7", "a password")
    assert refusal is not None and "a password" in refusal and "--allow-plain-secrets" in refusal
    assert "--tls self-signed" in refusal
    assert PlainSecrets(allowed=True).refusal("10.0.0.7", "a password") is None
    assert PlainSecrets(tls=True).refusal("10.0.0.7", "the operator's token") is None


def test_pins_are_kept_one_per_address(tmp_path: Path) -> None:
    known = KnownServers(tmp_path / "deeper" / "known_servers")
    assert known.read() == {}
    known.pin("10.0.0.5:7015", FP)
    known.pin("[::1]:7015", FP.replace("00", "FF"))
    known.pin("10.0.0.5:7015", FP.replace("01", "EE"))
    assert known.read() == {"10.0.0.5:7015": FP.replace("01", "EE"), "[::1]:7015": FP.replace("00", "FF")}


def test_a_page_without_tls_says_first_that_it_is_not_private() -> None:
    page = b"<!doctype html><html><body>\n<main id=app></main></body></html>"
    shown = not_private(page)
    assert shown.index(b"Not private") < shown.index(b"<main")
    assert b"passwords" in shown


def test_fingerprints_are_printed_as_they_are_never_as_emoji() -> None:
    import argparse
    import io

    from rich.console import Console

    from scopa.cli.tls import client_trust
    from scopa.cli.web import print_qr

    shown = ":".join(["CD"] * 32)  # ":cd:" is an emoji code to rich
    out = io.StringIO()
    console = Console(file=out, width=300, color_system=None)
    trust = client_trust(argparse.Namespace(accept_certificate=None), console)
    assert trust is not None
    trust.notice(f"pinned the certificate with SHA-256 fingerprint {shown}")
    print_qr(console, [f"https://10.0.0.5:8000/#sha256={shown}"])
    printed = out.getvalue()
    assert f"fingerprint {shown}" in printed and f"#sha256={shown}:" in printed


def test_the_members_of_scopa_cluster_share_one_certificate() -> None:
    from scopa.cli import cluster
    from scopa.cli.main import build_parser

    args = build_parser().parse_args(["cluster", "--cluster", "redis://127.0.0.1:6379/0", "--db",
                                      "postgresql://127.0.0.1/test", "--tls-cert", "c.pem", "--tls-key", "k.pem"])
    command = cluster.member_command(args)
    assert command[command.index("--tls-cert") + 1] == "c.pem" and command[command.index("--tls-key") + 1] == "k.pem"
    plain = build_parser().parse_args(["cluster", "--cluster", "redis://127.0.0.1:6379/0", "--db",
                                       "postgresql://127.0.0.1/test"])
    assert "--tls-cert" not in cluster.member_command(plain)
