"""`scopa play --plain` keeps its seat as the full-screen client does: stopped with
Ctrl+C in the middle of a game and started again with the same name (and state
directory), it says there is an unfinished game, goes back to the same seat of the same
table and plays the game to its end; then nothing is kept.  Through a pseudo-terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect
import pytest

from serverthread import ServerThread
from test_cli_play import clients, create_table, play_to_the_end, quit_from_the_lobby

pytestmark = pytest.mark.process


def saved_seats(state: Path) -> dict[str, dict[str, object]]:
    path = state / "seats.json"
    return json.loads(path.read_text()) if path.exists() else {}


def stopped_mid_game(first: pexpect.spawn, say: str = "") -> None:
    """``first`` (ada) makes a table against a bot and, at her first move (after saying
    ``say`` at the table, when given), is stopped with Ctrl+C."""
    create_table(first, {})
    first.expect("Your move: ")
    if say:
        first.sendline("!" + say)
        first.expect("ada: " + say)
    first.sendintr()
    first.expect(pexpect.EOF)
    first.close()
    assert first.exitstatus == 130


def test_the_plain_client_goes_back_to_its_game_after_ctrl_c(tmp_path: Path) -> None:
    with ServerThread() as server, clients(server) as spawn:
        stopped_mid_game(spawn("--name", "ada", "--state-dir", str(tmp_path)))
        seat = saved_seats(tmp_path)[f"ada@{server.address}"]  # kept while the game is on
        assert (seat["table"], seat["seat"]) == ("1", 0)

        second = spawn("--name", "ada", "--state-dir", str(tmp_path))
        second.expect(r"You have an unfinished game at table 1 on 127\.0\.0\.1:\d+ \(seat 1, as ada\)")
        second.expect(r"Go back to it\? \(y/n\) \[y\]: ")
        second.sendline("")  # Enter: yes
        second.expect("You are back at table 1, seat 1: the game goes on.")
        second.expect("Your move: ")
        # a game under way: no start-of-game lines again
        assert "Waiting for the other seats" not in second.before and "Game starts" not in second.before, second.before
        second.sendline("1")
        assert play_to_the_end(second) >= 0
        second.expect(r"You won!|You lost\.")
        second.expect("Back in the lobby")
        second.expect("Lobby> ")
        assert saved_seats(tmp_path) == {}  # the game is over: nothing to go back to
        quit_from_the_lobby(second, lobby=None)
        assert "Traceback" not in second.before and "table is full" not in second.before


def test_a_seat_that_is_gone_is_said_and_forgotten(tmp_path: Path) -> None:
    """A kept seat the server no longer has (its game over, or another server): said
    in Italian, forgotten, and the lobby opens as usual."""
    with ServerThread() as server, clients(server) as spawn:
        (tmp_path / "seats.json").write_text(json.dumps({f"ada@{server.address}": {
            "server": server.address, "name": "ada", "table": "9", "seat": 1, "token": "x" * 32}}))
        child = spawn("--name", "ada", "--state-dir", str(tmp_path), "--lang", "it")
        child.expect(r"Hai una partita in sospeso al tavolo 9")
        child.expect(r"Vuoi tornarci\? \(s/n\) \[s\]: ")
        child.sendline("s")
        child.expect("Quella partita è finita o non c'è più")
        child.expect("Sala> ")
        assert saved_seats(tmp_path) == {}
        child.sendline("q")
        child.expect(pexpect.EOF)


def test_no_gives_the_seat_up_at_the_server_and_keeps_the_name(tmp_path: Path) -> None:
    """Stopped mid-game and started again, ``n`` leaves the table for real (a game against
    a bot only: it ends there) rather than only forgetting the seat: said, and the person
    connects under their own name, not renamed because the old seat still held it."""
    with ServerThread() as server, clients(server) as spawn:
        stopped_mid_game(spawn("--name", "ada", "--state-dir", str(tmp_path)))

        second = spawn("--name", "ada", "--state-dir", str(tmp_path))
        second.expect(r"Go back to it\? \(y/n\) \[y\]: ")
        second.sendline("n")
        second.expect("You left the game at table 1: it ended there, with no winner.")
        second.expect(r"Connected to 127\.0\.0\.1:\d+ as (\S+)\.")
        assert second.match[1] == "ada"
        second.expect("Lobby> ")
        assert saved_seats(tmp_path) == {}
        second.sendline("q")
        second.expect(pexpect.EOF)


def test_the_table_chat_comes_back_with_the_seat(tmp_path: Path) -> None:
    """What was said at the table before the client stopped is shown again when it goes
    back to its seat (the server's ``joined.chat``)."""
    with ServerThread() as server, clients(server) as spawn:
        stopped_mid_game(spawn("--name", "ada", "--state-dir", str(tmp_path)), say="buona fortuna a tutti")

        second = spawn("--name", "ada", "--state-dir", str(tmp_path))
        second.expect(r"Go back to it\? \(y/n\) \[y\]: ")
        second.sendline("")
        second.expect("You are back at table 1, seat 1: the game goes on.")
        second.expect("Said at the table so far:")
        second.expect("ada: buona fortuna a tutti")
        second.expect("Your move: ")
