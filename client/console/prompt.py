"""The keyboard of the plain terminal client: one line read at a time for whoever asks
(the lobby, the game), and news printed while a prompt waits for a line.

A blocking read runs in a daemon thread, so the session keeps answering the server
meanwhile; it cannot be taken back, so a read still waiting when its question is over (the
server played for the seat, the game ended, a tournament's table came) answers the next
prompt instead of being left to eat a line nobody waits for, and what was typed for the
question that is over (no Enter yet) is dropped.  What arrives while a prompt waits is
printed at once: at a terminal that moves its cursor, above the prompt's line, which
stays as it is with what is typed there (:meth:`LineReader.say_above`); elsewhere (a
dumb terminal, a pipe) on a line of its own, the prompt shown again below it once (after
the last of the lines said together), and only when they broke its line; what was
held back for a prompt (news that came
while the game was still being shown) is printed just above the prompt as it goes up
(:attr:`LineReader.before_prompt`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import select
import sys
import termios
import threading
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

InputFn = Callable[[str], str]


class LineReader:
    """The one reader of the keyboard of a plain client, and what it prints meanwhile."""

    def __init__(self, console: Console, input_fn: InputFn | None = None) -> None:
        self.console = console
        self.input_fn = input_fn or console.input
        self._line: concurrent.futures.Future[str] | None = None  # the read under way
        self._prompt: str | None = None  # the prompt of whoever waits for a line now
        self._open = False  # the cursor stands after a prompt: nothing printed after it, no line typed
        self._open_prompt: str | None = None  # that prompt
        self._lock = threading.Lock()
        self.before_prompt: list[Callable[[], None]] = []
        """Told as a prompt goes up, before it is shown: news held until someone waits
        at a prompt is said then, above it."""

    @property
    def waiting(self) -> bool:
        """Whether someone waits for a line now (a prompt is up)."""
        with self._lock:
            return self._prompt is not None and self._line is not None and not self._line.done()

    def reading(self, prompt: str, fresh_only: bool = False) -> concurrent.futures.Future[str]:
        """The line that answers ``prompt``: the read still under way (``prompt`` shown
        again), or a new one.  A line typed while nobody asked is not an answer: dropped.
        ``fresh_only``: neither is what was typed before a new read begins (Enters pressed
        while the other players moved are not answers to the move prompt)."""
        for told in self.before_prompt:
            told()
        with self._lock:
            line = self._line
            fresh = line is None or line.done()
            if fresh:
                line = concurrent.futures.Future()
                line.set_running_or_notify_cancel()  # a read under way: never cancelled, only answered
                self._line = line
            left_behind = not fresh and self._prompt is None  # its question is over: nobody waits for it
            after_prompt = self._open and not fresh
            standing = after_prompt and self._open_prompt == prompt  # the very prompt is the line's last words
            self._prompt, self._open, self._open_prompt = prompt, True, prompt
        assert line is not None
        if fresh:
            if fresh_only:
                self._forget_typed()
            threading.Thread(target=self._read, args=(line, prompt), daemon=True, name="scopa-input").start()
            return line
        if left_behind:
            self._forget_typed()
        if not standing:  # nothing broke its line: it is not shown again
            self.console.print(("\n" if after_prompt else "") + prompt, end="", markup=False, highlight=False)
        return line

    def typed_ahead(self) -> list[str]:
        """The whole lines (Enter pressed) typed on the keyboard while nobody read it,
        taken off it: a new read does not see them.  Only a terminal's own keyboard has
        them (a line typed while another client read the keyboard is already read)."""
        if self.input_fn != self.console.input:
            return []
        lines: list[str] = []
        with contextlib.suppress(OSError, ValueError):
            if not sys.stdin.isatty():
                return []
            fd = sys.stdin.fileno()
            typed = b""
            while select.select([fd], [], [], 0)[0]:  # a line mode terminal: readable once Enter is pressed
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                typed += chunk
            lines = [line.rstrip("\r") for line in typed.decode(errors="replace").split("\n")[:-1]]
        return lines

    def _forget_typed(self) -> None:
        """What was typed on the keyboard without Enter for a question that is over (a
        turn the server played, a game that ended) is no part of the answer to the next
        one: the terminal drops it."""
        if self.input_fn != self.console.input:
            return
        with contextlib.suppress(OSError, ValueError, termios.error):
            if sys.stdin.isatty():
                termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)

    def _read(self, line: concurrent.futures.Future[str], prompt: str) -> None:
        shown: Any = Text(prompt) if self.input_fn == self.console.input else prompt  # no markup in a prompt
        try:
            text = self.input_fn(shown)
        except BaseException as exc:  # noqa: BLE001 - EOF, Ctrl-C: for the one who awaits the line
            self._typed(line)
            line.set_exception(exc)
            return
        self._typed(line)
        line.set_result(text)

    def _typed(self, line: concurrent.futures.Future[str]) -> None:
        with self._lock:
            if self._line is line:
                self._open = False  # Enter took the cursor to a new line

    async def ask(self, prompt: str) -> str:
        """The next line typed at ``prompt`` (stripped of nothing).  Cancelled, the read
        stays under way for the next prompt."""
        line = self.reading(prompt)
        try:
            text = await asyncio.wrap_future(line)
        finally:
            self.done_with(line, prompt)
        return text

    def done_with(self, line: concurrent.futures.Future[str], prompt: str) -> None:
        """``prompt`` no longer waits for ``line`` (answered: the line is taken; or not)."""
        with self._lock:
            if self._prompt == prompt and self._line is line:
                self._prompt = None
            if self._line is line and line.done():
                self._line = None

    def say_above(self, *objects: Any, **options: Any) -> None:
        """Print now, above a prompt that waits, which stays as it is with what is typed
        at it (a terminal moves that line down to make room, the cursor where it was);
        with no prompt waiting, or not at a terminal that moves its cursor, on a line of
        its own below the prompt, which is shown again after it."""
        if not self._above(objects, options):
            self._below(objects, options)

    say = say_above
    """News said while a prompt may wait: each line once, the prompt once."""

    def _above(self, objects: tuple[Any, ...], options: dict[str, Any]) -> bool:
        """``objects`` printed above the waiting prompt's line, if there is one and the
        terminal can move it down (and the lines fit its screen)."""
        console = self.console
        with self._lock:
            above = self._open and self._prompt is not None and console.is_terminal and not console.is_dumb_terminal
        if not above:
            return False
        with console.capture() as said:
            console.print(*objects, **options)
        lines = said.get().rstrip("\n").split("\n")
        n = len(lines)
        if n >= console.height:
            return False  # more than the screen holds: said below, the prompt again after it
        room = "\x1bD" * n + "\x1bM" * n  # n free rows below the prompt's (the screen scrolls up at the bottom)
        down = "\x1b7\r" + f"\x1b[{n}L"  # the prompt's row, typed text and all, moves down n rows
        console.file.write(room + down + "\r\n".join(lines) + "\x1b8" + f"\x1b[{n}B")  # back after the typed text
        console.file.flush()
        return True

    def _below(self, objects: tuple[Any, ...], options: dict[str, Any]) -> None:
        """Print now (as ``Console.print``): below a prompt that waits, which is shown
        again after it (once the lines said in the same turn of the event loop are all
        out: one prompt after them all); after a read nobody waits for, on a line of its own."""
        with self._lock:
            after_prompt, prompt = self._open, self._prompt
            self._open, self._open_prompt = False, None
        if after_prompt:
            self.console.print()
        self.console.print(*objects, **options)
        if after_prompt and prompt is not None:
            try:
                asyncio.get_running_loop().call_soon(self._prompt_again, prompt)
            except RuntimeError:  # no event loop in this thread: at once
                self._prompt_again(prompt)

    def _prompt_again(self, prompt: str) -> None:
        """``prompt`` shown again after what broke its line, if it still waits and is not
        shown already."""
        with self._lock:
            again = self._prompt == prompt and self._line is not None and not self._line.done() and not self._open
            if again:
                self._open, self._open_prompt = True, prompt
        if again:
            self.console.print(prompt, end="", markup=False, highlight=False)
