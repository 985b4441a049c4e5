"""Finding a server on a LAN, for real: two network namespaces of this test's own,
joined by a veth pair with multicast on (addresses in 10.213.x.0/24 that exist only in
them), a `scopa serve` in one and `scopa servers`, `scopa play`, `scopa bot --server
auto` and the library in the other.  Nothing leaves the namespaces; both are deleted
after each test whatever happens.  Needs root and the `ip` command (iproute2)."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from procs import SCOPA
from test_cli_play import play_the_bots_game

SAFETY = 60  # seconds: a safety net only; every wait below ends on what it waits for
ENV = dict(os.environ, TERM="dumb", COLUMNS="160", NO_COLOR="1")

# The library, as a program uses it: print what is announced each time it changes.
WATCHER = """
import asyncio
from scopa.client.net.discovery import ServerBrowser

def rows(found):
    return [f"{s.name} {s.address} tables={s.record.tables} players={s.record.players}" for s in found]

async def main():
    async with ServerBrowser() as browser:
        seen = None
        while True:
            found = await browser.wait_for(lambda now: rows(now) != seen)
            seen = rows(found)
            print("found:", "; ".join(seen) if seen else "nothing", flush=True)

asyncio.run(main())
"""


class Lan:
    """Two namespaces, ``server`` and ``client``, on one veth link."""

    def __init__(self, tmp: Path) -> None:
        self.tag = "s34" + secrets.token_hex(3)  # unique: other test runs make namespaces too
        self.server = self.tag + "srv"
        self.client = self.tag + "cli"
        self.subnet = 1 + secrets.randbelow(254)
        self.server_ip = f"10.213.{self.subnet}.1"
        self.tmp = tmp
        self.children: list[pexpect.spawn] = []
        self.env = ENV
        """The environment of every command run in the namespaces."""

    def ip(self, *args: str) -> None:
        done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=SAFETY)
        assert done.returncode == 0, f"ip {' '.join(args)}: {done.stderr}"

    def create(self) -> None:
        self.ip("netns", "add", self.server)
        self.ip("netns", "add", self.client)
        ends = {self.server: self.tag + "a", self.client: self.tag + "b"}
        self.ip("link", "add", ends[self.server], "type", "veth", "peer", "name", ends[self.client])
        for number, (ns, end) in enumerate(ends.items(), 1):
            self.ip("link", "set", end, "netns", ns)
            self.ip("-n", ns, "addr", "add", f"10.213.{self.subnet}.{number}/24", "dev", end)
            self.ip("-n", ns, "link", "set", end, "up", "multicast", "on")
            self.ip("-n", ns, "link", "set", "lo", "up")

    def destroy(self) -> None:
        for child in self.children:
            if child.isalive():
                child.terminate(force=True)
        for ns in (self.server, self.client):
            pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout.split()
            for pid in pids:  # anything this test started there and left behind
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)  # takes the veth pair with it

    def _command(self, ns: str, args: tuple[str, ...]) -> list[str]:
        return ["ip", "netns", "exec", ns, *SCOPA, *args]

    def run(self, ns: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self._command(ns, args), capture_output=True, text=True, timeout=SAFETY, cwd=self.tmp,
                              env=self.env, stdin=subprocess.DEVNULL)

    def spawn(self, ns: str, *args: str, python: bool = False) -> pexpect.spawn:
        command = ["ip", "netns", "exec", ns, SCOPA[0], *args] if python else self._command(ns, args)
        child = pexpect.spawn(command[0], command[1:], cwd=str(self.tmp), env=self.env, encoding="utf-8",
                              timeout=SAFETY, dimensions=(50, 160))
        child.delaybeforesend = None  # typed answers go at once (the game below has many)
        self.children.append(child)
        return child

    def start(self, ns: str, *args: str) -> subprocess.Popen[str]:
        """A `scopa` command started in ``ns``, its output collected (see :func:`output`)."""
        return subprocess.Popen(self._command(ns, args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                cwd=self.tmp, env=self.env, stdin=subprocess.DEVNULL)

    def serve(self, *args: str) -> pexpect.spawn:
        """`scopa serve ARGS` in the server namespace (started, not yet listening)."""
        return self.spawn(self.server, "serve", "--admin-token-file", str(self.tmp / "admin-{port}.token"), *args)


def output(proc: subprocess.Popen[str]) -> tuple[int, str]:
    out, _ = proc.communicate(timeout=SAFETY)
    return proc.returncode, out


def require_namespaces() -> None:
    """Fail (never skip) unless this process can make network namespaces."""
    if shutil.which("ip") is None:
        pytest.fail("this test needs the `ip` command to make network namespaces: apt-get install iproute2 "
                    "(scripts/test installs it)")
    if os.geteuid() != 0:
        pytest.fail("this test makes network namespaces: run it as root")


@pytest.fixture
def lan(tmp_path: Path) -> Iterator[Lan]:
    require_namespaces()
    network = Lan(tmp_path)
    try:
        network.create()
        yield network
    finally:
        network.destroy()


def stop(child: pexpect.spawn) -> str:
    """Ctrl-C, as the host would: the process's last words."""
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    return child.before


def test_a_lan_server_is_found_joined_and_played_then_gone_when_it_stops(lan: Lan) -> None:
    address = f"{lan.server_ip}:7015"
    server = lan.serve("--host", "0.0.0.0", "--name", "Casa Rossi")
    watcher = lan.spawn(lan.client, "-c", WATCHER, python=True)
    server.expect("announced on the LAN as 'Casa Rossi'")
    watcher.expect(f"found: Casa Rossi {address} tables=0 players=0")

    bot = lan.spawn(lan.client, "bot", "--server", "auto", "--games", "1", "--name", "robo")
    bot.expect("created table 1")
    watcher.expect(f"found: Casa Rossi {address} tables=1 players=1")  # the announcement follows the lobby

    code, listed = output(lan.start(lan.client, "servers"))
    assert code == 0, listed
    assert f"1. Casa Rossi  {address}  1 open table, 1 player" in listed

    play = lan.spawn(lan.client, "play", "--plain", "--name", "ada", "--state-dir", str(lan.tmp / "state"))
    play.expect("Looking for Scopa servers")
    play.expect(f"Connected to {address} as ada")
    play_the_bots_game(play, bot)

    last_words = stop(server)
    assert "Traceback" not in last_words and "server stopped" in last_words
    watcher.expect("found: nothing")  # the goodbye: withdrawn at once, not when its time to live runs out
    code, listed = output(lan.start(lan.client, "servers", "--wait", "1"))
    assert code == 1 and "No Scopa server answered" in listed and "--server HOST:PORT" in listed


def test_only_announced_servers_are_seen_and_a_person_picks_one_of_several(lan: Lan) -> None:
    local = lan.serve("--port", "7018")  # loopback only: never announced
    hidden = lan.serve("--host", "0.0.0.0", "--port", "7017", "--no-announce")
    alpha = lan.serve("--host", "0.0.0.0", "--port", "7015", "--name", "alpha")
    beta = lan.serve("--host", "0.0.0.0", "--port", "7016", "--name", "beta", "--web", "0")
    alpha.expect("announced on the LAN as 'alpha'")
    beta.expect(rf"Open: http://{lan.server_ip}:\d+/")  # the page listens before the server says it serves
    beta.expect(rf"Point a phone's camera at this to open (http://{lan.server_ip}:\d+/)")
    web = beta.match.group(1)
    beta.expect("█▀")  # the QR code itself
    beta.expect("announced on the LAN as 'beta'")
    for child in (local, hidden):
        child.expect("listening on")
        assert "announced on the LAN" not in child.before

    listing = lan.start(lan.client, "servers")
    bot = lan.start(lan.client, "bot", "--server", "auto")  # nobody to ask: it says which there are
    play = lan.spawn(lan.client, "play", "--plain", "--name", "ada", "--state-dir", str(lan.tmp / "state"))
    play.expect(r"Which one \(1-2, Enter for none\)\? ")
    code, listed = output(listing)  # before anyone connects: no player anywhere
    lines = [line for line in listed.splitlines() if line.strip()]
    assert lines == [f"1. alpha  {lan.server_ip}:7015  0 open tables, 0 players",
                     f"2. beta  {lan.server_ip}:7016  0 open tables, 0 players, web {web}"]  # not 7017, 7018
    play.sendline("3")
    play.expect("Type a number from 1 to 2")
    play.sendline("2")
    play.expect(f"Connected to {lan.server_ip}:7016 as ada")
    play.expect("Lobby> ")
    play.sendline("q")
    play.expect(pexpect.EOF)

    code, said = output(bot)
    assert code == 1 and "Several Scopa servers" in said and "beta" in said
