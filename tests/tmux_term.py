"""A program in a real terminal of a given size, read as a person sees it: a tmux session
on a server of its own (its own socket), its screen read with ``capture-pane``, keys sent
with ``send-keys`` (``-H``: bytes written in one go, as a burst typed quickly)."""

from __future__ import annotations

import shlex
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from paths import ROOT

SAFETY = 30.0
"""Seconds a screen is waited for before the test fails (a safety deadline, not a pace)."""


class Terminal:
    """One tmux window running a command; ``screen`` is what it shows now."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True,
                              timeout=SAFETY).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, seen: Callable[[str], bool], within: float = SAFETY) -> str:
        """The screen once ``seen`` says yes (polled; the deadline is only a safety net)."""
        deadline = time.monotonic() + within
        while True:
            screen = self.screen()
            if seen(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError("never shown; the screen:\n" + screen)
            time.sleep(0.05)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def burst(self, data: bytes) -> None:
        """``data`` written to the program at once, as keys typed faster than it reads."""
        self.tmux("send-keys", "-t", "t", "-H", *(f"{b:02x}" for b in data))


@contextmanager
def terminal(command: Sequence[str], env: dict[str, str], size: tuple[int, int] = (80, 24)) -> Iterator[Terminal]:
    """``command`` run in a ``size`` (columns, rows) terminal with ``env``; its tmux server stopped after."""
    term = Terminal(f"scopa-test-{uuid.uuid4().hex[:12]}")
    line = " ".join(["env", "-i", *(f"{k}={shlex.quote(v)}" for k, v in env.items()), *map(shlex.quote, command)])
    term.tmux("new-session", "-d", "-s", "t", "-x", str(size[0]), "-y", str(size[1]), "-c", str(ROOT),
              line + "; sleep 600")
    try:
        yield term
    finally:
        subprocess.run(["tmux", "-L", term.socket, "kill-server"], capture_output=True, timeout=SAFETY)
