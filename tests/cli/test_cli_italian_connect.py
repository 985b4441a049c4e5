"""`scopa play` in Italian when no server can be reached, through a pseudo-terminal as a
person runs it: the lookup on the network and a refused address are said in Italian
words, never as Python's exception text ("Connect call failed", "ConnectionRefusedError"),
in lines that fit the terminal (one wider than it breaks a word in the middle)."""

from __future__ import annotations

import os
import re
import socket
import sys
from collections.abc import Iterator

import pexpect
import pytest

from paths import ROOT

pytestmark = pytest.mark.process

ENGLISH = ["Connect call failed", "Errno", "cannot connect", "Looking for", "Error", "Traceback"]


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port held by a socket that does not listen: a connection there is refused."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


def run(args: list[str], env: dict[str, str], size: tuple[int, int] = (24, 80)) -> str:
    """``scopa ARGS`` at a terminal (``play`` with a name given: not asked for one); what it printed."""
    named = ["--name", "ada"] if args[0] == "play" else []
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", *args, *named], cwd=str(ROOT), env=env, encoding="utf-8",
                          timeout=30, dimensions=size)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus != 0
    return " ".join((child.before or "").split())


def italian_env(**more: str) -> dict[str, str]:
    return dict(os.environ, TERM="dumb", COLUMNS="80", LINES="24", **more)


@pytest.mark.parametrize("plain", [True, False], ids=["plain", "full-screen"])
def test_a_refused_address_is_said_in_italian_words(closed_port: int, plain: bool) -> None:
    said = run(["play", "--lang", "it", *(["--plain"] if plain else []), f"127.0.0.1:{closed_port}"], italian_env())
    assert f"Nessun server risponde a 127.0.0.1:{closed_port}" in said
    assert not [w for w in ENGLISH if w in said], said


def test_a_refused_address_is_said_in_english_words_too(closed_port: int) -> None:
    said = run(["play", "--plain", f"127.0.0.1:{closed_port}"], italian_env(LANG="C.UTF-8", LC_ALL="C.UTF-8"))
    assert f"No server answers at 127.0.0.1:{closed_port}" in said and "Connect call failed" not in said


def test_an_unknown_host_is_said_in_italian_words() -> None:
    said = run(["play", "--plain", "nessuno.invalid:7000"], italian_env(LANG="it_IT.UTF-8", LC_ALL=""))
    assert "Nessun computer si chiama nessuno.invalid" in said
    assert not [w for w in ENGLISH if w in said], said


def test_the_lookup_on_the_network_is_said_in_italian() -> None:
    """Without an address `scopa play` looks on the network (and on this computer) first."""
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "play", "--plain", "--server", "auto"], cwd=str(ROOT),
                          env=italian_env(LANG="it_IT.UTF-8", LC_ALL=""), encoding="utf-8", timeout=30)
    try:
        child.expect("Cerco server di Scopa su questa rete")
        assert "Looking for" not in (child.before or "")
    finally:
        child.terminate(force=True)


CONTROLS = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>]")


@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("plain", [True, False], ids=["plain", "full-screen"])
def test_a_refused_address_is_said_in_lines_that_fit_the_terminal(closed_port: int, plain: bool, lang: str,
                                                                   width: int) -> None:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(width), LINES="24")
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "play", "--lang", lang, *(["--plain"] if plain else []),
                                           "--name", "ada", f"127.0.0.1:{closed_port}"],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=30, dimensions=(24, width))
    child.expect(pexpect.EOF)
    child.close()
    out = child.before or ""
    out = out[max(0, out.rfind("\x1b[?1049l")):]  # what is printed after the full screen is gone (or all)
    lines = [line for line in CONTROLS.sub("", out).split("\r\n") if line.strip()]
    said = ("No server answers at 127.0.0.1:{port}: is the address right, and is the server (scopa serve) on?"
            if lang == "en" else
            "Nessun server risponde a 127.0.0.1:{port}: l'indirizzo è giusto, e il server (scopa serve) è acceso?")
    assert said.format(port=closed_port) in " ".join(" ".join(lines).split()), lines
    assert all(len(line.rstrip()) <= width for line in lines), lines  # each a row of its own: the words whole
