"""A full-screen `scopa play` ended with a plain ``kill`` (SIGTERM) or by its terminal
closing (SIGHUP) ends as with Ctrl+C: the terminal is given back (out of the alternate
screen, mouse reporting off) and the process exits normally.  Through a pseudo-terminal."""

from __future__ import annotations

import signal
from pathlib import Path

import pexpect
import pytest

from serverthread import ServerThread
from test_cli_play_name import spawn_play
from procs import end_child

pytestmark = pytest.mark.process

ALT_SCREEN_OFF = "\x1b[?1049l"
MOUSE_OFF = "\x1b[?1000l"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_killed_full_screen_client_gives_the_terminal_back(tmp_path: Path, sig: signal.Signals) -> None:
    with ServerThread() as server:
        child = spawn_play(server.address, tmp_path, "--name", "ada")
        try:
            child.expect("ada on")
            child.kill(sig)
            child.expect(pexpect.EOF)
            out = child.before
            child.close()
            assert MOUSE_OFF in out and ALT_SCREEN_OFF in out
            assert child.exitstatus == 0 and child.signalstatus is None
            assert "Traceback" not in out
        finally:
            end_child(child)
