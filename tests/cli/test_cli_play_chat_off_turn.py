"""`scopa play --plain`, two people at a table: a chat line typed while it is the other's
turn goes to the table at once (the other reads it before moving), not at one's next turn."""

from __future__ import annotations

import pexpect
import pytest

from serverthread import ServerThread
from test_cli_play import server, spawn, to_the_bots_question  # noqa: F401 - the server fixture

pytestmark = pytest.mark.process


def test_chat_typed_off_turn_is_sent_at_once(server: ServerThread) -> None:  # noqa: F811
    ada = spawn(server, "--name", "ada", "--target", "11")
    bob = spawn(server, "--name", "bob")
    try:
        to_the_bots_question(ada)
        ada.expect("for the other seat")
        ada.sendline("")
        ada.expect("Waiting for the other seats")
        bob.expect("Lobby> ")
        bob.sendline("j 1")
        bob.expect("You sit at table 1, seat 2")
        mover = None
        for _ in range(100):
            for child, other in ((ada, bob), (bob, ada)):
                if child.expect(["Your move: ", pexpect.TIMEOUT], timeout=0.2) == 0:
                    mover, waiter = child, other
                    break
            if mover is not None:
                break
        assert mover is not None
        waiter.sendline("!forza ragazzi")  # not the waiter's turn: the mover has not moved
        name = "ada" if waiter is ada else "bob"
        mover.expect(f"{name}: forza ragazzi", timeout=10)  # heard before the mover moves
    finally:
        for child in (ada, bob):
            if child.isalive():
                child.terminate(force=True)
