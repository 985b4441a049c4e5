"""`scopa play --plain` at a round's end shows what the full-screen client's round box
shows, from the same home (``round_parts``): each category's raw numbers (cards, denari,
settebello, primiera, scope) with who takes its point, the round's points and the game's
running total ("0 → 3")."""

from __future__ import annotations

import re

import pexpect
import pytest

from serverthread import ServerThread
from test_cli_play import MAX_PROMPTS, create_table, server, spawn  # noqa: F401 - the server fixture

pytestmark = pytest.mark.process


def test_the_round_end_shows_the_full_screen_clients_round_box(server: ServerThread) -> None:
    child = spawn(server, "--name", "ada")
    try:
        create_table(child, {})
        for _ in range(MAX_PROMPTS):
            if child.expect(["Your move: ", r"\n +Round 1 *\r\n"]) == 1:  # the round table's title
                break
            child.sendline("1")
        child.expect(r"Game \(to 11\)")
        box = child.before
        child.expect("\n")
        totals = child.before
        for row in ("Cards", "Denari", "Settebello", "Primiera", "Scope", "Round points"):
            assert re.search(rf"│ {row} +│", box), box
        assert re.search(r"┃ +You ┃", box), box  # the person's side, as the board names it
        assert re.search(r"\+1", box), box  # who takes a category's point
        assert len(re.findall(r"0 → \d+", totals)) == 2, totals  # the running total of each side
    finally:
        child.terminate(force=True)
