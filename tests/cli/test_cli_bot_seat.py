"""`scopa play --plain` in Italian when the other person leaves a running game: a bot
plays their seat on, and the board and the plays name it so ("bruno (bot)"), driven
through a pseudo-terminal as a person plays."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Iterator

import pexpect
import pytest

from scopa.client.net import ClientSession
from scopa.engine import RuleSet

from paths import ROOT
from serverthread import ServerThread
from test_cli_play import state_dir, to_the_bots_question

pytestmark = pytest.mark.process


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with ServerThread() as s:
        yield s


def bruno_hosts_then_leaves(server: ServerThread, seated: threading.Event) -> None:
    """bruno opens a table, waits for its game to start, then leaves it."""
    async def run() -> None:
        async with await ClientSession.connect(server.host, server.port, "bruno") as bruno:
            await bruno.create_table(RuleSet.build("scopa"))
            seated.set()
            assert await bruno.wait_for_game_start(60)
            await bruno.leave_table()

    asyncio.run(run())


def plain_ada_in_italian(server: ServerThread) -> pexpect.spawn:
    """``scopa play --plain`` as ada, in Italian, on a wide pty."""
    env = dict(os.environ, TERM="dumb", COLUMNS="160", LANG="it_IT.UTF-8")
    env.pop("LC_ALL", None)
    return pexpect.spawn(sys.executable, ["-m", "scopa.cli", "play", "--plain", "--server", server.address,
                                          "--name", "ada", "--state-dir", state_dir()], cwd=str(ROOT), env=env,
                         encoding="utf-8", timeout=30, dimensions=(50, 160))


def test_the_plain_client_names_a_seat_a_bot_took_over(server: ServerThread) -> None:
    seated = threading.Event()
    host = threading.Thread(target=bruno_hosts_then_leaves, args=(server, seated), daemon=True)
    host.start()
    assert seated.wait(30)
    ada = plain_ada_in_italian(server)
    try:
        ada.expect("Sala> ")
        ada.sendline("j 1")
        for _ in range(40):  # answer each move until the board names bruno's seat as a bot's
            if ada.expect(["La tua mossa: ", r"bruno \(bot\)"]) == 1:
                break
            ada.sendline("1")
        else:
            raise AssertionError("bruno's seat was never named a bot's")
        ada.expect("La tua mossa: ")
        ada.sendline("1")
        ada.expect(r"bruno \(bot\)")
    finally:
        ada.terminate(force=True)
    host.join(30)


def test_the_plain_client_names_a_servers_bot_in_words(server: ServerThread) -> None:
    """"Bot 1 (medio)", in the lobby's list and in the game, never "greedy-bot-1"."""
    ada = plain_ada_in_italian(server)
    try:
        to_the_bots_question(ada, lobby="Sala> ")
        ada.expect("Bot per ")
        ada.sendline("greedy")
        ada.expect("La tua mossa: ")
        assert "Bot 1 (medio)" in ada.before and "greedy-bot" not in ada.before
        ada.sendline("1")
        ada.expect("Bot 1 \\(medio\\) ha giocato")
        assert "greedy-bot" not in ada.before
    finally:
        ada.terminate(force=True)
