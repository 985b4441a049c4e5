"""Every `scopa` command in the README's shell blocks works as written: the ones that need
nobody at the keyboard are run here (a server on loopback in place of the LAN address);
the others are listed below as needing a person or running until stopped, so a new README
command fails this test until someone decides which it is."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import time
from pathlib import Path

import pytest

from serverthread import ServerThread

from procs import ROOT, SCOPA, finish

README = (ROOT / "README.md").read_text(encoding="utf-8")

# Commands a person drives (the full-screen app, the lobby) or that run until Ctrl-C.
NEEDS_A_PERSON_OR_RUNS_UNTIL_STOPPED = {
    "scopa local",
    "scopa local --lang it",
    "scopa local --seats human,greedy,human,random --name ada,bruno",
    "scopa local --name nonna --seats human,hard",
    "scopa local --rules scopone",
    "scopa local --capture-mode fewest --target 21 -o re_bello=true --seed 7",
    "scopa local --deck french --no-autoplay",
    "scopa serve --port 7015",
    "scopa serve --port 7015 --db scopa.db",
    # the LAN: tests/server/test_lan_netns.py runs these between two network namespaces
    "scopa serve --host 0.0.0.0",
    "scopa play --name ada",
    "scopa servers",
    "scopa serve --port 7015 --db postgresql://scopa@127.0.0.1/scopa",
    "scopa serve --port 7015 --loop uvloop",  # tests/cli/test_cli_bot.py serves a game on uvloop
    # tests/server/test_prometheus.py scrapes --metrics, tests/server/test_json_log.py reads --log-format json
    "scopa serve --port 7015 --db scopa.db --metrics 127.0.0.1:9715 --log-format json",
    # the journal's own commands, on a database (tests/server/journal/test_journal_admin.py)
    "scopa admin migrate --db postgresql://scopa@127.0.0.1/scopa",
    "scopa admin export --db scopa.db > games.jsonl",
    "scopa admin import --db postgresql://scopa@127.0.0.1/scopa < games.jsonl",
    "scopa admin damaged --db scopa.db",  # tests/server/journal/test_move_log.py lists a table damaged in the move file
    "scopa watch --server 192.168.1.10:7015 --table 3",
    "scopa play --invite 7.Xq3vR0aT2m-k9LbZ_c8Ew1yH",  # a host's private table: tests/cli/test_cli_invite.py
    "scopa bot --strategy greedy --games 5 --delay 0.5",  # paced to be followed: minutes by design
    "scopa serve --host 0.0.0.0 --web 8000",  # tests/client/web/test_web_client.py plays on its web front
    # TLS: tests/server/core/test_tls_netns.py serves so between two namespaces, tests/cli/test_tls_cli.py plays over tls://
    "scopa serve --host 0.0.0.0 --web 8000 --tls self-signed",
    "scopa bot --server tls://127.0.0.1:7015 --fill-with-bots greedy --games 1",
    # game records: a server with finished games or a record file (tests/cli/test_records_cli.py)
    "scopa games --server HOST:PORT [--player NAME]",
    "scopa leaderboard --server HOST:PORT [--rules PRESET]",
    "scopa local --seats greedy,random --record game.json",
    "scopa record --server HOST:PORT GAME_ID -o game.json",
    "scopa replay game.json",
    "scopa replay game.json --check",
    "scopa replay game.json --plain",
    "scopa replay --server HOST:PORT GAME_ID",
    # the operator's commands: a running server and its token file (tests/server/test_admin.py)
    "scopa admin --server 127.0.0.1:7015 tables",
    "scopa admin --server 127.0.0.1:7015 connections",
    "scopa admin --server 127.0.0.1:7015 damaged",
    "scopa admin --server 127.0.0.1:7015 kick bob",
    "scopa admin --server 127.0.0.1:7015 close 12",
    "scopa admin --server 127.0.0.1:7015 stop",
    # quick play and tournaments need a server and players: tests/server/club/test_club_cli.py runs them against one
    "scopa tournament create Coppa --rounds 3 --cap 16",
    "scopa tournament list",
    "scopa tournament join c1",
    "scopa tournament start c1",
    "scopa tournament standings c1",
    "scopa tournament list --finished",
    "scopa bot --tournament c1 --strategy expert",
    "scopa arena expert greedy-v1 --deals 1000",  # minutes of search; tests/cli/test_arena_cli.py runs the arena
    "scopa arena expert greedy-v1 --deals 200 --ceiling",  # minutes of search, the cheater beside
}


def readme_commands() -> list[str]:
    """The `scopa …` lines of the README's shell blocks, comments and redirections cut."""
    out = []
    for block in re.findall(r"```(?:sh|bash)\n(.*?)```", README, flags=re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if "&&" in line:
                line = line.rsplit("&&", 1)[1].strip()
            if line.startswith("scopa "):
                out.append(line)
    return out


def run_cli(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    words = shlex.split(command)
    redirect = None
    if ">" in words:
        i = words.index(">")
        redirect, words = cwd / words[i + 1], words[:i]
    done = subprocess.run([*SCOPA, *words[1:]], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=120, cwd=cwd, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if redirect is not None:
        redirect.write_text(done.stdout)
    return done


def test_every_readme_command_is_run_here_or_known_to_need_a_person() -> None:
    runnable = {c for c in readme_commands() if c not in NEEDS_A_PERSON_OR_RUNS_UNTIL_STOPPED}
    assert runnable == set(RUN_HERE)
    assert NEEDS_A_PERSON_OR_RUNS_UNTIL_STOPPED <= set(readme_commands())


RUN_HERE = [
    "scopa rules",
    "scopa rules cirulla",
    "scopa options",
    "scopa local --seats greedy,random --seed 3 > game.log",
    "scopa local --seats greedy,random --delay 0.3",
    "scopa bot --bot mybot.py:FirstMove --games 10",
    "scopa arena mybot.py:FirstMove greedy --rules scopone --workers 2 --json",
    "scopa rules --lang it",
]


@pytest.mark.parametrize("command", [*RUN_HERE[:4], RUN_HERE[-1]])
def test_a_readme_command_that_needs_nobody_runs_as_written(command: str, tmp_path: Path) -> None:
    done = run_cli(command, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    if "game.log" in command:
        log = (tmp_path / "game.log").read_text()
        assert "Game over" in log and "seed 3" in log
        assert "Game starts: Scopa, 2p, to 11" in log and "custom" not in log  # the ordinary game is Scopa


def test_watching_two_bots_in_a_file_has_no_pauses_and_ends(tmp_path: Path) -> None:
    done = run_cli(RUN_HERE[4], tmp_path)
    assert done.returncode == 0 and "Game over" in done.stdout


def first_move_module(tmp_path: Path) -> None:
    """The README's bot, saved as mybot.py."""
    code = re.search(r"```python\n(.*?)```", README, flags=re.S)
    assert code is not None
    (tmp_path / "mybot.py").write_text(code.group(1))


def test_the_readme_bot_and_a_builtin_bot_play_each_other_on_a_loopback_server(tmp_path: Path) -> None:
    first_move_module(tmp_path)
    with ServerThread() as server:
        procs = []
        for command in (RUN_HERE[5], "scopa bot --strategy greedy --games 10 --delay 0.02"):  # its opponent
            words = shlex.split(command)[1:] + ["--server", server.address]
            procs.append(subprocess.Popen([*SCOPA, *words], cwd=tmp_path, text=True, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONPATH=str(ROOT))))
            deadline = time.monotonic() + 30
            while not server.engine.tables and time.monotonic() < deadline:  # one table, not two
                time.sleep(0.05)
        results = [finish(p) for p in procs]
    for code, out in results:
        assert code == 0, out
        assert "game 10/10" in out and "Traceback" not in out


def test_the_readme_bot_plays_in_the_arena(tmp_path: Path) -> None:
    first_move_module(tmp_path)
    done = run_cli(RUN_HERE[6], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["a"] == "mybot.py:FirstMove" and summary["rules"].startswith("scopone, 4p teams")
