"""Which event loop a server runs on: asyncio's own, or uvloop (the ``fast`` extra), a
faster loop written in C over libuv."""

from __future__ import annotations

import asyncio
import importlib.util
from typing import Callable, Literal

from scopa.client.text import tr

Loop = Literal["asyncio", "uvloop"]
LOOPS: tuple[Loop, ...] = ("asyncio", "uvloop")
AUTO = "auto"
"""uvloop where it is installed, else asyncio's loop."""


def has_uvloop() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def chosen(loop: str) -> Loop:
    """The loop that ``loop`` (one of :data:`LOOPS`, or :data:`AUTO`) names on this machine."""
    if loop == AUTO:
        return "uvloop" if has_uvloop() else "asyncio"
    for known in LOOPS:
        if loop == known:
            return known
    raise ValueError(f"unknown event loop {loop!r}: {', '.join(LOOPS)} or {AUTO}")


def factory(loop: Loop) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """What makes a loop of the kind (None: asyncio's default); ValueError if uvloop is
    asked for and not installed."""
    if loop == "asyncio":
        return None
    if not has_uvloop():
        raise ValueError(tr("--loop uvloop needs the uvloop package: pip install 'scopa[fast]'"))
    import uvloop

    return uvloop.new_event_loop


def running_uvloop() -> bool:
    """Whether the running event loop is uvloop's."""
    return type(asyncio.get_running_loop()).__module__.startswith("uvloop")


def described() -> str:
    """The running event loop, for a start line: ``on uvloop`` or ``on asyncio's loop`` (in
    the terminal's language)."""
    return tr("on uvloop") if running_uvloop() else tr("on asyncio's loop")
