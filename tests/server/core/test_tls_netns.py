"""Secrets and TLS between two machines, for real: two network namespaces of this
test's own (tests/server/test_lan_netns.py makes them), a `scopa serve` in one and the clients
in the other, at a LAN address that is not loopback.  A server without TLS refuses a
password and the operator's token from there (the refusal names
``--allow-plain-secrets``), takes them with that option, and takes them over TLS; a TLS
server announced on the LAN carries its fingerprint, shown by `scopa servers`, pinned by
`scopa bot --server auto`, and put in the QR code's address of its page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from test_lan_netns import ENV, SAFETY, Lan, lan, stop  # noqa: F401 - lan: the fixture

pytestmark = pytest.mark.process

PASSWORD = "correct horse battery"
FINGERPRINT = r"([0-9A-F]{2}(?::[0-9A-F]{2}){31})"


def _homes(lan: Lan) -> None:
    """Data and state directories of the test's own for every command in the namespaces."""
    lan.env = dict(ENV, XDG_DATA_HOME=str(lan.tmp / "data"), XDG_STATE_HOME=str(lan.tmp / "state"))


def _client(lan: Lan, *args: str, password: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(lan.env, SCOPA_PASSWORD=password) if password else lan.env
    command = lan._command(lan.client, args)
    return subprocess.run(command, capture_output=True, text=True, timeout=SAFETY, cwd=lan.tmp, env=env,
                          stdin=subprocess.DEVNULL)


def _said(done: subprocess.CompletedProcess[str]) -> str:
    return " ".join((done.stdout + done.stderr).split())


def test_secrets_in_clear_from_another_machine_are_refused_unless_allowed(lan: Lan, tmp_path: Path) -> None:
    _homes(lan)
    plain = lan.serve("--host", "0.0.0.0", "--port", "7015", "--accounts", "--db", str(tmp_path / "a.db"),
                      "--no-announce")
    allowed = lan.serve("--host", "0.0.0.0", "--port", "7016", "--accounts", "--db", str(tmp_path / "b.db"),
                        "--no-announce", "--allow-plain-secrets")
    secure = lan.serve("--host", "0.0.0.0", "--port", "7017", "--accounts", "--db", str(tmp_path / "c.db"),
                       "--no-announce", "--tls", "self-signed")
    for server in (plain, allowed, secure):
        server.expect(r"Scopa server on 0\.0\.0\.0:")
    address = f"{lan.server_ip}:7015"

    refused = _client(lan, "bot", "--server", address, "--fill-with-bots", "greedy", "--name", "ada",
                      password=PASSWORD)
    assert refused.returncode == 1
    said = _said(refused)
    assert "this server does not use TLS, so a password would cross the network in clear" in said
    assert "--allow-plain-secrets" in said and "(bad_password)" in said
    operator = _client(lan, "admin", "--server", address, "--token-file", str(lan.tmp / "admin-{port}.token"),
                       "tables")
    assert operator.returncode == 1 and "the operator's token would cross the network in clear" in _said(operator)
    without = _client(lan, "bot", "--server", address, "--fill-with-bots", "greedy", "--name", "bob", "--quiet")
    assert without.returncode == 0, _said(without)  # the server is reachable: only the secrets are refused

    taken = _client(lan, "bot", "--server", f"{lan.server_ip}:7016", "--fill-with-bots", "greedy", "--name", "ada",
                    "--quiet", password=PASSWORD)
    assert taken.returncode == 0, _said(taken)
    over_tls = _client(lan, "bot", "--server", f"tls://{lan.server_ip}:7017", "--fill-with-bots", "greedy",
                       "--name", "ada", "--quiet", password=PASSWORD)
    assert over_tls.returncode == 0, _said(over_tls)
    operator = _client(lan, "admin", "--server", f"tls://{lan.server_ip}:7017", "--token-file",
                       str(lan.tmp / "admin-{port}.token"), "tables")
    assert operator.returncode == 0, _said(operator)
    for server in (plain, allowed, secure):
        assert "Traceback" not in stop(server)


def test_a_tls_server_on_the_lan_announces_its_fingerprint_and_is_pinned_to_it(lan: Lan) -> None:
    _homes(lan)
    server = lan.serve("--host", "0.0.0.0", "--name", "Casa Rossi", "--tls", "self-signed", "--web", "0")
    server.expect(rf"Open: https://{lan.server_ip}:(\d+)/")
    web = int(server.match.group(1))
    server.expect(rf"Point a phone's camera at this to open https://{lan.server_ip}:{web}/#sha256={FINGERPRINT}")
    in_qr = server.match.group(1)
    server.expect(rf"SHA-256 fingerprint {FINGERPRINT}")
    assert server.match.group(1) == in_qr
    server.expect("announced on the LAN as 'Casa Rossi'")

    listed = _client(lan, "servers")
    assert listed.returncode == 0
    assert (f"1. Casa Rossi  tls://{lan.server_ip}:7015  0 open tables, 0 players, web https://{lan.server_ip}:{web}/"
            in listed.stdout)
    played = _client(lan, "bot", "--server", "auto", "--fill-with-bots", "greedy", "--quiet")
    assert played.returncode == 0, _said(played)
    assert re.search(rf"pinned the certificate with SHA-256 fingerprint {re.escape(in_qr)}", _said(played))
    assert (lan.tmp / "data" / "scopa" / "known_servers").read_text() == f"{lan.server_ip}:7015 {in_qr}\n"
    assert "Traceback" not in stop(server)
