"""A network game between two client processes through a real server on loopback: the
person's `scopa play` is killed mid-game, and a new one started with the same state
directory offers to return to the seat, takes it back and plays the game to its end."""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
import time
from pathlib import Path

import pexpect

from serverthread import ServerThread

from procs import ROOT, end_child, finish, scopa_bot


def spawn_play(address: str, state: Path) -> pexpect.spawn:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")  # the pty's size
    return pexpect.spawn(sys.executable, ["-m", "scopa.cli", "play", "--server", address, "--name", "ada",
                                          "--state-dir", str(state), "--delay", "0"],
                         cwd=str(ROOT), env=env, encoding="utf-8", codec_errors="replace", timeout=30,
                         dimensions=(24, 80))


def saved_seats(state: Path) -> dict[str, object]:
    path = state / "seats.json"
    return json.loads(path.read_text()) if path.exists() else {}


def test_a_killed_client_comes_back_to_its_seat_with_the_same_state_directory(tmp_path: Path) -> None:
    with ServerThread() as server:
        bob = scopa_bot(server.address, "--name", "bob", "--games", "1", "--strategy", "greedy")
        first = second = None
        try:
            deadline = time.monotonic() + 30
            while not server.engine.tables and bob.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)  # bob opens a table
            if not server.engine.tables:
                bob.kill()
                out, _ = bob.communicate()
                raise AssertionError(f"bob opened no table within 30 s (exit {bob.returncode}):\n{out}")
            first = spawn_play(server.address, tmp_path)
            first.expect("waiting")  # bob's table in the lobby's list (drawn before or after its heading)
            first.send("j")  # join the selected (only) table
            first.expect("Your hand")
            deadline = time.monotonic() + 30
            while not saved_seats(tmp_path) and time.monotonic() < deadline:
                time.sleep(0.05)
            seats = saved_seats(tmp_path)
            assert list(seats) == [f"ada@{server.address}"]
            assert stat.S_IMODE((tmp_path / "seats.json").stat().st_mode) == 0o600
            first.kill(signal.SIGKILL)  # the person's client dies in the middle of the game
            end_child(first)

            second = spawn_play(server.address, tmp_path)
            second.expect("unfinished game at")
            second.send("y")
            second.expect("Your hand")
            seen = ""  # all the client has shown since "Your hand" (a timeout leaves pexpect's buffer whole)
            boxed = False  # a round's box is up: it waits for Enter (a digit does not close it)
            entered = 0  # how much had been shown when the last Enter went: a box drawn before it is closed
            for _ in range(3000):  # play the game out: "1" plays the first card
                if bob.poll() is not None and "Scopa lobby" in seen[-5000:]:
                    break
                key = "\r" if boxed or "Game over" in seen else "1"  # the game's result closes on Enter
                entered = len(seen) if key == "\r" else entered
                second.send(key)
                try:
                    second.expect(pexpect.TIMEOUT, timeout=0.05)
                except pexpect.EOF:
                    break
                # a box's "to go on" drawn since the last look (or split across two looks), never one an Enter closed
                boxed = "to go on" in second.before[max(len(seen) - 20, entered):]
                seen = second.before
            code, out = finish(bob)
            assert code == 0, out
            assert "game 1/1" in out and "abandoned" not in out
            assert "Game over" in seen and "go back to the lobby" in seen
            assert second.isalive()  # back in the lobby
            second.sendcontrol("c")
            second.expect(pexpect.EOF)
            second.close()
            assert second.exitstatus == 0
            assert saved_seats(tmp_path) == {}  # the game is over: nothing to return to
        finally:
            for child in (first, second):
                if child is not None and child.isalive():
                    end_child(child)
            if bob.poll() is None:
                bob.kill()
                bob.communicate()
