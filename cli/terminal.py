"""The terminal given back in a usable state before a full-screen app starts.

A full-screen client killed with ``kill -9`` (SIGKILL, which no program can catch) leaves
its terminal as it had it: keys not echoed, lines not read as lines.  The full-screen app
keeps the terminal's modes as it finds them to put them back when it ends, so starting it
again in such a terminal would leave it so again.  :func:`sane_terminal` first turns line
reading and echo back on, so the next ``scopa`` leaves the terminal as it should be
(``reset`` does the rest, and is what to type in a terminal left so otherwise)."""

from __future__ import annotations

import sys
from typing import TextIO

try:
    import termios
except ImportError:  # not on a POSIX system: nothing to do
    termios = None  # type: ignore[assignment]


def sane_terminal(stream: TextIO | None = None) -> bool:
    """Turn echo, line reading and the usual line endings back on in the terminal of
    ``stream`` (default: standard input) if a program left them off; True when it did."""
    stream = sys.stdin if stream is None else stream
    if termios is None or stream is None or not stream.isatty():
        return False
    fd = stream.fileno()
    try:
        attrs = termios.tcgetattr(fd)
    except termios.error:
        return False
    iflag, oflag, lflag = attrs[0], attrs[1], attrs[3]
    want_l = termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN
    if lflag & want_l == want_l and iflag & termios.ICRNL and oflag & termios.OPOST:
        return False
    attrs[0] = iflag | termios.ICRNL
    attrs[1] = oflag | termios.OPOST | termios.ONLCR
    attrs[3] = lflag | want_l | termios.ECHOE | termios.ECHOK
    try:
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
    except termios.error:
        return False
    return True
