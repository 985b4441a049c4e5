"""`scopa play --plain`: what is said about a line typed answers that line only.  A card
half typed (no Enter yet) when the turn clock ran out belongs to that turn: at the next
"Your move:" the person's line is read alone, not glued to it ("71" is no move), and a
bad card's hint is said for the line that was bad.  Through a pseudo-terminal; the
server runs on a fake clock."""

from __future__ import annotations

import pexpect
import pytest

from scopa.server import Limits
from scopa.server.core.clock import FakeClock

from serverthread import ServerThread
from test_cli_play import create_table, spawn

pytestmark = pytest.mark.process


def test_a_card_half_typed_for_a_turn_the_server_played_is_not_part_of_the_next_line() -> None:
    clock = FakeClock()
    with ServerThread(clock=clock, limits=Limits(ping_interval=None), turn_timeout=30) as server:
        child = spawn(server, "--name", "ada")
        try:
            create_table(child, {})
            child.expect("Your move: ")
            child.sendline("7x")
            child.expect("'7x' is not a card")
            child.expect("Your move: ")
            child.send("7")  # half typed, and the time runs out
            loop = server._loop
            assert loop is not None
            loop.call_soon_threadsafe(clock.advance, 45)  # past the turn's end either way: 30 s, or 45 on the round's first turn
            child.expect("Your time ran out: the server played ")
            child.expect("Your move: ")
            child.sendline("1")  # the first move of this turn, typed at its prompt
            child.expect(r"You played |there is no move|is not a card")
            assert child.after == "You played ", child.before + child.after
        finally:
            child.terminate(force=True)
