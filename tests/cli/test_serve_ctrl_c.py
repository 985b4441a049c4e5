"""Ctrl-C at the terminal of `scopa serve` ends it quietly, wherever it lands: while the
command still loads ("bye", or nothing yet), once it serves ("server stopped", status
0), and during a game against a bot that thinks in the server's worker processes
(which the terminal's Ctrl-C reaches too: they must not print a KeyboardInterrupt of
their own).  Each server runs at a pseudo-terminal of its own, so ^C there is the
signal a person's Ctrl-C sends to the whole foreground process group."""

from __future__ import annotations

import asyncio
import io
import os
import re
from pathlib import Path

import pexpect
import pytest

from procs import ROOT, SCOPA, end_child
from scopa.bots import GreedyBot
from scopa.client.net import ClientSession
from scopa.protocol import Command
from scopa.protocol import commands as wire

pytestmark = pytest.mark.process

SAFETY = 60  # seconds: a safety net only
NOISE = ("Traceback", "KeyboardInterrupt", "Exception ignored")


def serve(home: Path, *args: str, python: tuple[str, ...] = ()) -> tuple[pexpect.spawn, io.StringIO]:
    """``scopa serve ARGS`` on a free port (``python``: options of the interpreter)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(LANG="C.UTF-8", TERM="dumb", COLUMNS="300", NO_COLOR="1", XDG_DATA_HOME=str(home / "data"),
               XDG_STATE_HOME=str(home / "state"))
    child = pexpect.spawn(SCOPA[0], [*python, *SCOPA[1:], "serve", "--port", "0", "--no-announce", "--admin-token-file",
                                     str(home / "token"), *args], cwd=str(ROOT), env=env, encoding="utf-8",
                          timeout=SAFETY)
    child.logfile_read = shown = io.StringIO()
    return child, shown


def ended_quietly(child: pexpect.spawn, shown: io.StringIO) -> int | None:
    """The child's exit status once it ended (None: ended by the signal itself), its
    output checked for a traceback."""
    child.expect(pexpect.EOF)
    child.close()
    said = shown.getvalue()
    assert not [word for word in NOISE if word in said], said
    return child.exitstatus


def test_ctrl_c_while_the_command_loads_ends_it_quietly(tmp_path: Path) -> None:
    child, shown = serve(tmp_path, python=("-X", "importtime"))  # each module said as it is loaded
    try:
        child.expect(r"\|\s+scopa\.client\r?\n")  # the client's package: most of the command is still to load
        child.sendintr()
        assert ended_quietly(child, shown) == 130
        assert "bye" in shown.getvalue()
    finally:
        end_child(child)


def test_ctrl_c_once_it_serves_says_server_stopped(tmp_path: Path) -> None:
    child, shown = serve(tmp_path, "--db", str(tmp_path / "games.db"))  # the journal's process stops with it
    try:
        child.expect(r"Scopa server on 127\.0\.0\.1:\d+")
        child.sendintr()
        child.sendintr()  # pressed again, impatient: the first one's shutdown still ends as it should
        child.expect(r"\d\d:\d\d:\d\d server stopped")
        assert ended_quietly(child, shown) == 0
        assert shown.getvalue().count("server stopped") == 1, shown.getvalue()  # said once, not again by the console
    finally:
        end_child(child)


def test_ctrl_c_during_a_game_against_a_thinking_bot_stops_its_workers_quietly(tmp_path: Path) -> None:
    child, shown = serve(tmp_path)
    try:
        child.expect(r"listening on 127\.0\.0\.1:(\d+)")
        port = int(child.match.group(1))
        child.expect(r"Scopa server on")

        async def a_game_under_way() -> None:
            session = await ClientSession.connect("127.0.0.1", port, "ada")
            bot_played = asyncio.Event()

            def heard(command: Command) -> None:
                if isinstance(command.body, wire.CardPlayed) and command.body.seat == 1:
                    bot_played.set()  # the bot's worker process is up, and thought

            session.observers.append(heard)
            await session.create_table(fill_with_bots=["hard"])
            playing = asyncio.ensure_future(session.play_game(GreedyBot()))
            try:
                await asyncio.wait_for(bot_played.wait(), SAFETY)
                child.sendintr()  # the whole group: the server and its worker
            finally:
                playing.cancel()
                await session.close()

        asyncio.run(a_game_under_way())
        child.expect(r"\d\d:\d\d:\d\d server stopped")
        assert ended_quietly(child, shown) == 0
        assert shown.getvalue().count("server stopped") == 1, shown.getvalue()  # said once, not again by the console
        assert re.search(r"table \d+: game started", shown.getvalue())
    finally:
        end_child(child)
