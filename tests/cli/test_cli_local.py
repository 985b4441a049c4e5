"""`scopa local`: bots-only games need no input; a person plays through a pty."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from scopa.client.text import parse_choice
from scopa.engine import Declare, DeclarationKind, Play, mask_of, parse_cards

from paths import ROOT
from procs import end_child

ENV = dict(os.environ, TERM="dumb", COLUMNS="160")
CLI = [sys.executable, "-m", "scopa.cli", "local"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=120, env=ENV, cwd=ROOT)


@pytest.mark.parametrize("seats,extra", [
    ("greedy,random", []),
    ("greedy,random,greedy,random", ["--players", "4"]),  # R5: 2 v 2
    ("random,greedy,random", ["--players", "3", "--rules", "quindici"]),
])
def test_a_game_of_bots_runs_to_the_end_with_no_input(seats: str, extra: list[str]) -> None:
    done = run("--seats", seats, "--seed", "3", *extra)
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout and "Round score" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_the_same_seed_gives_the_same_game() -> None:
    a, b = run("--seats", "greedy,random", "--seed", "9"), run("--seats", "greedy,random", "--seed", "9")
    assert a.stdout == b.stdout


def test_nonsense_rules_and_seats_are_refused_with_a_message() -> None:
    bad = run("--rules", "cirulla", "-o", "napola=true", "--seats", "greedy,random")
    assert bad.returncode == 2 and "napola" in bad.stdout and "Traceback" not in bad.stderr
    wrong = run("--players", "2", "--seats", "greedy,random,random")
    assert wrong.returncode == 2 and "3 seats" in wrong.stdout
    five = run("--seats", "greedy,random,random,greedy,random")
    assert five.returncode == 2 and "5 seats" in five.stdout
    alone = run("--seats", "expert")  # the opponent alone: the message says how to sit against it
    assert alone.returncode == 2 and "names 1 seat;" in alone.stdout and "--seats human,expert" in alone.stdout


def test_seats_alone_decide_the_player_count_R5() -> None:
    done = run("--seats", "greedy,random,greedy,random", "--seed", "4")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Seats: Bot 1 (greedy), Bot 2 (random), Bot 3 (greedy), Bot 4 (random)" in done.stdout and "Game over" in done.stdout


def test_a_person_seated_with_output_not_a_terminal_gets_a_clear_message() -> None:
    done = run("--seats", "human,greedy", "--seed", "1")
    assert done.returncode == 2
    assert "not a terminal" in done.stdout and "--seats greedy,random" in done.stdout


def test_a_person_plays_a_whole_game_with_the_plain_interface() -> None:
    child = pexpect.spawn(sys.executable, [*CLI[1:], "--plain", "--seed", "5", "--deck", "french", "--name", "ada"], cwd=str(ROOT),
                          env=ENV, encoding="utf-8", timeout=30, dimensions=(50, 160))
    try:
        child.expect("Your move: ")
        child.sendline("xyz")
        child.expect("is not a card .a card is written like")
        child.sendline("99")
        child.expect("there is no move 99")
        for _ in range(400):
            if child.expect(["Your move: ", "Game over"]) == 1:
                break
            child.sendline("1")
        else:
            raise AssertionError("the game did not end")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_parse_choice_reads_numbers_cards_and_captures_R15() -> None:
    legal = [Play(int(parse_cards("6d")[0]), mask_of(parse_cards("6c"))),
             Play(int(parse_cards("6d")[0]), mask_of(parse_cards("2s 4b"))),
             Play(int(parse_cards("Ab")[0]), 0),
             Declare(DeclarationKind.UNDER_TEN)]
    assert parse_choice("2", legal) == legal[1]
    assert parse_choice("Ab", legal) == legal[2]
    assert parse_choice("6d 4b 2s", legal) == legal[1]  # the order of the taken cards is free
    assert "different sets" in parse_choice("6d", legal)  # a choice must be made (R15)
    assert "is not in your hand; you hold 6 Den, A Bas" in parse_choice("7d", legal)
    assert "no capture of 3 Cop with 6 Den; allowed: 6 Den 6 Cop · 6 Den 2 Spa 4 Bas" in parse_choice("6d 3c", legal)
    assert "no move 9" in parse_choice("9", legal)
    assert "not a card" in parse_choice("zz", legal)


def test_in_a_terminal_scopa_local_is_the_full_screen_app_and_ctrl_c_leaves_with_0(tmp_path: Path) -> None:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    record = tmp_path / "game.json"
    child = pexpect.spawn(sys.executable, [*CLI[1:], "--seed", "5", "--name", "ada", "--record", str(record)], cwd=str(ROOT), env=env,
                          encoding="utf-8", timeout=30, dimensions=(24, 80))
    try:
        child.expect("Your turn")
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
        output = child.before
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "\x1b[?1049l" in output  # the terminal's normal screen is back
    assert "replay with --seed 5" in output and "Traceback" not in output
    assert "no record written: the game was left before its end" in output and not record.exists()


def test_a_seat_can_be_your_own_bot_by_path_with_its_case_kept(tmp_path: Path) -> None:
    """``--seats path/to/MyBot2.py:Taker,greedy``: the path and the class keep their case
    (the built-in kinds are still read in any case)."""
    (tmp_path / "MyBot2.py").write_text(
        "from scopa.bots import Bot\n"
        "class Taker(Bot):\n"
        "    def pick(self, view, legal):\n"
        "        return legal[-1]\n"
    )
    done = run("--seats", f"{tmp_path}/MyBot2.py:Taker,GREEDY", "--seed", "5", "--record", str(tmp_path / "g.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Seats: Taker 1, Bot 2 (greedy)" in done.stdout and "Game over" in done.stdout
    assert '"strategy":"MyBot2.py:Taker"' in (tmp_path / "g.json").read_text().replace(" ", "")
    wrong = run("--seats", f"{tmp_path}/MyBot2.py:taker,greedy")
    assert wrong.returncode == 2 and "no class 'taker'" in wrong.stdout


def test_every_built_in_strategy_and_level_can_sit_and_the_cheater_cannot() -> None:
    from scopa.bots import STRATEGIES
    from scopa.cli import build_parser
    from scopa.client.seats import parse_seats

    for kind in STRATEGIES:
        assert parse_seats(f"human,{kind}", 2) == ["human", kind]
        assert build_parser().parse_args(["bot", "--strategy", kind]).strategy == kind
    with pytest.raises(ValueError, match="unknown seat kind 'cheater'"):
        parse_seats("human,cheater", 2)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bot", "--strategy", "cheater"])


def test_in_italian_the_line_after_the_app_is_italian_too() -> None:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24", LANG="it_IT.UTF-8")
    env.pop("LC_ALL", None), env.pop("LC_MESSAGES", None)
    child = pexpect.spawn(sys.executable, [*CLI[1:], "--seed", "5"], cwd=str(ROOT), env=env,
                          encoding="utf-8", timeout=30, dimensions=(24, 80))
    try:
        child.expect("Il tuo nome ai tavoli")  # asked first, as scopa play asks it
        child.send("\r")  # Enter: the login name
        child.expect("Tocca a te")
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
        output = child.before
    finally:
        child.close()
    assert "Partita lasciata.\r\nMescolata numero 5: per rigiocarla, --seed 5" in output and "replay with" not in output
    assert "seed 5:" not in output.lower()  # the word is the option's only


def test_the_plain_game_asks_the_persons_name_as_scopa_play_asks_it() -> None:
    child = pexpect.spawn(sys.executable, [*CLI[1:], "--plain", "--seed", "5"], cwd=str(ROOT),
                          env=dict(ENV, LOGNAME="zio"), encoding="utf-8", timeout=30, dimensions=(50, 160))
    try:
        child.expect(r"Your name at the tables \(Enter: zio\): ")
        child.sendline("Nonna Pina")
        child.expect_exact("cannot be a name: a name has no spaces. Try Nonna_Pina or NonnaPina.")
        child.expect(r"Your name at the tables \(Enter: zio\): ")
        child.sendline("nonna")
        child.expect(r"Seats: nonna, Bot 1 \(greedy\)")
        child.expect("Your move: ")
    finally:
        end_child(child)


def test_names_given_on_the_command_line_are_checked_and_seat_the_people() -> None:
    spaced = run("--plain", "--name", "Nonna Pina")
    assert spaced.returncode == 2 and "Try --name Nonna_Pina" in spaced.stdout, spaced.stdout
    many = run("--plain", "--name", "ada,bruno")
    assert many.returncode == 2 and "--name gives 2 names, but the table has 1 seat(s) for people" in " ".join(many.stdout.split())
    hot = run("--plain", "--seats", "human,greedy,human,random", "--name", "ada,bruno", "--seed", "2")
    assert "Seats: ada, Bot 1 (greedy), bruno, Bot 2 (random)" in hot.stdout, hot.stdout  # then no input: it ends
