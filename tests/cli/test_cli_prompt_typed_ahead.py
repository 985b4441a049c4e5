"""The plain move prompt reads only what is typed once it is up: Enters pressed while the
other player moved are not answers (no hint printed once per Enter at the next prompt),
but a chat line typed then is said to the table; and the hint to a line that is not a move keeps its example whole on an 80-column
terminal.  Through pseudo-terminals, in Italian."""

from __future__ import annotations

import pexpect
import pytest
from rich.console import Console

from scopa.client.console.tablewords import example_whole
from scopa.client.text import i18n, tr

from serverthread import ServerThread
from test_cli_play import spawn, to_the_bots_question

pytestmark = pytest.mark.process

PROMPT = "La tua mossa: "
HINT = "scrivi il numero di una mossa"


def first_to_move(*children: pexpect.spawn) -> tuple[pexpect.spawn, pexpect.spawn]:
    """The player whose move prompt comes up first, and the other (its prompt is not up)."""
    for _ in range(200):
        for i, child in enumerate(children):
            if child.expect([PROMPT, pexpect.TIMEOUT], timeout=0.1) == 0:
                return child, children[1 - i]
    raise AssertionError("no move prompt came")


def two_at_a_table(server: ServerThread) -> tuple[pexpect.spawn, pexpect.spawn]:
    """ada's table for two people, bea sat at it: both clients in Italian."""
    ada = spawn(server, "--name", "ada", "--lang", "it")
    to_the_bots_question(ada, lobby="Sala> ")
    ada.expect("Bot per")
    ada.sendline("none")  # the other seat for a person
    bea = spawn(server, "--name", "bea", "--lang", "it")
    bea.expect("Sala> ")
    bea.sendline("j 1")
    return ada, bea


def stop(*children: pexpect.spawn) -> None:
    for child in children:
        if child.isalive():
            child.terminate(force=True)


def test_chat_typed_while_the_other_player_moves_is_said() -> None:
    with ServerThread() as server:
        ada, bea = two_at_a_table(server)
        try:
            mover, waiter = first_to_move(ada, bea)
            name = "ada" if waiter is ada else "bea"
            waiter.send("!ciao nonna, tocca a te\r")  # no prompt waits for it
            mover.sendline("1")
            waiter.expect(PROMPT)
            mover.expect(f"{name}: ciao nonna, tocca a te", timeout=10)
        finally:
            stop(ada, bea)


def test_enters_typed_while_the_other_player_moves_are_dropped() -> None:
    with ServerThread() as server:
        ada, bea = two_at_a_table(server)
        try:
            mover, waiter = first_to_move(ada, bea)
            waiter.send("\r\r\r")  # impatient Enters while the other one thinks
            mover.sendline("1")
            waiter.expect(PROMPT)
            waiter.sendline("?")
            waiter.expect("Al prompt puoi scrivere")
            assert HINT not in waiter.before, waiter.before
        finally:
            stop(ada, bea)


def test_the_hint_keeps_its_example_whole_at_80_columns(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    hint = tr("type a move number, or a card such as 7d (add the cards to take: 7d 3c 4s)")
    console = Console(width=80, record=True, color_system=None)
    console.print(example_whole(hint, console.width))
    lines = console.export_text().splitlines()
    assert any(line.endswith("7d 3c 4s)") and "(" in line for line in lines), lines
