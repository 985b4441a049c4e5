"""`scopa games`, `scopa record` and `scopa leaderboard` against a real server with a
database (loopback), and their refusals of bad input."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from scopa.bots import GreedyBot, RandomBot
from scopa.client.net import ClientSession
from scopa.server import Limits, NetworkEngine

from procs import ROOT, SCOPA

ENV = dict(os.environ, TERM="dumb", COLUMNS="200", NO_COLOR="1")

# one event loop for the module: the tests share one server (its three games are played once)
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def scopa(*args: str) -> subprocess.CompletedProcess[str]:
    """The `scopa` command in a child process (the server keeps running in this loop)."""
    return await asyncio.to_thread(subprocess.run, [*SCOPA, *args], capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL, timeout=90, env=ENV, cwd=ROOT)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[NetworkEngine]:
    """A server that keeps three finished games; the tests only read them."""
    # Two people on one machine: rated only because the server allows their address.
    engine = NetworkEngine("127.0.0.1", 0, seed=11, db=str(tmp_path_factory.mktemp("records") / "games.db"),
                           limits=Limits(commands_per_second=None), rate_shared_addresses=["127.0.0.1"])
    await engine.start()
    async with await ClientSession.connect("127.0.0.1", engine.port, "greedy") as s, \
            await ClientSession.connect("127.0.0.1", engine.port, "randy") as r:
        for _ in range(3):
            info = await s.create_table(preset="scopa")
            await r.join_table(info.id)
            await asyncio.gather(s.play_game(GreedyBot()), r.play_game(RandomBot(seed=1)))
    try:
        yield engine
    finally:
        await engine.stop()


def address(engine: NetworkEngine) -> str:
    return f"127.0.0.1:{engine.port}"


async def test_games_lists_id_first_then_date_players_preset_result(server: NetworkEngine) -> None:
    done = await scopa("games", "--server", address(server))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["3", "2", "1"]
    for line in lines:
        game_id, date, time, *rest = line.split()
        assert len(date) == 10 and date[4] == "-" and len(time) == 5
        text = " ".join(rest)
        assert text.startswith("greedy, randy scopa ")
        assert " won " in text and text.endswith("(target reached)")
    only = await scopa("games", "--server", address(server), "--player", "randy", "--limit", "2")
    assert [line.split()[0] for line in only.stdout.splitlines()] == ["3", "2"]
    none = await scopa("games", "--server", address(server), "--player", "nobody")
    assert none.returncode == 0 and "no finished games of nobody" in none.stdout


async def test_record_fetches_a_game_that_replays(server: NetworkEngine, tmp_path: Path) -> None:
    out = tmp_path / "game2.json"
    done = await scopa("record", "--server", address(server), "2", "-o", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "game 2: record written to" in done.stdout
    check = await scopa("replay", str(out), "--check")
    assert check.returncode == 0 and check.stdout.startswith("consistent:")
    plain = await scopa("replay", str(out), "--plain")
    assert plain.stdout.startswith("Game 2: Scopa, 2p")


async def test_replay_server_fetches_a_finished_game_and_replays_it(server: NetworkEngine) -> None:
    check = await scopa("replay", "--server", address(server), "2", "--check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.startswith("consistent:")
    plain = await scopa("replay", "--server", address(server), "2", "--plain")
    assert plain.returncode == 0 and plain.stdout.startswith("Game 2: Scopa, 2p")
    missing = await scopa("replay", "--server", address(server), "99", "--plain")
    assert missing.returncode == 1 and "The server refused" in missing.stdout
    bad = await scopa("replay", "--server", address(server), "x/y")
    assert bad.returncode == 2 and "not a game id: 'x/y'" in bad.stdout


async def test_leaderboard_prints_rank_name_rating_games_wins(server: NetworkEngine) -> None:
    done = await scopa("leaderboard", "--server", address(server))
    assert done.returncode == 0, done.stdout + done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.split() == ["rank", "name", "rating", "games", "wins"]
    assert [r.split()[0] for r in rows] == ["1", "2"]
    assert {r.split()[1] for r in rows} == {"greedy", "randy"}
    assert all(r.split()[3] == "3" for r in rows)
    assert sum(int(r.split()[4]) for r in rows) == 3
    ratings = [float(r.split()[2]) for r in rows]
    assert ratings == sorted(ratings, reverse=True)
    other = await scopa("leaderboard", "--server", address(server), "--rules", "cirulla")
    assert other.returncode == 0 and "no rated games of cirulla yet" in other.stdout


@pytest.mark.parametrize("args,needle", [
    (["record", "x/y", "-o", "out.json"], "not a game id: 'x/y'"),
    (["record", "2", "-o", "/no/such/folder/out.json"], "cannot write the record"),
    (["games", "--player", "bad name!"], "not a valid player name"),
    (["games", "--limit", "0"], "--limit must be 1-100"),
    (["games", "--token", "short"], "not a seat token"),
    (["leaderboard", "--limit", "1000"], "--limit must be 1-100"),
])
async def test_bad_input_is_refused_before_connecting(server: NetworkEngine, args: list[str], needle: str) -> None:
    command, *rest = args
    done = await scopa(command, "--server", address(server), *rest)
    assert done.returncode == 2 and needle in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr


async def test_an_unknown_preset_or_address_is_refused(server: NetworkEngine) -> None:
    done = await scopa("leaderboard", "--server", address(server), "--rules", "poker")
    assert done.returncode == 2 and "invalid choice: 'poker'" in done.stderr
    done = await scopa("games", "--server", "127.0.0.1:notaport")
    assert done.returncode == 2 and "bad port" in done.stdout


async def test_the_server_refusals_are_clear(server: NetworkEngine, tmp_path: Path) -> None:
    done = await scopa("record", "--server", address(server), "99", "-o", str(tmp_path / "x.json"))
    assert done.returncode == 1 and "no finished game '99'" in done.stdout and "no_such_table" in done.stdout
    assert not (tmp_path / "x.json").exists()


@pytest.mark.asyncio(loop_scope="function")  # conftest's port: a server of the test's own loop
async def test_a_server_without_a_database_says_it_keeps_no_games(port: int) -> None:
    for command in ("games", "leaderboard"):
        done = await scopa(command, "--server", f"127.0.0.1:{port}")
        assert done.returncode == 1 and "keeps no finished games" in " ".join(done.stdout.split())


async def test_the_lobby_shows_the_leaderboard(server: NetworkEngine) -> None:
    import io

    from rich.console import Console

    from scopa.client.console import Lobby

    answers = iter(["b", "b cirulla", "b poker", "q"])
    out = io.StringIO()
    async with await ClientSession.connect("127.0.0.1", server.port, "ada") as s:
        await Lobby(s, Console(file=out, width=120), GreedyBot, input_fn=lambda prompt: next(answers)).run()
    text = out.getvalue()
    assert "rank  name" in text and "greedy" in text and "randy" in text
    assert "no rated games of cirulla yet" in text
    assert "'poker' is not a preset" in text
