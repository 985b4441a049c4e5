"""Ctrl-C ends the plain client at its move prompt whichever of the process's threads
the kernel hands the signal to.  The prompt reads the keyboard in a thread of its own;
a signal that lands there, and not in the thread running the event loop, must still
wake the loop (which sleeps with nothing else to do while a person thinks).  The
kernel's choice is forced here by sending the signal to each of the other threads
(tgkill); a real terminal's Ctrl-C goes to whichever it picks."""

from __future__ import annotations

import ctypes
import os
import platform
import signal
import sys

import pexpect
import pytest

from paths import ROOT
from procs import end_child

pytestmark = pytest.mark.process

TGKILL = {"x86_64": 234, "aarch64": 131}  # the system call's number, by machine


def interrupt_threads_but_the_first(pid: int) -> list[int]:
    """SIGINT to every thread of ``pid`` except its main one; their ids."""
    libc = ctypes.CDLL(None, use_errno=True)
    others = [int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid]
    for tid in others:
        assert libc.syscall(TGKILL[platform.machine()], pid, tid, signal.SIGINT) == 0, ctypes.get_errno()
    return others


def test_ctrl_c_taken_by_the_keyboard_thread_ends_scopa_local_plain() -> None:
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "local", "--plain", "--seed", "5",
                                           "--seats", "human,easy", "--name", "nonna"],
                          cwd=str(ROOT), env=dict(os.environ, LANG="C.UTF-8", TERM="dumb", NO_COLOR="1"),
                          encoding="utf-8", timeout=30, dimensions=(50, 160))
    try:
        child.expect("Your move: ")
        assert interrupt_threads_but_the_first(child.pid), "the prompt reads the keyboard in a thread"
        child.expect("bye")
        child.expect(pexpect.EOF)
        child.wait()
        assert child.exitstatus == 130
    finally:
        end_child(child)
