"""The plain client on a dumb terminal (TERM=dumb: no cursor moves), news coming while a
prompt waits: said on lines of their own below it, and the prompt shown again once after
the lines said together, not after each; asked again while it stands as the line's last
words (nothing broke its line), it is not shown again."""

from __future__ import annotations

import asyncio
import io
import threading

import pytest
from rich.console import Console

from scopa.client.console.prompt import LineReader

pytestmark = pytest.mark.unit

MOVE = "Your move: "


class Keyboard:
    """The person's keyboard: the prompt printed as input() prints it; a line typed only
    when the test says so."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.shown = threading.Event()
        self.typed = threading.Semaphore(0)

    def read(self, prompt: object) -> str:
        self.console.print(prompt, end="")
        self.shown.set()
        self.typed.acquire()
        return "1"


async def callbacks_run() -> None:
    """The event loop's callbacks scheduled so far (a prompt shown again) have run."""
    done = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().call_soon(done.set_result, None)
    await done


async def test_news_on_a_dumb_terminal_shows_the_prompt_again_once_and_only_when_its_line_was_broken() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system=None, _environ={"TERM": "dumb"})
    assert console.is_dumb_terminal
    keyboard = Keyboard(console)
    reader = LineReader(console, keyboard.read)
    line = reader.reading(MOVE)
    await asyncio.to_thread(keyboard.shown.wait)
    reader.say("bob: ciao")  # two lines come together (one read from the server)
    reader.say("bob lost the connection; the table waits up to 0:30.")
    await callbacks_run()
    assert out.getvalue() == f"{MOVE}\nbob: ciao\nbob lost the connection; the table waits up to 0:30.\n{MOVE}"
    reader.done_with(line, MOVE)
    assert reader.reading(MOVE) is line  # asked again while it stands at the end of the line: not shown again
    assert out.getvalue().endswith(f"0:30.\n{MOVE}")
    reader.say("bob is back.")
    await callbacks_run()
    assert out.getvalue().endswith(f"0:30.\n{MOVE}\nbob is back.\n{MOVE}")
    keyboard.typed.release()
    assert await asyncio.wrap_future(line) == "1"
