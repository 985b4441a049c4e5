"""`scopa local --record` and `scopa replay FILE --check / --plain` (docs/RECORDS.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.protocol.record import RecordError, parse_record

from paths import ROOT

ENV = dict(os.environ, TERM="dumb", COLUMNS="160", LC_ALL="", LC_MESSAGES="", LANG="C.UTF-8")


def scopa(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scopa.cli", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, env=dict(ENV, LANG=lang), cwd=ROOT)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    done = scopa("local", "--seats", "greedy,random", "--seed", "12", "--record", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"record written to {path}" in " ".join(done.stdout.split())
    return path


def test_a_local_game_record_checks_out(recorded: Path) -> None:
    done = scopa("replay", str(recorded), "--check")
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("consistent:")
    data = json.loads(recorded.read_text())
    assert [p["kind"] for p in data["players"]] == ["bot", "bot"]
    assert [p["strategy"] for p in data["players"]] == ["greedy", "random"]
    assert data["seed"] == 12


def first_capture(data: dict) -> tuple[int, int]:
    for r, rnd in enumerate(data["rounds"]):
        for a, action in enumerate(rnd["actions"]):
            if action.get("capture"):
                return r, a
    raise AssertionError("no capture in the game")


def test_a_record_changed_by_one_capture_fails_the_check(recorded: Path, tmp_path: Path) -> None:
    data = json.loads(recorded.read_text())
    r, a = first_capture(data)
    play = data["rounds"][r]["actions"][a]
    play["capture"] = []  # R13: a card that can capture may not be laid instead
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    done = scopa("replay", str(changed), "--check")
    assert done.returncode == 1
    out = " ".join(done.stdout.split())
    assert f"inconsistent: round {data['rounds'][r]['number']}, action {a + 1}" in out
    assert "illegal" in out and "Traceback" not in done.stderr


def test_a_capture_of_a_card_not_on_the_table_fails_the_check(recorded: Path, tmp_path: Path) -> None:
    data = json.loads(recorded.read_text())
    r, a = first_capture(data)
    play = data["rounds"][r]["actions"][a]
    elsewhere = next(c for c in data["rounds"][r]["deck"] if c not in play["capture"] and c != play["card"])
    play["capture"] = [elsewhere]
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    done = scopa("replay", str(changed), "--check")
    assert done.returncode == 1 and f"action {a + 1}" in done.stdout


def test_the_plain_log_shows_every_round_and_the_result(recorded: Path) -> None:
    done = scopa("replay", str(recorded), "--plain")
    assert done.returncode == 0
    data = json.loads(recorded.read_text())
    lines = done.stdout.splitlines()
    assert sum(1 for line in lines if line.startswith("Round ")) == len(data["rounds"])
    winner = data["players"][data["result"]["winner"]]["name"]
    assert lines[-1].startswith(f"Game over: {winner} won")
    assert sum(1 for line in lines if line.startswith("  hands: ")) >= len(data["rounds"])


def test_the_plain_log_speaks_italian_on_every_line_under_an_italian_locale(recorded: Path) -> None:
    english = scopa("replay", str(recorded), "--plain").stdout.splitlines()
    italian = scopa("replay", str(recorded), "--plain", lang="it_IT.UTF-8").stdout.splitlines()
    assert len(italian) == len(english) > 20
    same = [line for en, line in zip(english, italian) if line.strip() and line == en]
    assert same == []  # every line with words has its Italian (names and cards alone stay)
    data = json.loads(recorded.read_text())
    assert sum(1 for line in italian if line.startswith("Smazzata ")) == len(data["rounds"])
    winner = data["players"][data["result"]["winner"]]["name"]
    assert italian[-1].startswith(f"Partita finita: vince {winner} ")
    assert italian[1].startswith("Giocata: ") and italian[2].startswith("Giocatori: ")
    assert italian[2] == "Giocatori: Bot 1 (avido), Bot 2 (casuale)", italian[2]  # one label each, as the board says


def test_replay_without_a_terminal_prints_the_log(recorded: Path) -> None:
    assert scopa("replay", str(recorded)).stdout == scopa("replay", str(recorded), "--plain").stdout


@pytest.mark.parametrize("content,needle", [
    ("{", "not JSON"),
    ('{"format": 2}', "format 1"),
    ('{"format": 1, "rules": {}}', "not a valid record"),
])
def test_replay_refuses_a_file_that_is_not_a_record(tmp_path: Path, content: str, needle: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    for mode in ("--check", "--plain"):
        done = scopa("replay", str(bad), mode)
        assert done.returncode == 2 and needle in done.stdout and "Traceback" not in done.stderr


def test_replay_refuses_hostile_files_at_once_with_one_line(tmp_path: Path, recorded: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    huge = tmp_path / "huge.json"  # a real record padded past the size bound with whitespace
    huge.write_text(recorded.read_text() + " " * (33 * 1024 * 1024))
    for path, needle in ((deep, "nested far too deeply"), (huge, "too large")):
        done = scopa("replay", str(path), "--check")
        assert done.returncode == 2, done.stdout + done.stderr
        assert needle in done.stdout and "Traceback" not in done.stderr + done.stdout
        assert len(done.stdout.strip().splitlines()) == 1
    with pytest.raises(RecordError, match="nested far too deeply"):  # deep inside a record's own fields
        parse_record('{"format": 1, "rules": ' + '{"a": ' * 200_000 + "1" + "}" * 200_001)


def test_replay_of_a_missing_file_and_record_to_a_missing_folder_are_refused(tmp_path: Path) -> None:
    done = scopa("replay", str(tmp_path / "nope.json"), "--check")
    assert done.returncode == 2 and "cannot read" in done.stdout
    done = scopa("local", "--seats", "greedy,random", "--record", str(tmp_path / "no" / "where.json"))
    assert done.returncode == 2 and "cannot write a record" in done.stdout


def test_replay_in_a_terminal_steps_through_the_game(recorded: Path) -> None:
    import pexpect

    rounds = len(json.loads(recorded.read_text())["rounds"])
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40")
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "replay", str(recorded)], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=30, dimensions=(40, 120))
    try:
        child.expect(f"Round 1/{rounds}")
        child.send("n")
        child.expect(f"Round 2/{rounds}")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_the_plain_local_games_last_line_is_a_sentence_in_italian() -> None:
    """As the full-screen client says it: "Mescolata numero 5: …", capitalised."""
    done = scopa("local", "--seats", "greedy,random", "--seed", "5", lang="it_IT.UTF-8")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "Mescolata numero 5: per rigiocarla, --seed 5", done.stdout[-300:]


def test_the_check_counts_the_steps_the_viewer_shows(recorded: Path) -> None:
    """--check says as many steps as the viewer's "step 1/N" counts (the game's end included)."""
    import re

    import pexpect

    checked = re.search(r"(\d+) steps", scopa("replay", str(recorded), "--check").stdout)
    assert checked is not None
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="160", LINES="40")
    child = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "replay", str(recorded)], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=30, dimensions=(40, 160))
    try:
        child.expect(r"step 1/(\d+)")
        shown = child.match.group(1)
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert checked.group(1) == shown, (checked.group(0), shown)
