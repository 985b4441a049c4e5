"""`scopa play` through a pseudo-terminal (pexpect), typing as a person would."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pexpect
import pytest

from serverthread import ServerThread
from paths import ROOT

ENV = dict(os.environ, TERM="dumb", COLUMNS="160")  # dumb: plain text, no escape codes
MAX_PROMPTS = 400  # a safety net: a game to 11 needs far fewer moves
STATES = tempfile.TemporaryDirectory(prefix="scopa-play-")
"""Where the clients started here keep their seats (each its own; gone when the tests end),
never the user's own state directory."""


def state_dir() -> str:
    """A new, empty state directory for one client."""
    return tempfile.mkdtemp(dir=STATES.name)


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with ServerThread() as s:
        yield s


def spawn(server: ServerThread, *args: str, address: str | None = None) -> pexpect.spawn:
    """``scopa play --plain`` on ``server`` (or at ``address``, e.g. a proxy in front of it),
    with a state directory of its own unless ``args`` give one."""
    state = [] if "--state-dir" in args else ["--state-dir", state_dir()]
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "play", "--plain", "--server", address or server.address,
                                           *state, *args],
                          cwd=str(ROOT), env=ENV, encoding="utf-8", timeout=30, dimensions=(50, 160))
    return child


@contextmanager
def clients(server: ServerThread) -> Iterator[Callable[..., pexpect.spawn]]:
    """``spawn`` on ``server`` for a test's clients, each stopped at its end if still running."""
    started: list[pexpect.spawn] = []

    def start(*args: str) -> pexpect.spawn:
        started.append(spawn(server, *args))
        return started[-1]

    try:
        yield start
    finally:
        for child in started:
            if child.isalive():
                child.terminate(force=True)


def to_the_bots_question(child: pexpect.spawn, lobby: str = "Lobby> ") -> None:
    """From the lobby (its prompt ``lobby``, in the client's language), the create dialog
    with Enter for each default (the game, its players, target, capture mode, other
    options, private, turn timer), up to its question of the bots for the other seats."""
    child.expect(lobby)
    child.sendline("c")
    for _ in range(7):
        child.expect(r"\]: ")
        child.sendline("")


def quit_from_the_lobby(child: pexpect.spawn, lobby: str | None = "Lobby> ", word: str = "q") -> None:
    """``q`` (or ``word``) at the lobby's prompt (``lobby``; None: it was just read): the
    client ends, with status 0."""
    if lobby is not None:
        child.expect(lobby)
    child.sendline(word)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def create_table(child: pexpect.spawn, answers: dict[str, str]) -> None:
    """The lobby's create dialog: Enter for each default unless ``answers`` says otherwise."""
    child.expect("Lobby> ")
    child.sendline("c")
    for label in ("Game", "Players", "Target", "Capture mode", "Other options", "Private table\\?", "Time per move"):
        child.expect(label + r" .*\]: ")
        child.sendline(answers.get(label, ""))
    child.expect("Bot for the other seat")
    child.sendline("greedy")


def play_to_the_end(child: pexpect.spawn) -> int:
    """Answer every "Your move:" with 1 until the game end is shown; the number of moves."""
    for moves in range(MAX_PROMPTS):
        if child.expect(["Your move: ", "Game over"]) == 1:
            return moves
        child.sendline("1")
    raise AssertionError("the game did not end")


def play_the_bots_game(play: pexpect.spawn, bot: pexpect.spawn) -> None:
    """From the lobby, ``play`` joins table 1 (made by ``bot``, a ``scopa bot --games 1``),
    plays the game to its end and quits; the bot ends after its one game."""
    play.expect("Lobby> ")
    play.sendline("j 1")
    play_to_the_end(play)
    play.expect("Lobby> ")
    play.sendline("q")
    play.expect(pexpect.EOF)
    bot.expect("game 1/1")
    bot.expect(pexpect.EOF)


def test_a_person_creates_a_table_with_a_bot_and_plays_a_game(server: ServerThread) -> None:
    child = spawn(server, "--name", "ada", "--deck", "french")
    try:
        create_table(child, {"Other options": "re_bello=true"})
        child.expect(r"Game starts: .*re bello")
        # bad input at the prompt: a hint, and the game goes on
        child.expect("Your move: ")
        child.sendline("xyz")
        child.expect("is not a card .a card is written like")
        child.expect("Your move: ")
        child.sendline("99")
        child.expect("there is no move 99")
        child.expect("Your move: ")
        child.sendline("")
        child.expect("type a move number")
        child.sendline("1")
        moves = play_to_the_end(child)
        assert moves > 3
        child.expect(r"You won!|You lost\.")
        child.expect("Back in the lobby")
        child.expect("finished")  # the table list shows the finished table
        quit_from_the_lobby(child)
        assert "Traceback" not in child.before
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_lobby_bad_input_hints_join_and_ctrl_c(server: ServerThread) -> None:
    child = spawn(server, "--name", "bob")
    try:
        child.expect("Lobby> ")
        child.sendline("dance")
        child.expect("not a lobby command")
        child.sendline("j nope")
        child.expect("Cannot join table 'nope'")
        child.expect("Lobby> ")
        child.sendline("c")
        child.expect(r"Game \[.*\]: ")
        child.sendline("poker")
        child.expect("unknown preset")
        child.expect(r"Game \[.*\]: ")
        child.sendline("")
        child.expect(r"Players .*\]: ")
        child.sendline("5")
        child.expect("choose one of 2, 3, 4, 6")
        child.sendline("6")
        child.expect(r"Target .*\]: ")
        child.sendline("")
        child.expect(r"Capture mode .*\]: ")
        child.sendline("")
        child.expect(r"Other options .*\]: ")
        child.sendline("teams=false")
        child.expect("Those rules do not work")
        child.expect(r"Other options .*\]: ")  # that question again, the others kept
        child.sendline("teams=true")
        for _ in range(2):  # private, turn timer
            child.expect(r"\]: ")
            child.sendline("")
        child.expect("Bots for the 5 other seats")
        child.sendline("robot")
        child.expect("'robot' is not a bot")
        child.sendline("")  # wait for people
        child.expect("Waiting for the other seats")
        child.sendintr()  # Ctrl-C while waiting: out, cleanly
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130
        assert "Traceback" not in child.before
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_two_people_at_one_table(server: ServerThread) -> None:
    ada = spawn(server, "--name", "ada", "--target", "11")
    bob = spawn(server, "--name", "bob")
    try:
        to_the_bots_question(ada)
        ada.expect("for the other seat")
        ada.sendline("")
        ada.expect("Waiting for the other seats")
        bob.expect("Lobby> ")
        bob.sendline("r")
        bob.expect("waiting")
        bob.expect("Lobby> ")
        bob.sendline("j 1")
        bob.expect("You sit at table 1, seat 2")
        players = [ada, bob]
        done = [False, False]
        for _ in range(MAX_PROMPTS):
            if all(done):
                break
            # only the seat to move has a prompt; look at both in turn
            for i, child in enumerate(players):
                if done[i]:
                    continue
                k = child.expect(["Your move: ", "Game over", pexpect.TIMEOUT], timeout=0.2)
                if k == 0:
                    child.sendline("1")
                elif k == 1:
                    done[i] = True
        assert all(done)
        for child in players:
            quit_from_the_lobby(child)
    finally:
        for child in (ada, bob):
            if child.isalive():
                child.terminate(force=True)
