"""A name with accents ("Niccolò") is a name wherever a person types one: `scopa play
--name` in a real terminal (typed with a combining accent too); a name that is not one is refused with a clear message."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect

from serverthread import ServerThread

from procs import ROOT, end_child


def spawn_play(address: str, name: str, state: Path) -> pexpect.spawn:
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", COLUMNS="80", LINES="24")  # the pty's size
    return pexpect.spawn(sys.executable, ["-m", "scopa.cli", "play", "--server", address, "--name", name,
                                          "--state-dir", str(state)],
                         cwd=str(ROOT), env=env, encoding="utf-8", codec_errors="replace", timeout=30,
                         dimensions=(24, 80))


def test_scopa_play_takes_a_name_with_an_accent_however_it_is_typed(tmp_path: Path) -> None:
    with ServerThread() as server:
        for typed in ("Niccolò", "Niccolo\u0300"):  # the one letter ò, or o and a combining accent
            child = spawn_play(server.address, typed, tmp_path)
            try:
                child.expect("Scopa lobby")
                child.expect("Niccolò on")
                child.sendcontrol("c")
                child.expect(pexpect.EOF)
            finally:
                end_child(child)
            assert child.exitstatus == 0


def test_a_name_that_is_not_one_is_refused_before_connecting(tmp_path: Path) -> None:
    child = spawn_play("127.0.0.1:9", "no spaces", tmp_path)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "cannot be a name" in (child.before or "")

