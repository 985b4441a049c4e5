"""`scopa play --plain` at a table with a turn clock, through a pseudo-terminal: the
prompt says how long the person has, and when the time runs out the server's move for
them is said at once ("Your time ran out: the server played …") and the game goes on
with the next prompt; nobody has to press a key first.  The server runs on a fake clock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pexpect
import pytest

from scopa.server import Limits
from scopa.server.core.clock import FakeClock

from serverthread import ServerThread
from test_cli_play import create_table, spawn

pytestmark = pytest.mark.process


@contextmanager
def ada_at_a_clocked_table() -> Iterator[tuple[FakeClock, ServerThread, pexpect.spawn]]:
    """ada at a new table of a server whose fake clock gives a turn 30 s: the clock, the
    server and ``scopa play --plain``, which is stopped afterwards."""
    clock = FakeClock()
    with ServerThread(clock=clock, limits=Limits(ping_interval=None), turn_timeout=30) as server:
        child = spawn(server, "--name", "ada")
        try:
            create_table(child, {})
            yield clock, server, child
        finally:
            child.terminate(force=True)


def test_the_plain_client_tells_the_time_left_and_the_move_made_when_it_ran_out() -> None:
    with ada_at_a_clocked_table() as (clock, server, child):
        child.expect(r"You have 0:(\d\d).*then the server plays for you")
        left = int(child.match[1])  # the table's 30 s; the round's first turn has 15 s more to see the board
        assert left in (30, 45)
        child.expect("Your move: ")
        loop = server._loop
        assert loop is not None
        loop.call_soon_threadsafe(clock.advance, left)  # the person does not answer in time
        child.expect("Your time ran out: the server played ")
        child.expect(r"You have 0:\d\d")  # the next turn, after the bot's move
        child.expect("Your move: ")
        child.sendline("1")  # a line typed now answers the turn asked now
        child.expect(r"You played ")
        assert "Not allowed" not in child.before


def test_the_time_is_told_once_a_turn_not_after_each_line() -> None:
    """A chat line at the move prompt does not bring "You have … s" again."""
    with ada_at_a_clocked_table() as (_, _, child):
        child.expect(r"You have 0:\d\d.*then the server plays for you")
        child.expect("Your move: ")
        child.sendline("!ciao a tutti")
        child.expect("ciao a tutti")
        child.expect("Your move: ")
        child.sendline("?")
        child.expect("Your move: ")
        child.sendline("1")
        child.expect("You played ")
        assert "You have" not in child.before  # said once this turn
