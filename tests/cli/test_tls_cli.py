"""TLS with the `scopa` command: `scopa serve --tls self-signed` makes its certificate
once, prints its fingerprint and speaks TLS 1.2 or newer only (as `openssl s_client`
sees it); `scopa bot` and `scopa play --plain` play a game over `tls://`, pinning the
certificate on first use; the JavaScript example bot plays over TLS too, pinned by
`--fingerprint`, and the SDK example too; a client whose pin differs is refused with what to do, and accepts the
new certificate with `--accept-certificate`.  Every process has data and state
directories of the test's own (XDG_DATA_HOME, XDG_STATE_HOME)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from procs import ROOT, SCOPA
from scopa.protocol import PROTOCOL_VERSION
from scopa.server.core.tls import CERT_NAME, cert_fingerprint
from test_example_js import JS, node_ready
from test_cli_play import play_the_bots_game

pytestmark = pytest.mark.process

SAFETY = 60  # seconds: a safety net only; every wait below ends on what it waits for
FINGERPRINT = r"([0-9A-F]{2}(?::[0-9A-F]{2}){31})"


def _env(home: Path) -> dict[str, str]:
    return dict(os.environ, TERM="dumb", COLUMNS="400", NO_COLOR="1", XDG_DATA_HOME=str(home / "data"),
                XDG_STATE_HOME=str(home / "state"))


class Served:
    """A `scopa serve --tls self-signed` and the clients run against it."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.server = pexpect.spawn(SCOPA[0], [*SCOPA[1:], "serve", "--port", "0", "--tls", "self-signed"],
                                    cwd=str(ROOT), env=_env(tmp / "server"), encoding="utf-8", timeout=SAFETY)
        self.server.expect(r"Scopa server on 127\.0\.0\.1:(\d+)")
        self.port = int(self.server.match.group(1))
        self.server.expect(rf"TLS with a self-signed certificate \((.+?)\), SHA-256 fingerprint {FINGERPRINT}")
        self.cert = Path(self.server.match.group(1))
        self.fingerprint = self.server.match.group(2)
        self.address = f"tls://127.0.0.1:{self.port}"

    def spawn(self, home: str, *args: str) -> pexpect.spawn:
        child = pexpect.spawn(SCOPA[0], [*SCOPA[1:], *args], cwd=str(ROOT), env=_env(self.tmp / home),
                              encoding="utf-8", timeout=SAFETY, dimensions=(50, 400))
        child.delaybeforesend = None
        return child

    def run(self, home: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*SCOPA, *args], cwd=ROOT, env=_env(self.tmp / home), capture_output=True, text=True,
                              timeout=SAFETY, stdin=subprocess.DEVNULL)

    def pins(self, home: str) -> str:
        return (self.tmp / home / "data" / "scopa" / "known_servers").read_text()

    def stop(self) -> str:
        self.server.sendintr()
        self.server.expect(pexpect.EOF)
        self.server.close()
        return self.server.before


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path)
    try:
        yield server
    finally:
        if server.server.isalive():
            last_words = server.stop()
            assert "Traceback" not in last_words


def test_scopa_bot_and_play_play_a_game_over_tls_pinning_the_self_signed_certificate(served: Served) -> None:
    assert served.cert == served.tmp / "server" / "data" / "scopa" / "tls" / CERT_NAME
    assert served.fingerprint == cert_fingerprint(served.cert)

    bot = served.spawn("bot", "bot", "--server", served.address, "--games", "1", "--name", "robo")
    bot.expect(rf"{re.escape(served.address)}: first connection, pinned the certificate with SHA-256 fingerprint "
               rf"{served.fingerprint}")
    bot.expect("created table 1")
    play = served.spawn("ada", "play", "--plain", "--server", served.address, "--name", "ada",
                        "--state-dir", str(served.tmp / "ada-seats"))
    play.expect(f"pinned the certificate with SHA-256 fingerprint {served.fingerprint}")
    play.expect(f"Connected to 127.0.0.1:{served.port} as ada")
    play_the_bots_game(play, bot)
    for home in ("bot", "ada"):
        assert served.pins(home) == f"127.0.0.1:{served.port} {served.fingerprint}\n"

    again = served.run("bot", "bot", "--server", served.address, "--fill-with-bots", "greedy", "--quiet")
    assert again.returncode == 0, again.stdout + again.stderr  # pinned: no word about it any more
    assert "pinned" not in again.stdout


def test_a_changed_certificate_is_refused_until_accepted_on_purpose(served: Served) -> None:
    pins = served.tmp / "eve" / "data" / "scopa" / "known_servers"
    pins.parent.mkdir(parents=True)
    old = ":".join(["5A"] * 32)
    pins.write_text(f"127.0.0.1:{served.port} {old}\n")
    refused = served.run("eve", "bot", "--server", served.address, "--fill-with-bots", "greedy")
    assert refused.returncode == 1
    said = " ".join((refused.stdout + refused.stderr).split())
    assert f"the certificate of the server at {served.address} has changed" in said
    assert old in said and served.fingerprint in said and "nothing was sent to it" in said
    assert f"accept it with --accept-certificate {served.fingerprint}" in said
    assert pins.read_text() == f"127.0.0.1:{served.port} {old}\n"

    wrong = served.run("eve", "bot", "--server", served.address, "--accept-certificate", old)
    assert wrong.returncode == 1 and "nothing was sent" in wrong.stdout
    accepted = served.run("eve", "bot", "--server", served.address, "--fill-with-bots", "greedy", "--quiet",
                          "--accept-certificate", served.fingerprint.replace(":", "").lower())
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "accepted the new certificate" in accepted.stdout
    assert pins.read_text() == f"127.0.0.1:{served.port} {served.fingerprint}\n"

    plain = served.run("eve", "bot", "--server", f"127.0.0.1:{served.port}", "--fill-with-bots", "greedy")
    assert plain.returncode == 1  # a plain client on the TLS port: closed at once, told where to go
    assert f"uses TLS: connect to {served.address}" in plain.stdout


def test_the_sdk_example_plays_over_tls(served: Served) -> None:
    done = subprocess.run([SCOPA[0], str(ROOT / "examples" / "sdk_bot.py"), served.address, "1", "greedy"], cwd=ROOT,
                          env=_env(served.tmp / "sdk"), capture_output=True, text=True, timeout=SAFETY)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "game 1: " in done.stdout
    assert served.pins("sdk") == f"127.0.0.1:{served.port} {served.fingerprint}\n"


def test_the_javascript_bot_plays_over_tls_pinned_by_fingerprint(served: Served) -> None:
    node = node_ready()

    def js(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(node), str(JS / "bot.js"), served.address, "--solo", "--protocol",
                               str(PROTOCOL_VERSION), *args], cwd=JS, capture_output=True, text=True, timeout=SAFETY)

    done = js("--fingerprint", served.fingerprint)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "game over (" in done.stdout and ", 0 schema violations" in done.stdout
    other = ":".join(["5A"] * 32)
    refused = js("--fingerprint", other)
    assert refused.returncode == 1
    assert f"shows the certificate {served.fingerprint}, not {other}: nothing was sent" in refused.stderr
    unchecked = js()  # no fingerprint: Node's trust store, which knows nothing of a self-signed certificate
    assert unchecked.returncode == 1 and "self-signed certificate" in unchecked.stderr


def test_openssl_sees_tls_1_2_or_newer_only(served: Served) -> None:
    openssl = shutil.which("openssl")
    assert openssl is not None, "this test needs the openssl command (Debian's openssl package)"

    def handshake(*version: str) -> subprocess.CompletedProcess[str]:
        # SECLEVEL=0: the client offers the old versions' ciphers too, so only the server refuses
        return subprocess.run([openssl, "s_client", "-connect", f"127.0.0.1:{served.port}", *version,
                               "-cipher", "DEFAULT@SECLEVEL=0"], input="", capture_output=True, text=True,
                              timeout=SAFETY)

    for old in ("-tls1", "-tls1_1"):
        refused = handshake(old)
        assert refused.returncode != 0 and "Cipher is (NONE)" in refused.stdout, refused.stdout
    for version, shown in (("-tls1_2", "TLSv1.2"), ("-tls1_3", "TLSv1.3")):
        spoken = handshake(version)
        assert spoken.returncode == 0 and f"New, {shown}, Cipher is " in spoken.stdout, spoken.stdout
        assert served.fingerprint.replace(":", "") in _x509_fingerprint(openssl, spoken.stdout)


def _x509_fingerprint(openssl: str, shown: str) -> str:
    """The SHA-256 fingerprint of the certificate ``openssl s_client`` printed."""
    pem = shown[shown.index("-----BEGIN CERTIFICATE-----"):shown.index("-----END CERTIFICATE-----") + 25]
    out = subprocess.run([openssl, "x509", "-noout", "-fingerprint", "-sha256"], input=pem, capture_output=True,
                         text=True, timeout=SAFETY, check=True).stdout
    return out.split("=", 1)[1].strip().replace(":", "")
